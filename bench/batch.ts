// Benchmark: `sweci run` throughput on the demo dataset's four tasks with 1 and 2 workers.
// The agents are the scripted stand-ins (real processes, each step a fraction of a second), the
// runtime is local (sandboxed when bubblewrap works), so the figure is the harness's own
// throughput: checkout, pytest on base and target, and 2–10 iterations per task. Runs alternate
// (1, 2, 1, 2, …) so a slow spell of the machine hits both. Goal: 2 workers ≥ 1.7 × 1 worker.
//
//   npm run compile && npm run build && node out/bench/batch.js     (SWECI_BENCH_ROUNDS=2)
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildDemoDataset } from '../scripts/demo-dataset';
import { writeScriptedSettings } from '../test/unit/helpers/scripted-settings';

const ROUNDS = Math.max(1, Number(process.env.SWECI_BENCH_ROUNDS ?? 2));
const root = path.resolve(__dirname, '..', '..');
const cli = path.join(root, 'dist', 'cli.js');

async function main(): Promise<void> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-batch-')));
  try {
    const demo = await buildDemoDataset(path.join(tmp, 'dataset'), { batch: true });
    const config = await writeScriptedSettings(demo, tmp);
    const tasks = demo.tasks.length;
    const iterations = demo.tasks.reduce((s, t) => s + t.commits.length - 1, 0);
    console.log(`${tasks} tasks, ${iterations} iterations in all; ${ROUNDS} round(s) of 1 worker, then 2 workers, alternating`);
    const times: Record<1 | 2, number[]> = { 1: [], 2: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const workers of [1, 2] as const) {
        const experiment = path.join(tmp, `exp-${round}-${workers}`);
        const started = performance.now();
        const r = spawnSync(
          process.execPath,
          [cli, 'run', '--dataset', demo.datasetDir, '--experiment', experiment, '--config', config, '--runtime', 'local', '--workers', String(workers)],
          { encoding: 'utf8' },
        );
        const seconds = (performance.now() - started) / 1000;
        if (r.status !== 0 || !r.stdout.includes(`finished: ${tasks} solved`))
          throw new Error(`sweci run failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
        times[workers].push(seconds);
        console.log(`round ${round + 1}, ${workers} worker(s): ${seconds.toFixed(1)} s, ${((tasks / seconds) * 60).toFixed(2)} tasks/minute`);
        await fs.rm(experiment, { recursive: true, force: true });
      }
    }
    const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
    const rate = (w: 1 | 2) => (tasks / mean(times[w])) * 60;
    console.log(`\n1 worker:  ${rate(1).toFixed(2)} tasks/minute (mean of ${ROUNDS})`);
    console.log(`2 workers: ${rate(2).toFixed(2)} tasks/minute`);
    console.log(`ratio 2/1: ${(rate(2) / rate(1)).toFixed(2)} (goal ≥ 1.7 on 2 cores; ${os.cpus().length} cores here)`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
