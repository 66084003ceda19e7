// The reference harness's `summarize`, exactly (notes/sweci-reference.md "Scores"):
//   init   = pytest.passed of line 0; target = init + gap of line 0
//   values = pytest.passed of lines 1.. (missing → 0: a line whose pytest did not run has
//            pytest {} and counts as 0 passed), each clamped to [0, target], padded with the
//            last value (init when there is none) up to max_epoch, truncated beyond it
//   a      = normalizedChange of each value
//   EvoScore(γ=1) = sum(a) / max_epoch
//   solved = 1 if max([init] + values) == target
//   zero_regression = 1 if no value is strictly below its predecessor in [init] + values
// "values" is the clamped, padded, truncated sequence throughout. Pure: no node imports.
import { normalizedChange, type Baseline } from './normalized-change';

/** The fields of an iteration.jsonl line the reference reads. */
export interface ReferenceLine {
  gap: number;
  pytest: Record<string, number>;
}

export interface ReferenceSummary extends Baseline {
  /** N: the length everything is padded or truncated to. */
  maxEpoch: number;
  /** pytest.passed of lines 1.. as recorded (missing → 0), before clamping; not truncated. */
  raw: number[];
  /** The clamped, padded, truncated sequence (length maxEpoch). */
  values: number[];
  /** a(c_i) of each value (length maxEpoch). */
  a: number[];
  /** EvoScore(γ=1) = sum(a) / maxEpoch. */
  evoScore: number;
  solved: 0 | 1;
  zeroRegression: 0 | 1;
}

/** pytest.passed of a line, 0 when missing (the reference's `.get("passed", 0)`). */
export function referencePassed(line: ReferenceLine): number {
  const p = line.pytest?.passed;
  return typeof p === 'number' && Number.isFinite(p) ? p : 0;
}

/** The reference's sequence: clamp to [0, target], pad with the last value (or init), truncate. */
export function referenceSequence(raw: readonly number[], { init, target }: Baseline, maxEpoch: number): number[] {
  const clamped = raw.map((p) => Math.min(Math.max(p, 0), target));
  const out = clamped.slice(0, maxEpoch);
  const fill = clamped.length > 0 ? clamped[clamped.length - 1] : init;
  while (out.length < maxEpoch) out.push(fill);
  return out;
}

function assertMaxEpoch(maxEpoch: number): void {
  if (!Number.isInteger(maxEpoch) || maxEpoch < 1) {
    throw new RangeError(`max_epoch must be a whole number ≥ 1 (got ${String(maxEpoch)}).`);
  }
}

/**
 * The reference summary of one task's (one run's) iteration.jsonl lines. Undefined when there
 * is no line 0 or the base run did not run pytest (gap −1): the reference cannot get there
 * (its initialisation fails), and no baseline exists.
 */
export function summarize(lines: readonly ReferenceLine[], maxEpoch: number): ReferenceSummary | undefined {
  assertMaxEpoch(maxEpoch);
  const [line0, ...rest] = lines;
  if (!line0 || line0.gap < 0) return undefined;
  const init = referencePassed(line0);
  const baseline: Baseline = { init, target: init + line0.gap };
  return summarizeValues(baseline, rest.map(referencePassed), maxEpoch);
}

/** `summarize` from the baseline and pytest.passed of lines 1.. (missing already → 0). */
export function summarizeValues(baseline: Baseline, raw: readonly number[], maxEpoch: number): ReferenceSummary {
  assertMaxEpoch(maxEpoch);
  const values = referenceSequence(raw, baseline, maxEpoch);
  const a = values.map((v) => normalizedChange(v, baseline));
  const all = [baseline.init, ...values];
  const solved = Math.max(...all) === baseline.target ? 1 : 0;
  let zeroRegression: 0 | 1 = 1;
  for (let i = 1; i < all.length; i++) if (all[i] < all[i - 1]) zeroRegression = 0;
  return {
    ...baseline,
    maxEpoch,
    raw: [...raw],
    values,
    a,
    evoScore: a.reduce((s, v) => s + v, 0) / maxEpoch,
    solved,
    zeroRegression,
  };
}

/** The table's average row: the mean of each column over the summarised tasks (runs). */
export interface SummaryAverage {
  count: number;
  evoScore: number;
  solved: number;
  zeroRegression: number;
}

/** Mean of each column; tasks without a summary (undefined) are left out. All 0 when none. */
export function averageRow(summaries: ReadonlyArray<Pick<ReferenceSummary, 'evoScore' | 'solved' | 'zeroRegression'> | undefined>): SummaryAverage {
  const rows = summaries.filter((s): s is Pick<ReferenceSummary, 'evoScore' | 'solved' | 'zeroRegression'> => s !== undefined);
  const mean = (f: (s: (typeof rows)[number]) => number): number => (rows.length ? rows.reduce((t, s) => t + f(s), 0) / rows.length : 0);
  return {
    count: rows.length,
    evoScore: mean((s) => s.evoScore),
    solved: mean((s) => s.solved),
    zeroRegression: mean((s) => s.zeroRegression),
  };
}
