// A Docker engine of a test's own (a dockerd with its own data, run folder, containerd and
// bridge), for what must not happen to the shared engine every other file uses: stopped and
// started under a run, or a disk filled. A file that uses only this (and no helpers/docker.ts)
// touches nothing of the shared engine, so it runs in the unit tier's pool (test/unit-lanes.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectDocker, pingEngine, type DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { DEMO_IMAGE } from '../../../scripts/demo-image';
import { repoRoot } from './repo-root';

/**
 * A second engine of our own, to stop and start under a run (the main one serves every other
 * test). It gets a bridge of its own and no iptables rules, so it cannot disturb the first
 * (`--bridge=none` would delete the host's docker0, which the main engine uses).
 */
export class SpareEngine {
  private proc: ChildProcess | undefined;
  private tmpfs = false;
  readonly socket: string;
  private readonly bridge: string;
  private constructor(
    readonly root: string,
    private readonly runDir: string,
  ) {
    this.socket = path.join(runDir, 'd.sock');
    // Interface names have at most 15 characters.
    this.bridge = `swe${path
      .basename(runDir)
      .slice(-8)
      .replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 15);
  }

  /** `dataTmpfsMb`: keep the engine's images on a memory filesystem of that size (a small disk, for tests of a full one; needs root). */
  static async create(opts: { dataTmpfsMb?: number } = {}): Promise<SpareEngine> {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-engine-'));
    // Short: unix socket paths must stay under 108 characters.
    const runDir = await fs.mkdtemp('/run/sweci-e');
    const engine = new SpareEngine(root, runDir);
    if (opts.dataTmpfsMb) {
      await fs.mkdir(engine.dataRoot);
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${opts.dataTmpfsMb}m`, 'tmpfs', engine.dataRoot], { encoding: 'utf8' });
      if (mounted.status !== 0) throw new Error(`cannot mount a tmpfs for the spare engine's data: ${mounted.stderr}`);
      engine.tmpfs = true;
    }
    await engine.start();
    return engine;
  }

  /** Where the engine keeps its images. */
  get dataRoot(): string {
    return path.join(this.root, 'data');
  }

  get connection(): DockerConnection {
    return connectDocker({ socketPath: this.socket });
  }

  async start(): Promise<void> {
    if (spawnSync('ip', ['link', 'show', this.bridge], { stdio: 'ignore' }).status !== 0) {
      const made = spawnSync('ip', ['link', 'add', this.bridge, 'type', 'bridge'], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`cannot make the spare engine's bridge ${this.bridge}: ${made.stderr}`);
    }
    const log = await fs.open(path.join(this.root, 'dockerd.log'), 'a');
    this.proc = spawn(
      'dockerd',
      [
        '--data-root',
        this.dataRoot,
        '--exec-root',
        path.join(this.runDir, 'x'),
        '--pidfile',
        path.join(this.runDir, 'pid'),
        '-H',
        `unix://${this.socket}`,
        `--bridge=${this.bridge}`,
        '--iptables=false',
        '--ip-masq=false',
        '--ip-forward=false',
      ],
      { stdio: ['ignore', log.fd, log.fd] },
    );
    this.proc.on('exit', () => void log.close().catch(() => undefined));
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await pingEngine(this.connection, 1000);
        break;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`the spare engine did not start: ${(err as Error).message}; see ${this.root}/dockerd.log`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    await this.untilItMakesContainers(deadline);
  }

  /**
   * A restarted engine answers pings while it still cleans up the containers it lost; once, in
   * CI, its first container then failed with "error creating overlay mount … invalid argument".
   * Started means able to make a container: that is what the tests restart it for.
   */
  private async untilItMakesContainers(deadline: number): Promise<void> {
    const { docker } = this.connection;
    if ((await docker.listImages({ filters: { reference: [DEMO_IMAGE] } })).length === 0) return; // first start: no image yet
    for (let attempt = 1; ; attempt++) {
      try {
        const probe = await docker.createContainer({ Image: DEMO_IMAGE, Cmd: ['true'] });
        await probe.remove({ force: true });
        if (attempt > 1) await fs.appendFile(path.join(this.root, 'dockerd.log'), `[test] the engine made a container at attempt ${attempt}\n`);
        return;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`the spare engine answers but cannot make a container: ${(err as Error).message}; see ${this.root}/dockerd.log`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  get running(): boolean {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Stops the engine as a user or a crash would, and waits until it is gone. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }

  async dispose(): Promise<void> {
    await this.stop();
    spawnSync('ip', ['link', 'delete', this.bridge], { stdio: 'ignore' });
    // The engine's own log outlives it (test-results/ is not committed): when a fault test fails
    // on something the engine did, this is what says why.
    const kept = path.join(repoRoot, 'test-results', 'spare-engine-dockerd.log');
    await fs.mkdir(path.dirname(kept), { recursive: true });
    await fs.copyFile(path.join(this.root, 'dockerd.log'), kept).catch(() => undefined);
    if (this.tmpfs) spawnSync('umount', ['-l', this.dataRoot], { stdio: 'ignore' });
    await fs.rm(this.root, { recursive: true, force: true }).catch(() => undefined);
    await fs.rm(this.runDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
