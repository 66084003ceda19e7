// One run's row of the comparison table, each field computed by its column (metric-columns.ts),
// and the runs' average row. Pure: no node imports (the webview recomputes rows when γ moves).
// Takes iteration.jsonl lines; IterationRecord fits RunLine.
import { assertGamma } from './evo-score';
import { normalizedChange } from './normalized-change';
import { summarize, type ReferenceLine, type ReferenceSummary } from './reference-summary';
import { METRIC_COLUMN_LIST, METRIC_COLUMNS, type MetricColumns, type ScoredRun } from './metric-columns';
import { lineRegressions } from './regressions';
import { flaggedCount, type FlaggedCount, type FlaggedLine } from './run-flags';
import { runMetricsRowSchema, type MetricId, type RunMetricsRow } from './run-metrics-row';
import type { ScoringRules } from './scored-line';

export type { RunMetricsRow } from './run-metrics-row';

/** The row's fields in the schema's order; the columns' own order is their display order. */
const METRIC_IDS = Object.keys(runMetricsRowSchema.shape) as MetricId[];

/** What a role step contributes (IterationRecord's RoleStepRecord fits it). */
export interface RoleStepUsage {
  execution_time?: number;
  input_tokens?: number;
  output_tokens?: number;
  network?: string;
}

/** The fields of an iteration.jsonl line the metrics read (IterationRecord fits it). */
export interface RunLine extends ReferenceLine, FlaggedLine {
  iteration?: number;
  architect?: RoleStepUsage;
  programmer?: RoleStepUsage;
  pytest_time?: number;
  regressions?: readonly string[];
}

export interface RunMetricsOptions {
  /** N (the reference's max_epoch), ≥ 1. */
  maxIterations: number;
  /** γ > 0; default 1. */
  gamma?: number;
  /** The rules the lines were scored with (scoredLines): which flags the scores still rest on. */
  scoring?: ScoringRules;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** One line's cost, the one sum of it: both roles' tokens (unknown: 0), and their execution_time plus pytest_time. */
export function lineUsage(line: RunLine): { tokensIn: number; tokensOut: number; timeSec: number } {
  let tokensIn = 0;
  let tokensOut = 0;
  let timeSec = num(line.pytest_time);
  for (const step of [line.architect, line.programmer]) {
    if (!step) continue;
    tokensIn += num(step.input_tokens);
    tokensOut += num(step.output_tokens);
    timeSec += num(step.execution_time);
  }
  return { tokensIn, tokensOut, timeSec };
}

export function runMetrics(lines: readonly RunLine[], opts: RunMetricsOptions): RunMetricsRow {
  // The γ first, as before: a bad γ is named even when the N is bad too.
  assertGamma(opts.gamma ?? 1);
  return runMetricsOf(lines, opts, summarize(lines, opts.maxIterations));
}

/** runMetrics, for a caller that already has `summarize(lines, maxIterations)` (the chart's run: summarised once). */
export function runMetricsOf(
  lines: readonly RunLine[],
  { maxIterations, gamma = 1, scoring }: RunMetricsOptions,
  summary: ReferenceSummary | undefined,
): RunMetricsRow {
  assertGamma(gamma);
  let finalA: number | null = null;
  if (summary) {
    const lastRan = [...lines].reverse().find((l) => l.gap >= 0)!;
    finalA = normalizedChange(num(lastRan.pytest.passed), summary);
  }
  const usage = { tokensIn: 0, tokensOut: 0, timeSec: 0 };
  lines.forEach((l, i) => {
    const u = lineUsage(l);
    usage.tokensIn += u.tokensIn;
    usage.tokensOut += u.tokensOut;
    // The base run is shared by every run of the task: its time is not this run's.
    if (i > 0) usage.timeSec += u.timeSec;
  });
  const run: ScoredRun = { lines, summary, regressions: lineRegressions(lines), finalA, usage, maxIterations, gamma, scoring };
  // Each field by its column, in the schema's order (the order of the row in every JSON output).
  return Object.fromEntries(METRIC_IDS.map((id) => [id, (METRIC_COLUMNS as MetricColumns)[id].compute(run)])) as RunMetricsRow;
}

/** The fields of the row the average row takes the mean of, by how (metric-columns.ts `average`). */
type AveragedAs<How> = { [K in MetricId]: (typeof METRIC_COLUMNS)[K] extends { average: How } ? K : never }[MetricId];

/**
 * The table's average row over runs: the mean of each averaged column, booleans as rates in
 * [0, 1], nullable ones over the rows that have a value (null when none has one).
 */
export type RunMetricsAverage = { count: number } & Record<AveragedAs<'present'>, number | null> &
  Record<AveragedAs<'rate' | 'mean'>, number> & {
    /** Rows these means include whose scores rest on a flag: every average says so. */
    flagged: FlaggedCount;
    /** Solved rows whose scores rest on a flag: `solved` counts them only with the flag named. */
    solvedFlagged: FlaggedCount;
  };

/** The order the average's fields are listed in (in JSON): the nullable means, the rates, the means. */
const AVERAGE_ORDER = ['present', 'rate', 'mean'] as const;

export function averageMetrics(rows: readonly RunMetricsRow[]): RunMetricsAverage {
  const n = rows.length;
  const value = (r: RunMetricsRow, id: MetricId): number | null => {
    const v = r[id];
    return typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' ? v : null;
  };
  const means: Record<string, number | null> = {};
  for (const how of AVERAGE_ORDER) {
    for (const { id, average } of METRIC_COLUMN_LIST) {
      if (average !== how) continue;
      const vs = rows.map((r) => value(r, id)).filter((v): v is number => v !== null);
      const sum = vs.reduce((s, v) => s + v, 0);
      means[id] = how === 'present' ? (vs.length ? sum / vs.length : null) : n ? sum / n : 0;
    }
  }
  return {
    count: n,
    ...means,
    flagged: flaggedCount(rows.map((r) => r.scoreFlags)),
    solvedFlagged: flaggedCount(rows.filter((r) => r.solved).map((r) => r.scoreFlags)),
  } as RunMetricsAverage;
}
