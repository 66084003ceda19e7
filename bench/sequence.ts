// Benchmark: the cost of a sequence's results matrix. After task i, the tests of the i earlier
// tasks are re-run on its code (each on a scratch copy, confined like any pytest run), so row i
// should cost about i re-runs and a sequence of N tasks N(N−1)/2 in all. This times row 1 (one
// re-run) against row 2 (two), alternating (1, 2, 1, 2, …), on the 3-task sequence the tests
// build, and prints the ratio (goal: ≈ 2, linear in the earlier tasks) and one re-run's cost
// against a plain pytest run of the same tests in the task folder (the scratch copy's overhead).
//
//   npm run compile && npm run build && node out/bench/sequence.js     (SWECI_BENCH_ROUNDS=5)
// For an outside timer (farm-bench, A B A B), one piece at a time:
//   node out/bench/sequence.js prepare DIR      the fixture and its sequence run, in DIR
//   node out/bench/sequence.js row DIR 2        evaluate row 2 of it once
import { spawnSync } from 'node:child_process';
import { taskFolder } from '../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { evaluateRow } from '../src/core/sequence/evaluate-row';
import { runPytest } from '../src/core/pytest/run-pytest';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { findBubblewrap } from '../src/core/runtime/sandbox';
import { buildSequenceFixture } from '../test/unit/helpers/sequence-fixture';

const ROUNDS = Math.max(1, Number(process.env.SWECI_BENCH_ROUNDS ?? 5));
const cli = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

/** The generated sequence, run once with the scripted agents into `dir`/exp; its task folders. */
async function prepare(dir: string): Promise<string[]> {
  const fx = await buildSequenceFixture(dir);
  const experiment = path.join(dir, 'exp');
  const r = spawnSync(
    process.execPath,
    [cli, 'run', '--sequence', fx.sequenceFile, '--repos', fx.reposDir, '--experiment', experiment, '--config', fx.settingsFile],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`sweci run --sequence failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return fx.taskIds.map((id) => path.join(experiment, id));
}

const pytest = { python: 'python3', timeoutMs: 120_000, format: 'auto' as const, env: {} };
const runtime = async () => new LocalRuntime({ bwrap: await findBubblewrap() });

async function main(): Promise<void> {
  const [mode, dir, row] = process.argv.slice(2);
  if (mode === 'prepare') {
    await prepare(path.resolve(dir));
    return;
  }
  if (mode === 'row') {
    const taskDirs = (await fs.readdir(path.join(dir, 'exp')))
      .filter((n) => n.startsWith('acme__'))
      .sort()
      .map((n) => taskFolder(path.join(dir, 'exp', n)));
    const values = await evaluateRow(Number(row), { ...pytest, tasks: taskDirs, runtime: await runtime() });
    if (values.slice(0, Number(row) + 1).some((v) => v === null)) throw new Error(`row ${row} was not measured: ${JSON.stringify(values)}`);
    return;
  }
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-sequence-')));
  try {
    const taskDirs = await prepare(tmp);
    const rt = await runtime();
    const time = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      await f();
      return (performance.now() - t) / 1000;
    };
    const rows: Record<1 | 2, number[]> = { 1: [], 2: [] };
    const plain: number[] = [];
    console.log(`3 tasks, ${ROUNDS} round(s): row 1 (1 earlier task re-run), row 2 (2), and a plain pytest run, alternating`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const i of [1, 2] as const) rows[i].push(await time(() => evaluateRow(i, { ...pytest, tasks: taskDirs.map(taskFolder), runtime: rt })));
      const code = taskFolder(taskDirs[0]).codeDir;
      plain.push(await time(() => runPytest(rt, { ...pytest, codeDir: code, reportFile: path.join(tmp, `plain-${round}`, 'report') })));
      console.log(
        `round ${round + 1}: row 1 ${rows[1].at(-1)!.toFixed(2)} s · row 2 ${rows[2].at(-1)!.toFixed(2)} s · plain pytest ${plain.at(-1)!.toFixed(2)} s`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const perRerun = median(rows[2]) - median(rows[1]);
    console.log(`\nrow 1: ${median(rows[1]).toFixed(2)} s, row 2: ${median(rows[2]).toFixed(2)} s (medians)`);
    console.log(`ratio row 2 / row 1: ${(median(rows[2]) / median(rows[1])).toFixed(2)} (goal ≈ 2: linear in the earlier tasks)`);
    console.log(`one re-run: ${perRerun.toFixed(2)} s; a plain pytest run: ${median(plain).toFixed(2)} s; ratio ${(perRerun / median(plain)).toFixed(2)}`);
    console.log(
      `a sequence of N tasks re-runs N(N−1)/2 tasks' tests: N = 20 → 190 × ${perRerun.toFixed(2)} s ≈ ${((190 * perRerun) / 60).toFixed(1)} min here`,
    );
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
