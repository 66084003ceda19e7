// bench:inspect-export — the Inspect export at the paper's scale: 17 model experiments of 100
// tasks, 20 iterations each, and the developers' replay (18 runs), written as real experiment
// folders by test/unit/helpers/leaderboard-experiments.ts (iteration records and run records; no
// agent transcripts). It times exportInspectLogs over all 17 experiments (one .eval per run, 18
// in all, and the listing), in this process, SWECI_BENCH_RUNS times (5), and prints the median
// wall time and its ratio to the goal (≤ 5 s), and the CPU time this process spent (what a busy
// machine does not inflate as much). It exits non-zero when an export fails or writes a wrong count.
//
//   npm run compile && npm run bench:inspect-export
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportInspectLogs } from '../src/core/export/inspect-log/export-inspect-logs';
import { writeLeaderboardExperiments } from '../test/unit/helpers/leaderboard-experiments';

const RUNS = Math.max(1, Number(process.env.SWECI_BENCH_RUNS ?? 5));
const GOAL_MS = 5000;
const EXPECTED_LOGS = 18;
const EXPECTED_SAMPLES = 18 * 100;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-bench-inspect-'));
  try {
    const t0 = performance.now();
    const { experiments } = writeLeaderboardExperiments(tmp);
    console.log(`fixture: ${experiments.length} experiments written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const times: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = path.join(tmp, `out-${i}`);
      const start = performance.now();
      const cpu0 = process.cpuUsage();
      let logs = 0;
      let samples = 0;
      for (const dir of experiments) {
        const r = await exportInspectLogs(dir, { outDir: out });
        logs += r.logs.length;
        samples += r.logs.reduce((n, l) => n + l.samples, 0);
      }
      const ms = performance.now() - start;
      const cpu = process.cpuUsage(cpu0);
      cpus.push((cpu.user + cpu.system) / 1000);
      if (logs !== EXPECTED_LOGS || samples !== EXPECTED_SAMPLES)
        throw new Error(`wrote ${logs} logs of ${samples} samples, not ${EXPECTED_LOGS} of ${EXPECTED_SAMPLES}`);
      const bytes = fs.readdirSync(out).reduce((n, f) => n + fs.statSync(path.join(out, f)).size, 0);
      times.push(ms);
      console.log(`run ${i + 1}: ${ms.toFixed(0)} ms, CPU ${cpus[i].toFixed(0)} ms (${logs} logs, ${samples} samples, ${(bytes / 2 ** 20).toFixed(1)} MiB)`);
      fs.rmSync(out, { recursive: true, force: true });
    }
    const m = median(times);
    console.log(
      `export of 18 runs × 100 tasks × 20 iterations: median ${m.toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}); ` +
        `ratio to the goal (${GOAL_MS} ms): ${(m / GOAL_MS).toFixed(2)}; CPU time median ${median(cpus).toFixed(0)} ms, ratio ${(median(cpus) / GOAL_MS).toFixed(2)} (load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
