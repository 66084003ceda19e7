// Run by podman-service.test.ts as the rootless user: holds the product's Podman service on the
// store named by its arguments, prints its pid and the service's socket, and lets the service go
// when it reads "release" (then prints "released"). "creates N" makes N containers at once, twenty
// times, through the product's createContainerOn, and prints how many were made and what failed.
import * as readline from 'node:readline';
import { Readable } from 'node:stream';
import { createContainerOn, type DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { checkPodmanHost } from '../../../src/core/runtime/podman/podman-preflight';
import { acquirePodman } from '../../../src/core/runtime/podman/podman-service';
import { DEFAULT_STEP_LIMITS } from '../../../src/core/runtime/step-limits';

async function main(): Promise<void> {
  const [root, runroot] = process.argv.slice(2);
  // No limits: this machine may have cgroup v1, where rootless Podman cannot hold them (and none is needed here).
  const host = checkPodmanHost({ limits: { ...DEFAULT_STEP_LIMITS, memoryMb: 0, processes: 0 }, cpus: 0 });
  const service = await acquirePodman({ root, runroot }, host);
  const socket = /\(([^()]+)\)$/.exec(service.connection.address)?.[1];
  console.log(JSON.stringify({ pid: process.pid, socket }));
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const creates = /^creates (\d+)$/.exec(line);
    if (creates) console.log(JSON.stringify(await createAtOnce(service.connection, Number(creates[1]))));
    if (line !== 'release') continue;
    await service.release();
    console.log('released');
    return;
  }
}

/** Rounds of `n` creates at once, as workers of one run make their steps' containers. */
async function createAtOnce(conn: DockerConnection, n: number): Promise<{ usernsMode?: string; made: number; failed: string[] }> {
  // An image of one empty layer: a create needs an image, not a runnable one.
  const imported = await conn.docker.importImage(Readable.from([Buffer.alloc(1024)]), { repo: 'localhost/sweci-empty' });
  await new Promise<void>((resolve, reject) => conn.docker.modem.followProgress(imported, (err) => (err ? reject(err) : resolve())));
  const usernsMode = conn.engine?.usernsMode;
  let made = 0;
  const failed: string[] = [];
  for (let round = 0; round < 20; round++) {
    const settled = await Promise.allSettled(
      Array.from({ length: n }, () =>
        createContainerOn(conn, {
          Image: 'localhost/sweci-empty:latest',
          Cmd: ['true'],
          HostConfig: { NetworkMode: 'none', ...(usernsMode ? { UsernsMode: usernsMode } : {}) },
        }),
      ),
    );
    for (const s of settled) {
      if (s.status === 'rejected') failed.push(String((s.reason as Error).message));
      else {
        made++;
        await s.value.remove({ force: true });
      }
    }
  }
  return { usernsMode, made, failed };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
