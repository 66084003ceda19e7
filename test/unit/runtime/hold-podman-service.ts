// Run by podman-service.test.ts as the rootless user: holds the product's Podman service on the
// store named by its arguments, prints its pid and the service's socket, and lets the service go
// when it reads "release" (then prints "released").
import * as readline from 'node:readline';
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
    if (line !== 'release') continue;
    await service.release();
    console.log('released');
    return;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
