// Benchmark: what Docker adds to each iteration, ours against the reference harness's pattern,
// on the demo task with the demo image and instant agents (so only the harness is measured).
//
// Per iteration, three steps run the same commands in every pattern: the Architect (`true`), the
// Programmer (`true`) and pytest (the real command on the demo task).
//   reference   a fresh container per step, `/app` copied in (tar over the API) before each step,
//               the code copied out after the Programmer and the report after pytest, then removed.
//   ours        agents on the host (the default), pytest through DockerRuntime (a fresh container
//               started ahead of time, the code bind-mounted, nothing copied).
//   ours+agents agents in containers too (runIn: container), through DockerRuntime.
//   floor       each step's command on its own: exec'd in one container that is already running
//               (`exec true`, `exec pytest`), or spawned on the host (`host true`). A pattern's
//               overhead is its wall time minus the floor of its own steps: what no harness avoids.
// The patterns run in turn (A B C D A B C D …) so a drifting machine affects all alike.
// Budget: ours' overhead ≤ 0.5 × the reference pattern's.
//
//   npm run compile && node out/bench/docker-overhead.js [--iterations N] [--only <pattern>]
import { execIn } from './container-exec';
import { execFileSync, spawn } from 'node:child_process';
import { taskFolder } from '../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type Docker from 'dockerode';
import { buildDemoDataset } from '../scripts/demo-dataset';
import { DEMO_IMAGE, demoImageArchive } from '../scripts/demo-image';
import { checkOutTask } from '../src/core/checkout/check-out-task';
import { buildPytestCommand } from '../src/core/pytest/pytest-command';
import { pytestMounts } from '../src/core/pytest/run-pytest';
import { connectDocker, pingEngine } from '../src/core/runtime/docker/docker-connection';
import { DockerRuntime } from '../src/core/runtime/docker/docker-runtime';
import { ensureImage } from '../src/core/runtime/docker/ensure-image';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import type { Runtime } from '../src/core/runtime/runtime';
import { readDatasetTasks } from '../src/core/task/dataset';

type Pattern = 'reference' | 'ours' | 'ours+agents' | 'exec true' | 'exec pytest' | 'host true';
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number): string => `${x.toFixed(0).padStart(6)} ms`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { iterations: { type: 'string', default: '8' }, only: { type: 'string' } } });
  const rounds = Math.max(1, Number(values.iterations));
  const conn = connectDocker();
  await pingEngine(conn);
  await ensureImage(conn, { archive: demoImageArchive() });

  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-docker-')));
  const demo = await buildDemoDataset(path.join(tmp, 'dataset'));
  const [spec] = await readDatasetTasks(demo.datasetDir, 'default');
  const taskDir = path.join(tmp, 'task');
  await checkOutTask(spec, {
    python: 'python3',
    timeoutMs: 600_000,
    format: 'junit',
    task: taskFolder(taskDir),
    oracleDir: path.join(tmp, 'oracle'),
    runtime: new LocalRuntime(),
    runTests: true,
  });
  const layout = taskFolder(taskDir);
  await fs.writeFile(layout.requirementFile, '<requirements/>\n');
  const reportFile = path.join(tmp, 'report', 'raw-report');
  await fs.mkdir(path.dirname(reportFile), { recursive: true });

  const host = new LocalRuntime();
  const tests = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'bench' });
  const agents = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'bench', network: true });
  const pytestInContainer = (report: string) =>
    buildPytestCommand({ python: 'python', codeDir: '/app/code', reportFile: report, format: 'junit', pathDelimiter: ':' });
  const mounts = pytestMounts(layout.codeDir, reportFile);
  const ours = buildPytestCommand({
    python: 'python',
    codeDir: tests.pathIn(mounts, layout.codeDir),
    reportFile: tests.pathIn(mounts, reportFile),
    format: 'junit',
    pathDelimiter: ':',
  });
  const appMount = [{ source: layout.appDir, target: '/app' }];

  const runPytest = async (rt: Runtime) => {
    const r = await rt.run({ command: ours.command, args: ours.args, cwd: ours.cwd, env: ours.env, mounts });
    if (r.exitCode !== 1) throw new Error(`pytest exited ${r.exitCode}: ${r.stderr}`);
  };
  const agentStep = async (rt: Runtime, inContainer: boolean) => {
    const r = await rt.run({ command: 'true', args: [], cwd: inContainer ? '/app' : layout.appDir, mounts: inContainer ? appMount : [] });
    if (r.exitCode !== 0) throw new Error('agent step failed');
  };

  // The floor: one container, already running, that sees the task.
  const floorBox = await startContainer(conn.docker, [`${layout.appDir}:/app`]);

  const patterns: Record<Pattern, () => Promise<void>> = {
    reference: () => referenceIteration(conn.docker, layout.appDir, tmp, pytestInContainer('/tmp/test_report.xml')),
    ours: async () => {
      await agentStep(host, false);
      await agentStep(host, false);
      await runPytest(tests);
    },
    'ours+agents': async () => {
      await agentStep(agents, true);
      await agentStep(agents, true);
      await runPytest(tests);
    },
    'exec true': async () => {
      await execIn(floorBox, ['true'], '/app');
    },
    'exec pytest': async () => {
      const cmd = pytestInContainer('/tmp/floor-report.xml');
      await execIn(
        floorBox,
        [cmd.command, ...cmd.args],
        cmd.cwd,
        Object.entries(cmd.env).map(([k, v]) => `${k}=${v}`),
      );
    },
    'host true': async () => {
      await agentStep(host, false);
    },
  };

  if (values.only) {
    // One pattern alone, for timing whole processes against each other from outside.
    const run = patterns[values.only as Pattern];
    if (!run) throw new Error(`--only takes one of ${Object.keys(patterns).join(', ')}`);
    const alone: number[] = [];
    for (let i = 0; i <= rounds; i++) {
      const t = performance.now();
      await run();
      if (i > 0) alone.push(performance.now() - t);
    }
    await floorBox.remove({ force: true });
    await Promise.all([tests.dispose(), agents.dispose()]);
    await fs.rm(tmp, { recursive: true, force: true });
    console.log(`${values.only}: ${ms(median(alone))} per iteration (median of ${rounds})`);
    return;
  }
  const times = Object.fromEntries(Object.keys(patterns).map((p) => [p, [] as number[]])) as unknown as Record<Pattern, number[]>;
  // One unmeasured round warms the caches (and starts our first containers ahead).
  for (let round = 0; round <= rounds; round++) {
    for (const name of Object.keys(patterns) as Pattern[]) {
      const t = performance.now();
      await patterns[name]();
      if (round > 0) times[name].push(performance.now() - t);
    }
  }

  // What Docker adds to one pytest run: with the container started ahead (ours), started on
  // demand, and the same command exec'd in a running container.
  const cold = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'bench', prestart: false });
  const pytestTimes = { ahead: [] as number[], cold: [] as number[], bare: [] as number[] };
  for (let i = 0; i <= rounds; i++) {
    let t = performance.now();
    await runPytest(tests);
    const aheadMs = performance.now() - t;
    t = performance.now();
    await runPytest(cold);
    const coldMs = performance.now() - t;
    t = performance.now();
    await patterns['exec pytest']();
    const bareMs = performance.now() - t;
    if (i > 0) {
      pytestTimes.ahead.push(aheadMs);
      pytestTimes.cold.push(coldMs);
      pytestTimes.bare.push(bareMs);
    }
  }

  await floorBox.remove({ force: true });
  await Promise.all([tests.dispose(), agents.dispose(), cold.dispose()]);
  await fs.rm(tmp, { recursive: true, force: true });

  const m = (p: Pattern) => median(times[p]);
  const floors: Record<'reference' | 'ours' | 'ours+agents', number> = {
    reference: 2 * m('exec true') + m('exec pytest'),
    ours: 2 * m('host true') + m('exec pytest'),
    'ours+agents': 2 * m('exec true') + m('exec pytest'),
  };
  const overhead = (p: keyof typeof floors) => m(p) - floors[p];
  console.log(`docker overhead per iteration (architect, programmer, pytest), demo task, ${rounds} rounds, medians`);
  console.log(`  ${'pattern'.padEnd(13)} ${'wall'.padStart(9)} ${'floor'.padStart(9)} ${'overhead'.padStart(9)}`);
  for (const p of ['reference', 'ours', 'ours+agents'] as const) console.log(`  ${p.padEnd(13)} ${ms(m(p))} ${ms(floors[p])} ${ms(overhead(p))}`);
  console.log(`  floor steps: exec true ${ms(m('exec true'))}, exec pytest ${ms(m('exec pytest'))}, host true ${ms(m('host true'))}`);
  console.log(`  ratio ours / reference (overhead):        ${(overhead('ours') / overhead('reference')).toFixed(2)}   (budget ≤ 0.5)`);
  console.log(`  ratio ours+agents / reference (overhead): ${(overhead('ours+agents') / overhead('reference')).toFixed(2)}`);
  const a = median(pytestTimes.ahead);
  const c = median(pytestTimes.cold);
  const b = median(pytestTimes.bare);
  console.log(`time Docker adds to one pytest run (over the same command exec'd in a running container), medians`);
  console.log(`  container started ahead (ours): ${ms(a - b)}   started on demand: ${ms(c - b)}   (bare exec ${ms(b)})`);
}

async function startContainer(docker: Docker, binds: string[]): Promise<Docker.Container> {
  const c = await docker.createContainer({
    Image: DEMO_IMAGE,
    Cmd: ['sleep', 'infinity'],
    // Docker makes the working directory: /app exists before anything is copied in.
    WorkingDir: '/app',
    Labels: { 'dev.swe-ci.bench': '1' },
    HostConfig: { Init: true, Binds: binds, Memory: 8192 * 1024 * 1024 },
  });
  await c.start();
  return c;
}

/** A tar of `names` under `dir`, as the reference sends `/app` into each fresh container. */
function tarOf(dir: string, names: string[]): Buffer {
  return execFileSync('tar', ['-C', dir, '-cf', '-', ...names], { maxBuffer: 1 << 30 });
}

async function untarInto(stream: NodeJS.ReadableStream, dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await new Promise<void>((resolve, reject) => {
    const tar = spawn('tar', ['-C', dir, '-xf', '-']);
    tar.on('error', reject);
    tar.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}`))));
    stream.pipe(tar.stdin);
  });
}

/** One iteration as the reference runs it: a fresh container per step, files copied in and out. */
async function referenceIteration(docker: Docker, appDir: string, tmp: string, pytest: ReturnType<typeof buildPytestCommand>): Promise<void> {
  const steps: Array<{ copyIn: string[]; cmd: string[]; cwd: string; env: string[]; copyOut?: string }> = [
    { copyIn: ['code', 'non-passed'], cmd: ['true'], cwd: '/app', env: [] },
    { copyIn: ['code', 'requirement.xml'], cmd: ['true'], cwd: '/app', env: [], copyOut: '/app/code' },
    {
      copyIn: ['code'],
      cmd: [pytest.command, ...pytest.args],
      cwd: pytest.cwd,
      env: Object.entries(pytest.env).map(([k, v]) => `${k}=${v}`),
      copyOut: '/tmp/test_report.xml',
    },
  ];
  for (const step of steps) {
    const c = await startContainer(docker, []);
    try {
      await c.putArchive(tarOf(appDir, step.copyIn), { path: '/app' });
      await execIn(c, step.cmd, step.cwd, step.env);
      if (step.copyOut) await untarInto(await c.getArchive({ path: step.copyOut }), path.join(tmp, 'copied-out'));
    } finally {
      await c.remove({ force: true });
    }
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
