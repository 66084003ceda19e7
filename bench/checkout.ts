// Benchmark: what a checkout costs over pytest itself. `sweci checkout` (a whole CLI process, as a
// user runs it: materialising, the target's run, the base's run, the records) against the same
// pytest command run by hand on the same two trees (the target, and the base with the target's
// tests), one after the other. Two projects: a generated one with 100 tests, and the demo task.
// The machine's bytecode seed is built by a warm-up checkout first (once per interpreter per
// machine, in a cache folder of the benchmark's own); its first build is timed on its own line.
// Checkout and plain pytest run in turn (A B A B …), so the ratio is taken pair by pair and a
// machine whose speed drifts moves both sides alike. Quote the medians.
//
//   npm run compile && npm run build && npm run bench:checkout        (SWECI_BENCH_RUNS pairs, default 5)
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildDemoDataset } from '../scripts/demo-dataset';
import { TestRepo } from '../test/unit/task/git-fixture';

const RUNS = Number(process.env.SWECI_BENCH_RUNS ?? 5);
const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
/** The `sweci` users run: the bundle (npm run build). SWECI_BENCH_CLI: another build's, to compare before and after a change. */
const CLI = path.resolve(process.env.SWECI_BENCH_CLI ?? path.join(__dirname, '../../dist/cli.js'));
/** Tests of the generated project, and how many of them the base fails. */
const TESTS = 100;
const FAILING_ON_BASE = 10;

interface Project {
  name: string;
  /** The checkout's arguments, without --into and --oracle. */
  source: string[];
}

interface Timing {
  checkout: number[];
  plain: number[];
}

/** Wall seconds of one process, from its start to its exit; it must exit with one of `ok` (pytest: 1 when tests fail). */
function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string, ok: readonly number[] = [0]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== null && ok.includes(code)) resolve(seconds);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr}`));
    });
  });
}

/** A git repository whose target passes all TESTS tests and whose base fails FAILING_ON_BASE of them. */
async function generatedProject(dir: string): Promise<string[]> {
  const repo = await TestRepo.create(dir);
  const functions = (upTo: number) => Array.from({ length: upTo }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join('\n');
  const tests: Record<string, string> = {};
  for (let file = 0; file < TESTS / 10; file++) {
    const body = Array.from({ length: 10 }, (_, j) => {
      const i = file * 10 + j;
      return `def test_f${i}():\n    assert ops.f${i}(1) == ${i + 1}\n`;
    });
    tests[`tests/test_ops_${file}.py`] = `from calc import ops\n\n\n${body.join('\n\n')}`;
  }
  const files = { 'src/calc/__init__.py': '', 'pyproject.toml': '[project]\nname = "calc"\nversion = "0"\n' };
  const base = await repo.commit('base', { ...files, 'src/calc/ops.py': functions(TESTS - FAILING_ON_BASE), ...tests });
  const target = await repo.commit('target', { 'src/calc/ops.py': functions(TESTS) });
  return ['--repo', dir, '--base', base, '--target', target];
}

/** The two trees pytest ran on in a checkout, copied without git: what a user would run pytest on by hand. */
async function plainTrees(taskDir: string, oracleDir: string, into: string): Promise<string[]> {
  const trees = [path.join(into, 'target'), path.join(into, 'base')];
  const noGit = (src: string) => path.basename(src) !== '.git';
  await fs.cp(path.join(oracleDir, 'target', 'code'), trees[0], { recursive: true, filter: noGit });
  await fs.cp(path.join(taskDir, 'app', 'code'), trees[1], { recursive: true, filter: noGit });
  return trees;
}

/** The reference's command, by hand: no report plugin, no cache or bytecode folder of the harness's. */
function plainArgs(tree: string): string[] {
  return ['-m', 'pytest', 'tests', '--color=no', '--tb=short', '--disable-warnings', '-rfE', `--rootdir=${tree}`];
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function measure(project: Project, tmp: string, env: NodeJS.ProcessEnv, firstSeed: boolean): Promise<Timing & { seedBuild?: number }> {
  const work = path.join(tmp, project.name);
  let n = 0;
  const checkout = async (): Promise<{ seconds: number; taskDir: string; oracleDir: string }> => {
    const taskDir = path.join(work, `task-${++n}`);
    const oracleDir = path.join(work, `oracle-${n}`);
    const seconds = await timed(process.execPath, [CLI, 'checkout', ...project.source, '--into', taskDir, '--oracle', oracleDir], env);
    return { seconds, taskDir, oracleDir };
  };
  // The warm-up checkout builds the machine's bytecode seed when there is none yet.
  const warm = await checkout();
  const trees = await plainTrees(warm.taskDir, warm.oracleDir, path.join(work, 'plain'));
  const plainEnv = { ...env, PYTHONPATH: 'src:.' };
  const plain = async (): Promise<number> => {
    let total = 0;
    for (const tree of trees) total += await timed(PYTHON, plainArgs(tree), plainEnv, tree, [0, 1]);
    return total;
  };
  await plain(); // warm-up: the trees' own bytecode, as after a first run by hand
  const timing: Timing = { checkout: [], plain: [] };
  for (let i = 0; i < RUNS; i++) {
    const c = await checkout();
    timing.checkout.push(c.seconds);
    await fs.rm(c.taskDir, { recursive: true, force: true });
    await fs.rm(c.oracleDir, { recursive: true, force: true });
    timing.plain.push(await plain());
  }
  return { ...timing, ...(firstSeed ? { seedBuild: warm.seconds } : {}) };
}

async function main(): Promise<void> {
  await fs.access(CLI).catch(() => {
    throw new Error(`${CLI} is missing: npm run build makes it.`);
  });
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-checkout-')));
  // The benchmark's own user cache: the oracles and the bytecode seed start empty.
  const env = { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache'), SWECI_PYTHON: PYTHON };
  try {
    const generated: Project = { name: `generated ${TESTS}-test project`, source: await generatedProject(path.join(tmp, 'generated-repo')) };
    const demo = await buildDemoDataset(path.join(tmp, 'demo-dataset'), { python: PYTHON });
    const demoProject: Project = { name: 'demo task', source: ['--dataset', demo.datasetDir, '--task', demo.taskId] };
    const results = [];
    for (const [i, project] of [generated, demoProject].entries()) results.push({ project, ...(await measure(project, tmp, env, i === 0)) });

    const load = (await fs.readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ').slice(0, 3).join(' ');
    console.log(`Checkout benchmark: sweci checkout (whole CLI process) against the same pytest command by hand on base and target`);
    console.log(`node ${process.version}, ${os.cpus().length} cores, ${PYTHON}; ${RUNS} pairs after a warm-up each; load average ${load}\n`);
    const col = (s: string | number, w = 12) => String(s).padStart(w);
    console.log(`${''.padEnd(28)}${col('checkout s')}${col('plain s')}${col('own cost s')}${col('ratio')}${col('ratio min')}${col('ratio max')}`);
    for (const r of results) {
      const ratios = r.checkout.map((c, i) => c / r.plain[i]);
      const own = r.checkout.map((c, i) => c - r.plain[i]);
      console.log(
        `${r.project.name.padEnd(28)}${col(median(r.checkout).toFixed(2))}${col(median(r.plain).toFixed(2))}${col(median(own).toFixed(2))}` +
          `${col(median(ratios).toFixed(2))}${col(Math.min(...ratios).toFixed(2))}${col(Math.max(...ratios).toFixed(2))}`,
      );
    }
    const first = results[0].seedBuild;
    if (first !== undefined) console.log(`\nfirst checkout on this machine (builds the bytecode seed): ${first.toFixed(2)} s`);
    console.log('checkout s, plain s: medians of wall time; own cost and ratio: medians of checkout − plain and checkout / plain, pair by pair.');
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
