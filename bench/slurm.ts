// Benchmark: what the Slurm scheduler costs. The demo dataset's four tasks run through a real
// two-node Slurm cluster on this machine (`sweci slurm --submit --max-parallel 2`, one element
// per node at a time, timed from the submission until the array has left `squeue`) against
// `sweci run --workers 2` on the same machine, each into a fresh experiment folder. The agents
// are the scripted stand-ins and the runtime is local, as in bench/batch.ts, so the difference is
// Slurm's: scheduling each element, starting one `sweci run` per task instead of one for all four,
// and our poll of squeue. Runs alternate (slurm, run, slurm, run, …) so a slow spell of the
// machine hits both; the ratio is taken pair by pair. Goal: slurm / run ≤ 1.15. Needs root and
// Debian's slurm-wlm and munge (scripts/slurm-cluster.sh installs them when missing).
//
//   npm run compile && npm run build && node out/bench/slurm.js     (SWECI_BENCH_PAIRS=3)
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildDemoDataset } from '../scripts/demo-dataset';
import { startSlurmCluster, type SlurmCluster } from '../test/harness/slurm-cluster';
import { writeScriptedSettings } from '../test/unit/helpers/scripted-settings';

const PAIRS = Math.max(1, Number(process.env.SWECI_BENCH_PAIRS ?? 3));
/** How often squeue is asked whether the array has ended: small beside a task's seconds. */
const POLL_MS = 200;
const root = path.resolve(__dirname, '..', '..');
const cli = path.join(root, 'dist', 'cli.js');

function sweci(args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`sweci ${args[0]} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilGone(job: string, env: NodeJS.ProcessEnv): Promise<void> {
  for (;;) {
    const out = execFileSync('squeue', ['-h', '-j', job], { encoding: 'utf8', env });
    if (out.trim() === '') return;
    await sleep(POLL_MS);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main(): Promise<void> {
  // Short: the cluster's munge socket lives under it, and a socket path is at most 107 bytes.
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'swb-')));
  let cluster: SlurmCluster | undefined;
  try {
    const demo = await buildDemoDataset(path.join(tmp, 'dataset'), { batch: true });
    const config = await writeScriptedSettings(demo, tmp);
    const tasks = demo.tasks.length;
    cluster = await startSlurmCluster(path.join(tmp, 'c'));
    const env = { ...process.env, ...cluster.env };
    const common = ['--dataset', demo.datasetDir, '--config', config, '--runtime', 'local'];
    console.log(`${tasks} tasks on a ${cluster.nodes.length}-node cluster; ${PAIRS} pair(s) of slurm, then run, alternating`);

    const slurm = async (experiment: string): Promise<number> => {
      const started = performance.now();
      const out = sweci(['slurm', ...common, '--experiment', experiment, '--max-parallel', '2', '--submit'], env);
      const job = /submitted job (\d+)/.exec(out)?.[1];
      if (!job) throw new Error(`sweci slurm printed no job id:\n${out}`);
      await untilGone(job, env);
      const seconds = (performance.now() - started) / 1000;
      const status = sweci(['slurm', 'status', experiment, '--json'], env);
      const finished = (JSON.parse(status) as { tasks: { finished: boolean }[] }).tasks.filter((t) => t.finished).length;
      if (finished !== tasks) throw new Error(`job ${job} ended with ${finished} of ${tasks} tasks finished:\n${status}`);
      return seconds;
    };
    const run = (experiment: string): number => {
      const started = performance.now();
      const out = sweci(['run', ...common, '--experiment', experiment, '--workers', '2'], env);
      const seconds = (performance.now() - started) / 1000;
      if (!out.includes(`finished: ${tasks} solved`)) throw new Error(`sweci run did not solve the ${tasks} tasks:\n${out}`);
      return seconds;
    };

    const pairs: Array<{ slurm: number; run: number }> = [];
    for (let i = 0; i < PAIRS; i++) {
      const a = path.join(tmp, `slurm-${i}`);
      const b = path.join(tmp, `run-${i}`);
      const pair = { slurm: await slurm(a), run: run(b) };
      pairs.push(pair);
      console.log(`pair ${i + 1}: slurm ${pair.slurm.toFixed(1)} s, run ${pair.run.toFixed(1)} s, ratio ${(pair.slurm / pair.run).toFixed(2)}`);
      await fs.rm(a, { recursive: true, force: true });
      await fs.rm(b, { recursive: true, force: true });
    }
    const ms = median(pairs.map((p) => p.slurm));
    const mr = median(pairs.map((p) => p.run));
    console.log(`\nmedian slurm --max-parallel 2: ${ms.toFixed(1)} s`);
    console.log(`median run --workers 2:        ${mr.toFixed(1)} s`);
    console.log(
      `ratio slurm/run: ${median(pairs.map((p) => p.slurm / p.run)).toFixed(2)} (median of the pairs' ratios; goal ≤ 1.15; ${os.cpus().length} cores here)`,
    );
  } finally {
    await cluster?.stop();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
