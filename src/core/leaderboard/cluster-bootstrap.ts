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
  // Per cluster: the sum of each statistic (cluster c's at c·width …) and its number of tasks.
  const index = new Map<string, number>();
  const clusterSums: number[] = [];
  const clusterCounts: number[] = [];
  for (const t of tasks) {
    let c = index.get(t.cluster);
    if (c === undefined) {
      c = clusterCounts.length;
      index.set(t.cluster, c);
      for (let s = 0; s < width; s++) clusterSums.push(0);
      clusterCounts.push(0);
    }
    for (let s = 0; s < width; s++) clusterSums[c * width + s] += t.values[s];
    clusterCounts[c]++;
  }
  const k = clusterCounts.length;
  const sums = Float64Array.from(clusterSums);
  const counts = Int32Array.from(clusterCounts);
  const draws = clusterDraws(k, resamples, seed);
  const stats = Array.from({ length: width }, () => new Float64Array(resamples));
  // Typed arrays and one loop per width: the same additions in the same order, so the same bits.
  if (width === 1) {
    const [out] = stats;
    for (let b = 0, at = 0; b < resamples; b++) {
      let total = 0;
      let n = 0;
      for (const end = at + k; at < end; at++) {
        const c = draws[at];
        total += sums[c];
        n += counts[c];
      }
      out[b] = total / n;
    }
  } else {
    const total = new Float64Array(width);
    for (let b = 0, at = 0; b < resamples; b++) {
      total.fill(0);
      let n = 0;
      for (const end = at + k; at < end; at++) {
        const c = draws[at];
        for (let s = 0; s < width; s++) total[s] += sums[c * width + s];
        n += counts[c];
      }
      for (let s = 0; s < width; s++) stats[s][b] = total[s] / n;
    }
  }
  return stats.map((values) => {
    const [lo, hi] = percentiles(values, [0.025, 0.975]);
    return [lo, hi];
  });
}

/**
 * clusterBootstrap of each list, the same intervals bit for bit, with the lists whose tasks fall
 * in the same clusters in the same order bootstrapped together: their statistics side by side,
 * one pass over the draws for all of them (a leaderboard's pairs share their tasks, and one
 * pass each cost most of its time).
 */
export function clusterBootstraps(lists: ReadonlyArray<readonly ClusteredTask[]>, opts: BootstrapOptions): [number, number][][] {
  const out = new Array<[number, number][]>(lists.length);
  const together = new Map<string, number[]>();
  lists.forEach((tasks, i) => {
    // Same clusters, same order: the same cluster numbering and counts, and each statistic's sums made in the same order.
    const key = `${tasks[0]?.values.length ?? 0}\n${tasks.map((t) => t.cluster).join('\n')}`;
    const members = together.get(key);
    if (members) members.push(i);
    else together.set(key, [i]);
  });
  for (const members of together.values()) {
    const first = lists[members[0]];
    const width = first[0]?.values.length ?? 0;
    if (members.length === 1 || first.length === 0 || width === 0) {
      for (const i of members) out[i] = clusterBootstrap(lists[i], opts);
      continue;
    }
    const side = first.map((t, at) => ({ cluster: t.cluster, values: members.flatMap((i) => lists[i][at].values) }));
    const all = clusterBootstrap(side, opts);
    members.forEach((i, m) => (out[i] = all.slice(m * width, (m + 1) * width)));
  }
  return out;
}

/**
 * percentile() of each p (ascending) as sorted values would give it, selecting only the order
 * statistics it reads (quickselect, linear) instead of sorting all the resamples. Reorders
 * `values`. With a NaN among them it sorts (only sort puts NaN in an order).
 */
function percentiles(values: Float64Array, ps: readonly number[]): number[] {
  const n = values.length;
  if (values.some(Number.isNaN)) {
    values.sort();
    return ps.map((p) => percentile(values, p));
  }
  // Positions come in ascending order: each one is selected among the values right of the last.
  const known = new Map<number, number>();
  let from = 0;
  const at = (pos: number): number => {
    let v = known.get(pos);
    if (v === undefined) {
      selectInPlace(values, pos, from, n - 1);
      v = values[pos];
      known.set(pos, v);
      from = pos + 1;
    }
    return v;
  };
  return ps.map((p) => interpolated(at, n, p));
}

/** Hoare's selection: afterwards a[k] is the value sorting puts there, nothing greater left of it, nothing less right of it. */
function selectInPlace(a: Float64Array, k: number, left: number, right: number): void {
  while (left < right) {
    const x = a[left];
    const y = a[(left + right) >>> 1];
    const z = a[right];
    // The median of three, a value in the range: each scan below stops at it at the latest.
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    // a[left..j] ≤ pivot ≤ a[i..right]; between them, values equal to the pivot.
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
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
  return interpolated((i) => sorted[i], sorted.length, p);
}

/** The p-quantile of n values from the one at each position in sorted order. */
function interpolated(at: (position: number) => number, n: number, p: number): number {
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = at(lo);
  return a + (h - lo) * (at(Math.min(lo + 1, n - 1)) - a);
}
