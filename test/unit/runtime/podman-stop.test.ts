// A Podman step ends once its container's processes are gone, not once Podman has tidied up after
// them (issue 48's per-iteration overhead). Podman answers a kill of SIGKILL, and a wait, only
// after the cleanup process its conmon starts has unmounted the container: 0.3 to 1.4 s after
// the last process died on a loaded machine. Here the product's Podman service answers through a
// relay that holds back every answer to a kill or a wait until the test lets it go, as a Podman
// whose cleanup never ends would: the run must return all the same, its container stopped.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import Docker from 'dockerode';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { DEMO_IMAGE } from '../helpers/docker';
import { podmanForTests } from '../helpers/podman';

type Service = Awaited<ReturnType<typeof podmanForTests>>;

/**
 * A relay between a client and an engine's unix socket that holds back the answer to every
 * kill and wait request (the request itself goes on at once, so the kill happens) until release().
 * HTTP/1.1 clients send a connection's next request only after the answer to the last one, so
 * holding a connection's answers from such a request on holds that answer alone.
 */
class HoldingRelay {
  readonly held: string[] = [];
  private released = false;
  private readonly waiting: (() => void)[] = [];
  private readonly server: net.Server;

  constructor(
    readonly socketPath: string,
    engineSocket: string,
  ) {
    this.server = net.createServer((client) => {
      const engine = net.connect(engineSocket);
      let holding = false;
      const pending: Buffer[] = [];
      client.on('data', (chunk: Buffer) => {
        const line = /^(POST) (\S*\/containers\/([0-9a-f]+)\/(kill|wait))/.exec(chunk.toString('latin1', 0, 200));
        if (line && !this.released) {
          holding = true;
          this.held.push(`${line[4]} ${line[3]}`);
        }
        engine.write(chunk);
      });
      engine.on('data', (chunk: Buffer) => {
        if (holding && !this.released) pending.push(chunk);
        else client.write(chunk);
      });
      this.waiting.push(() => {
        for (const chunk of pending.splice(0)) client.write(chunk);
        holding = false;
      });
      const close = () => {
        client.destroy();
        engine.destroy();
      };
      client.on('close', close).on('error', close);
      engine.on('close', close).on('error', close);
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.socketPath, resolve));
  }

  /** Lets every held answer through, and all later ones. */
  release(): void {
    this.released = true;
    for (const go of this.waiting.splice(0)) go();
  }

  close(): Promise<void> {
    this.release();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let service: Service;
let tmp: string;
let relay: HoldingRelay;
let rt: DockerRuntime | undefined;

before(async () => {
  service = await podmanForTests();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-podman-stop-'));
  await fs.mkdir(path.join(tmp, 'out'));
  const engineSocket = (service.connection.docker.modem as unknown as { socketPath: string }).socketPath;
  relay = new HoldingRelay(path.join(tmp, 'relay.sock'), engineSocket);
  await relay.listen();
});

after(async () => {
  // A failing run is still waiting for its kill's answer: let it go, so the runtime can finish.
  relay.release();
  await rt?.dispose();
  await relay.close();
  await service.release();
  await fs.rm(tmp, { recursive: true, force: true });
});

// The run ends on a state; this cap only ends a test that fails (the run then waits on the held answer).
const CAP = { timeout: 120_000 };

test("a run returns once its container has stopped, while Podman's answer to the kill is still to come", CAP, async () => {
  const conn: DockerConnection = { ...service.connection, docker: new Docker({ socketPath: relay.socketPath }) };
  rt = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'test', prestart: false });
  // A process left behind, writing into the mount: it must be gone when the run returns.
  const r = await rt.run({
    command: 'sh',
    args: ['-c', '(while :; do date >> /sweci/out/daemon.txt; sleep 0.05; done) >/dev/null 2>&1 & echo started'],
    cwd: '/',
    mounts: [{ source: path.join(tmp, 'out'), target: '/sweci/out' }],
  });
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, 'started\n');
  const kills = relay.held.filter((h) => h.startsWith('kill '));
  assert.equal(kills.length, 1, `one kill, its answer held back: ${relay.held.join(', ')}`);
  // Asked of the service itself: the container does not run (or is removed already, as the run
  // does next), so neither does the daemon: its PID namespace went with the container's init.
  const id = kills[0].slice('kill '.length);
  const state = await service.connection.docker
    .getContainer(id)
    .inspect()
    .then(
      (info) => info.State,
      (err: unknown) => {
        assert.match(String(err), /no such container/i);
        return undefined;
      },
    );
  assert.notEqual(state?.Running, true, `the container still runs: ${JSON.stringify(state)}`);
});
