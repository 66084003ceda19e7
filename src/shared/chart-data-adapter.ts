// TEMPORARY stand-in for src/core/chart-data/chart-types.ts and the browser-safe metrics of
// src/core/metrics, which another change is building. The chart codes against these names;
// when theirs land, the imports switch and this file is deleted. Browser-safe: no node imports.

export type RunKind = 'agent' | 'human' | 'human-history';

/** One pytest run of a run, as the chart plots it. */
export interface ChartPoint {
  iteration: number;
  /** Normalized change a(c); null when pytest did not run (crash, timeout). */
  a: number | null;
  passed: number | null;
  targetPassed: number;
  gap: number;
  regressions: number;
  crashed: boolean;
  tokensIn: number;
  tokensOut: number;
  timeSec: number;
  commit: string;
  note?: string;
}

export interface ChartSeries {
  run: string;
  kind: RunKind;
  points: ChartPoint[];
}

export interface RunMetricsRow {
  run: string;
  kind: RunKind;
  solved: boolean;
  zeroRegression: boolean;
  regressions: number;
  finalA: number | null;
  iterations: number;
  tokensIn: number;
  tokensOut: number;
  timeSec: number;
}

export interface ChartData {
  series: ChartSeries[];
  metrics: RunMetricsRow[];
  /** The longest run's iteration count: EvoScore pads every run to it. */
  maxIterations: number;
}

export type TestStatus = 'passed' | 'failed' | 'error' | 'missing';

/** Tests × iterations of one run. `cells` is row-major, one status code per cell ('p','f','e','m'). */
export interface Heatmap {
  run: string;
  tests: string[];
  iterations: number[];
  cells: string;
}

/**
 * EvoScore(γ): the γ-weighted mean of a(c) over iterations 1..n, later iterations weighing
 * γ^i (γ ≥ 1 rewards finishing well). Runs are padded to `maxIterations` with their last
 * value; a crashed iteration keeps the last value that pytest measured.
 */
export function evoScore(as: Array<number | null>, gamma: number, maxIterations = as.length): number {
  const values: number[] = [];
  let last = 0;
  for (const a of as) {
    if (a !== null) last = a;
    values.push(last);
  }
  while (values.length < maxIterations) values.push(last);
  if (values.length === 0) return 0;
  let num = 0;
  let den = 0;
  values.forEach((v, i) => {
    const w = Math.pow(gamma, i + 1);
    num += w * v;
    den += w;
  });
  return den === 0 ? 0 : num / den;
}
