// Benchmark: what Podman costs against Docker (issue 48), on the demo task with the demo image.
//
// 1. Per-iteration harness overhead. One iteration as `sweci run` runs it by default: the
//    Architect and the Programmer on the host (`true`, so only the harness is measured) and pytest
//    through DockerRuntime (a fresh container started ahead, the code bind-mounted), once over
//    Docker's engine and once over SWE-CI's Podman service. Each engine's overhead is its wall
//    time less its floor: two host `true` and the same pytest command exec'd in a container of
//    that engine that is already running (what no harness avoids). Docker and Podman alternate
//    round by round, so a drifting machine affects both alike. Goal: Podman ≤ 1.2 × Docker.
//    Beside it, each engine's own cost per container with no harness at all, `run --rm` of the
//    same image through its CLI, alternating: how much of Podman's gap is Podman's.
// 2. Loading the task image: ensureImage (the product's load: the archive gunzipped as a stream
//    into a `podman load` process of its own, then labelled through the service) against
//    `gzip -dc image.tar.gz | podman load` by hand, into the same store of the bench's own, the
//    image removed before each load (not timed); the two alternate. The service is running for
//    ours (a run starts it once for all its tasks). Each of ours is a first load (the archive's
//    digest forgotten before it). The order alternates A B B A, so neither always follows the
//    removal of the other's image. Goal: ours ≤ 1.1 × by hand.
//
// Beside each wall time, CPU time (user + system, every process involved: this one, the podman
// load it reaped, and the Podman service's process group; by hand, gzip and podman as their
// shell reaped them), and of it the `podman load` process's own (the same work in both), since
// the machine is shared and its load is printed too. Docker's engine is shared with whatever
// else runs here, so the overhead's CPU counts this process (the harness) and Podman's service,
// not dockerd.
//
//   npm run compile && node out/bench/podman.js [--iterations N] [--loads N] [--only overhead|load]
//       [--store-on DIR] [--store-fs auto|as-is|journaled-ext4]
// Runs as root (rootful Podman) on a store under /var/tmp (or DIR) that it removes at the end.
// Both loads spool in the store's own temp folder (as SWE-CI's does). On an ext4 without a
// journal, a load's system time is mostly the inode allocator skipping inodes deleted in the last
// minutes (`perf`: `recently_deleted` under `ext4_create`), so it grows with every removal before
// it (store-filesystem.ts); there (`--store-fs auto`, the default) the store goes on a journaled
// ext4 of the bench's own, loop-mounted in DIR, as nearly every disk is. `as-is` keeps DIR's own
// filesystem; `--store-on /dev/shm` (a tmpfs) compares the two loads' own work with no disk.
import { execIn } from './container-exec';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type Docker from 'dockerode';
import { buildDemoDataset } from '../scripts/demo-dataset';
import { DEMO_IMAGE, demoImageArchive } from '../scripts/demo-image';
import { checkOutTask } from '../src/core/checkout/check-out-task';
import { buildPytestCommand } from '../src/core/pytest/pytest-command';
import { pytestMounts } from '../src/core/pytest/run-pytest';
import { connectDocker, pingEngine, type DockerConnection } from '../src/core/runtime/docker/docker-connection';
import { DockerRuntime } from '../src/core/runtime/docker/docker-runtime';
import { ensureImage } from '../src/core/runtime/docker/ensure-image';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { checkPodmanHost } from '../src/core/runtime/podman/podman-preflight';
import { acquirePodman } from '../src/core/runtime/podman/podman-service';
import { podmanGlobalArgs, podmanTmpDir } from '../src/core/runtime/podman/podman-store';
import { DEFAULT_RUNTIME_SETTINGS, type PodmanSettings } from '../src/core/runtime/runtime-settings';
import { readDatasetTasks } from '../src/core/task/dataset';
import { taskFolder } from '../src/core/workspace/task-folder';
import { mountJournaledExt4, storeFilesystem } from './store-filesystem';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number): string => `${x.toFixed(0).padStart(6)} ms`;
const load = (): string => os.loadavg()[0].toFixed(1);

/** Clock ticks a second (USER_HZ): /proc counts CPU time in them. */
const TICK_MS = 10;

/** Fields of /proc/<pid>/stat after the command name (state is [0], utime [11], cutime [13]). */
function statFields(pid: string | number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU ms of a process group's live processes, with what they reaped (the service's helpers). */
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    const f = /^\d+$/.test(name) ? statFields(name) : undefined;
    if (f && Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks * TICK_MS;
}

/** The process group of SWE-CI's Podman service on `runroot` (it leads a group of its own). */
function serviceGroup(runroot: string): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = (() => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    if (cmd.includes('system\0service') && cmd.includes(runroot)) return Number(statFields(name)?.[2]);
  }
  throw new Error(`no Podman service on ${runroot}`);
}

const selfCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms of this process and of the children it reaped (a load's `podman load`). */
const selfAndReapedCpuMs = (): number => {
  const f = statFields('self') ?? [];
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string', default: '8' },
      loads: { type: 'string', default: '3' },
      only: { type: 'string' },
      'store-on': { type: 'string', default: '/var/tmp' },
      'store-fs': { type: 'string', default: 'auto' },
    },
  });
  const rounds = Math.max(1, Number(values.iterations));
  const loads = Math.max(1, Number(values.loads));
  const storeFs = values['store-fs'];
  if (!['auto', 'as-is', 'journaled-ext4'].includes(storeFs)) throw new Error(`--store-fs is auto, as-is or journaled-ext4, not "${storeFs}"`);
  const disk = storeFilesystem(values['store-on']);
  let storeOn = values['store-on'];
  let ownFs: { dir: string; release(): void } | undefined;
  if (storeFs === 'journaled-ext4' || (storeFs === 'auto' && disk.unjournaledExt4)) {
    const made = mountJournaledExt4(storeOn, 8);
    if ('why' in made) {
      if (storeFs === 'journaled-ext4') throw new Error(`--store-fs journaled-ext4: ${made.why}`);
      console.log(
        `note: ${disk.description} has no journal, and no journaled ext4 could be made for the store (${made.why}): each load's time grows with the deletes before it`,
      );
    } else {
      ownFs = made;
      storeOn = made.dir;
    }
  }
  console.log(
    ownFs
      ? `Podman store on a journaled ext4 of the bench's own (loop-mounted in ${values['store-on']}, which is on ${disk.description})`
      : `Podman store on ${disk.description}`,
  );
  try {
    await measure(storeOn, values.only, rounds, loads);
  } finally {
    ownFs?.release();
  }
}

/** The two halves, with the bench's store under `storeOn`; removes all it made. */
async function measure(storeOn: string, only: string | undefined, rounds: number, loads: number): Promise<void> {
  const store: PodmanSettings = {
    root: await fs.mkdtemp(path.join(storeOn, 'sweci-bench-podman-')),
    runroot: await fs.mkdtemp(path.join('/run', 'sweci-bp-')),
  };
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-podman-')));
  const archive = demoImageArchive();
  // Read above: the demo archive lives in the user cache. The digests remembered go to the bench's own.
  process.env.XDG_CACHE_HOME = path.join(tmp, 'cache');
  const docker = connectDocker();
  await pingEngine(docker);
  const settings = DEFAULT_RUNTIME_SETTINGS;
  const service = await acquirePodman(store, checkPodmanHost({ limits: settings.limits, cpus: settings.docker.cpus }));
  const podman = service.connection;
  const group = serviceGroup(store.runroot);
  try {
    if (only !== 'load') {
      const loadBefore = load();
      await ensureImage(docker, { archive });
      const overhead = await iterationOverhead(docker, podman, group, tmp, archive, rounds);
      console.log(
        `per-iteration harness overhead (architect and programmer on the host, pytest in a container), demo task, ${rounds} rounds, medians; load average ${loadBefore} → ${load()}`,
      );
      console.log(
        `  ${'engine'.padEnd(8)} ${'wall'.padStart(9)} ${'floor'.padStart(9)} ${'overhead'.padStart(9)} ${'harness cpu'.padStart(12)} ${'engine cpu'.padStart(11)}`,
      );
      for (const [name, o] of Object.entries(overhead))
        console.log(
          `  ${name.padEnd(8)} ${ms(o.wall)} ${ms(o.floor)} ${ms(o.wall - o.floor)} ${ms(o.selfCpu).padStart(12)} ${(o.engineCpu === undefined ? 'shared' : ms(o.engineCpu)).padStart(11)}`,
        );
      const [dockerOver, podmanOver] = [overhead.docker.wall - overhead.docker.floor, overhead.podman.wall - overhead.podman.floor];
      console.log(`  ratio podman / docker (overhead, wall): ${(podmanOver / dockerOver).toFixed(2)}   (goal ≤ 1.2)`);
      console.log(`  ratio podman / docker (harness cpu per iteration): ${(overhead.podman.selfCpu / overhead.docker.selfCpu).toFixed(2)}`);
      // What each engine itself costs per container, with no harness: its CLI's `run --rm` of the same image.
      const byHand = runRmTimes(store, rounds);
      console.log(
        `  by hand, \`run --rm <image> true\` (${rounds} each, alternating, medians): docker ${ms(byHand.docker)}, podman ${ms(byHand.podman)}; Podman's own extra per container ${ms(byHand.podman - byHand.docker)}`,
      );
      console.log(`  Podman's overhead over Docker's in the harness: ${ms(podmanOver - dockerOver)} (its containers are started ahead, off the iteration)`);
    }
    if (only !== 'overhead') {
      const loadBefore = load();
      const loaded = await loadTimes(podman, group, store, archive, loads);
      console.log(
        `loading the demo image (${(loaded.archiveBytes / 1e6).toFixed(0)} MB gzipped) into a Podman store, ${loads} loads each, medians; load average ${loadBefore} → ${load()}`,
      );
      console.log(`  ${''.padEnd(36)} ${'wall'.padStart(9)} ${'cpu'.padStart(9)} ${'podman cpu'.padStart(10)}`);
      console.log(`  ${'ensureImage (ours, with its label)'.padEnd(36)} ${ms(loaded.ours.wall)} ${ms(loaded.ours.cpu)} ${ms(loaded.ours.podmanCpu)}`);
      console.log(`  ${'gzip -dc | podman load (by hand)'.padEnd(36)} ${ms(loaded.byHand.wall)} ${ms(loaded.byHand.cpu)} ${ms(loaded.byHand.podmanCpu)}`);
      console.log(
        `  ratio ours / by hand: wall ${(loaded.ours.wall / loaded.byHand.wall).toFixed(2)}   (goal ≤ 1.1), cpu ${(loaded.ours.cpu / loaded.byHand.cpu).toFixed(2)}`,
      );
      console.log(
        `  each load in the order run (podman load's own cpu): ${loaded.sequence.map(([who, t]) => `${who} ${(t.podmanCpu / 1000).toFixed(1)} s`).join(', ')}`,
      );
    }
  } finally {
    await podman.docker
      .listImages()
      .then((images) =>
        Promise.all(
          images.map((i) =>
            podman.docker
              .getImage(i.Id)
              .remove({ force: true })
              .catch(() => undefined),
          ),
        ),
      )
      .catch(() => undefined);
    await service.release();
    // Podman's overlay driver mounts the store's overlay folder on itself, once per podman process that opened it.
    for (let i = 0; i < 20 && spawnSync('umount', [path.join(store.root, 'overlay')], { stdio: 'ignore' }).status === 0; i++);
    await fs.rm(tmp, { recursive: true, force: true });
    await fs.rm(store.runroot, { recursive: true, force: true });
    await fs.rm(store.root, { recursive: true, force: true });
  }
}

interface Overhead {
  wall: number;
  floor: number;
  /** CPU of this process over an iteration (the harness's side). */
  selfCpu: number;
  /** CPU of the engine over an iteration, when it is ours alone (Podman's service). */
  engineCpu?: number;
}

async function iterationOverhead(
  docker: DockerConnection,
  podman: DockerConnection,
  group: number,
  tmp: string,
  archive: string,
  rounds: number,
): Promise<Record<'docker' | 'podman', Overhead>> {
  await ensureImage(podman, { archive });
  const demo = await buildDemoDataset(path.join(tmp, 'dataset'));
  const [spec] = await readDatasetTasks(demo.datasetDir, 'default');
  const layout = taskFolder(path.join(tmp, 'task'));
  await checkOutTask(spec, {
    python: 'python3',
    timeoutMs: 600_000,
    format: 'junit',
    task: layout,
    oracleDir: path.join(tmp, 'oracle'),
    runtime: new LocalRuntime(),
    runTests: true,
  });
  const reportFile = path.join(tmp, 'report', 'raw-report');
  await fs.mkdir(path.dirname(reportFile), { recursive: true });
  const host = new LocalRuntime();
  const mounts = pytestMounts(layout.codeDir, reportFile);
  const engines = { docker, podman };
  const setups = await Promise.all(
    (['docker', 'podman'] as const).map(async (name) => {
      const conn = engines[name];
      const tests = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'bench' });
      const cmd = buildPytestCommand({
        python: 'python',
        codeDir: tests.pathIn(mounts, layout.codeDir),
        reportFile: tests.pathIn(mounts, reportFile),
        format: 'junit',
        pathDelimiter: ':',
      });
      const floorBox = await startContainer(conn, [`${layout.codeDir}:/app/code`]);
      const floorCmd = buildPytestCommand({ python: 'python', codeDir: '/app/code', reportFile: '/tmp/floor-report.xml', format: 'junit', pathDelimiter: ':' });
      return { name, tests, cmd, floorBox, floorCmd };
    }),
  );
  const hostTrue = async () => {
    const r = await host.run({ command: 'true', args: [], cwd: layout.appDir });
    if (r.exitCode !== 0) throw new Error('host true failed');
  };
  const series = () => ({ wall: [] as number[], exec: [] as number[], selfCpu: [] as number[], engineCpu: [] as number[] });
  const times = { docker: series(), podman: series() };
  const hostTimes: number[] = [];
  try {
    for (let round = 0; round <= rounds; round++) {
      for (const s of setups) {
        let t = performance.now();
        const [cpu0, engine0] = [selfCpuMs(), groupCpuMs(group)];
        await hostTrue();
        await hostTrue();
        const r = await s.tests.run({ command: s.cmd.command, args: s.cmd.args, cwd: s.cmd.cwd, env: s.cmd.env, mounts });
        if (r.exitCode !== 1) throw new Error(`pytest in ${s.name} exited ${r.exitCode}: ${r.stderr}`);
        const wall = performance.now() - t;
        const [selfCpu, engineCpu] = [selfCpuMs() - cpu0, groupCpuMs(group) - engine0];
        t = performance.now();
        await execIn(
          s.floorBox,
          [s.floorCmd.command, ...s.floorCmd.args],
          s.floorCmd.cwd,
          Object.entries(s.floorCmd.env).map(([k, v]) => `${k}=${v}`),
        );
        const exec = performance.now() - t;
        t = performance.now();
        await hostTrue();
        const hostMs = performance.now() - t;
        // One unmeasured round warms the caches and starts the first containers ahead.
        if (round > 0) {
          times[s.name].wall.push(wall);
          times[s.name].exec.push(exec);
          times[s.name].selfCpu.push(selfCpu);
          times[s.name].engineCpu.push(engineCpu);
          hostTimes.push(hostMs);
        }
      }
    }
  } finally {
    for (const s of setups) {
      await s.floorBox.remove({ force: true }).catch(() => undefined);
      await s.tests.dispose();
    }
  }
  const hostMedian = median(hostTimes);
  const of = (name: 'docker' | 'podman'): Overhead => ({
    wall: median(times[name].wall),
    floor: 2 * hostMedian + median(times[name].exec),
    selfCpu: median(times[name].selfCpu),
    ...(name === 'podman' ? { engineCpu: median(times[name].engineCpu) } : {}),
  });
  return { docker: of('docker'), podman: of('podman') };
}

interface Timed {
  wall: number;
  cpu: number;
  /** Of that CPU, the `podman load` process's own. */
  podmanCpu: number;
}

async function loadTimes(
  podman: DockerConnection,
  group: number,
  store: PodmanSettings,
  archive: string,
  loads: number,
): Promise<{ ours: Timed; byHand: Timed; archiveBytes: number; sequence: Array<readonly [string, Timed]> }> {
  const removeAll = async () => {
    const images = await podman.docker.listImages({ all: true });
    for (const i of images) await podman.docker.getImage(i.Id).remove({ force: true });
  };
  const ours: Timed[] = [];
  const byHand: Timed[] = [];
  const loadOurs = async (): Promise<void> => {
    await removeAll();
    await fs.rm(path.join(process.env.XDG_CACHE_HOME ?? '', 'swe-ci', 'archive-digest'), { recursive: true, force: true });
    const t = performance.now();
    const [cpu0, engine0, own0] = [selfAndReapedCpuMs(), groupCpuMs(group), selfCpuMs()];
    const loaded = await ensureImage(podman, { archive });
    if (!loaded.loaded) throw new Error('ensureImage did not load (the image was still there)');
    const cpu = selfAndReapedCpuMs() - cpu0;
    // What this process reaped meanwhile is the load's podman; the rest is ours.
    ours.push({ wall: performance.now() - t, cpu: cpu + groupCpuMs(group) - engine0, podmanCpu: cpu - (selfCpuMs() - own0) });
  };
  // GNU time's figures for the podman of a load by hand (its shell reaps gzip too).
  const timeFile = path.join(path.dirname(store.root), `${path.basename(store.root)}.time`);
  // Where ours spools (podman-load.ts): the same folder, so both write the same disk.
  const spool = podmanTmpDir(store) ?? '/var/tmp';
  await fs.mkdir(spool, { recursive: true, mode: 0o700 });
  const loadByHand = async (): Promise<void> => {
    await removeAll();
    const t = performance.now();
    // The shell prints its own stat once it has reaped gzip and podman: their CPU is its cutime and cstime.
    const stat = await new Promise<string>((resolve, reject) => {
      // A load starts no container: no OCI runtime to name.
      const args = [...podmanGlobalArgs(store, {}), 'load', '-q'].map((a) => `'${a}'`).join(' ');
      const child = spawn('sh', ['-c', `gzip -dc '${archive}' | /usr/bin/time -f '%U %S' -o '${timeFile}' podman ${args} >/dev/null && cat /proc/$$/stat`], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, TMPDIR: spool },
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`podman load exited ${code}`))));
    });
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [user, system] = (await fs.readFile(timeFile, 'utf8')).trim().split(/\s+/).map(Number);
    byHand.push({ wall: performance.now() - t, cpu: (Number(f[13]) + Number(f[14])) * TICK_MS, podmanCpu: (user + system) * 1000 });
  };
  // A B B A: neither always goes first after a removal (which leaves the disk busy a while).
  for (let i = 0; i < loads; i++) {
    if (i % 2 === 0) {
      await loadOurs();
      await loadByHand();
    } else {
      await loadByHand();
      await loadOurs();
    }
  }
  await fs.rm(timeFile, { force: true });
  const med = (xs: Timed[]): Timed => ({
    wall: median(xs.map((x) => x.wall)),
    cpu: median(xs.map((x) => x.cpu)),
    podmanCpu: median(xs.map((x) => x.podmanCpu)),
  });
  return {
    ours: med(ours),
    byHand: med(byHand),
    archiveBytes: (await fs.stat(archive)).size,
    // In the order they ran: A B B A …
    sequence: ours
      .map((o, i) => (i % 2 === 0 ? [['ours', o] as const, ['by hand', byHand[i]] as const] : [['by hand', byHand[i]] as const, ['ours', o] as const]))
      .flat(),
  };
}

/** Median wall ms of `docker run --rm <demo image> true` and of the same through podman on the bench's store, alternating. */
function runRmTimes(store: PodmanSettings, rounds: number): { docker: number; podman: number } {
  const podmanArgs = podmanGlobalArgs(store, checkPodmanHost({ limits: DEFAULT_RUNTIME_SETTINGS.limits, cpus: 0 }));
  const times = { docker: [] as number[], podman: [] as number[] };
  const once = (name: 'docker' | 'podman', args: string[]): void => {
    const t = performance.now();
    const r = spawnSync(name, [...args, 'run', '--rm', '--network', 'none', DEMO_IMAGE, 'true'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${name} run --rm exited ${r.status}`);
    times[name].push(performance.now() - t);
  };
  // One unmeasured round of each warms the caches.
  for (let round = 0; round <= rounds; round++) {
    once('docker', []);
    once('podman', podmanArgs);
    if (round === 0) times.docker.length = times.podman.length = 0;
  }
  return { docker: median(times.docker), podman: median(times.podman) };
}

async function startContainer(conn: DockerConnection, binds: string[]): Promise<Docker.Container> {
  const c = await conn.docker.createContainer({
    Image: DEMO_IMAGE,
    Cmd: ['sleep', 'infinity'],
    WorkingDir: '/app',
    Labels: { 'dev.swe-ci.bench': '1' },
    HostConfig: { Init: true, Binds: binds, Ulimits: conn.engine?.ulimits ?? [] },
  });
  await c.start();
  return c;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
