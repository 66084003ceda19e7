// A percentile bootstrap over tasks clustered by repository. SWE-CI's tasks come from fewer
// repositories than tasks, and tasks of one repository are not independent: resampling tasks
// one by one makes the intervals too narrow. Each resample draws as many clusters as there are,
// with replacement, and takes the mean over every task of the drawn clusters. A paired
// difference is the same thing over per-task differences. Pure: no node imports.
import { randomIndex, seededRandom } from './seeded-random';

/** One task's values (one per statistic) and the cluster it is resampled with. */
export interface ClusteredTask {
  cluster: string;
  values: readonly number[];
}

export interface BootstrapOptions {
  resamples: number;
  seed: number;
}

/**
 * The 95% percentile interval of the mean of each statistic. Every statistic uses the same
 * draws. The clusters are taken in the order of their first task, and the generator is started
 * afresh from `seed` for each call: the same tasks and seed give the same interval.
 */
export function clusterBootstrap(tasks: readonly ClusteredTask[], { resamples, seed }: BootstrapOptions): [number, number][] {
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`the bootstrap needs 1 or more resamples (got ${resamples})`);
  const width = tasks[0]?.values.length ?? 0;
  if (tasks.length === 0) return Array.from({ length: width }, () => [0, 0]);
  // Per cluster: the sum of each statistic and its number of tasks.
  const index = new Map<string, number>();
  const sums: number[][] = [];
  const counts: number[] = [];
  for (const t of tasks) {
    let c = index.get(t.cluster);
    if (c === undefined) {
      c = sums.length;
      index.set(t.cluster, c);
      sums.push(new Array<number>(width).fill(0));
      counts.push(0);
    }
    for (let s = 0; s < width; s++) sums[c][s] += t.values[s];
    counts[c]++;
  }
  const k = sums.length;
  const draws = clusterDraws(k, resamples, seed);
  const stats = Array.from({ length: width }, () => new Float64Array(resamples));
  const total = new Array<number>(width);
  for (let b = 0; b < resamples; b++) {
    total.fill(0);
    let n = 0;
    for (let i = 0; i < k; i++) {
      const c = draws[b * k + i];
      for (let s = 0; s < width; s++) total[s] += sums[c][s];
      n += counts[c];
    }
    for (let s = 0; s < width; s++) stats[s][b] = total[s] / n;
  }
  return stats.map((values) => {
    values.sort();
    return [percentile(values, 0.025), percentile(values, 0.975)];
  });
}

/** The last draws made: every entry and pair of a leaderboard has as many clusters, and draws the same. */
let lastDraws: { key: string; draws: Int32Array } | undefined;

/** The cluster indices of every resample (resample b's are at b·k …), drawn from a generator started at `seed`. */
function clusterDraws(k: number, resamples: number, seed: number): Int32Array {
  const key = `${k}:${resamples}:${seed}`;
  if (lastDraws?.key === key) return lastDraws.draws;
  const random = seededRandom(seed);
  const draws = new Int32Array(k * resamples);
  for (let i = 0; i < draws.length; i++) draws[i] = randomIndex(random, k);
  lastDraws = { key, draws };
  return draws;
}

/** The p-quantile of sorted values, linearly interpolated between the nearest two (Hyndman & Fan's type 7, R's default). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
