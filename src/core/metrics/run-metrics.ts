// One run's row of the comparison table. Pure: no node imports (the webview recomputes rows
// when γ moves). Takes iteration.jsonl lines; IterationRecord fits RunLine.
import { assertGamma, evoScore } from './evo-score';
import { normalizedChange } from './normalized-change';
import { summarize, type ReferenceLine } from './reference-summary';
import { lineRegressions } from './regressions';
import { flaggedCount, type FlaggedCount, type FlaggedLine, type RunFlag } from './run-flags';
import { scoreFlags, type ScoringRules } from './scored-line';

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

export interface RunMetricsRow {
  /** EvoScore(γ) over the reference's padded a values (N = maxIterations); null without a baseline. */
  evoScore: number | null;
  gamma: number;
  /** EvoScore(γ=1) exactly as the reference computes it (sum(a) / max_epoch). */
  evoScoreReference: number | null;
  /** The reference's solved: max([init] + values) == target. */
  solved: boolean;
  /** The reference's zero_regression: no value below its predecessor (clamped, padded, truncated). */
  zeroRegression: boolean;
  /** Regressions as the later framework counts them (against the last iteration whose pytest ran). */
  regressions: number;
  /** a(c) of the last line whose pytest ran (0 when only the base ran); null without a baseline. */
  finalA: number | null;
  /** Completed iterations: lines − 1. */
  iterations: number;
  /** Iterations whose pytest did not run. */
  crashed: number;
  /** N used for padding. */
  maxIterations: number;
  /** Input/output tokens summed over both roles and every iteration (unknown counts as 0). */
  tokensIn: number;
  tokensOut: number;
  /** Seconds: the roles' execution_time plus pytest_time, summed over iterations 1.. (the base run is shared by all runs). */
  timeSec: number;
  /** The integrity flags these scores rest on (scored-line.ts scoreFlags): a solved run with one is not plainly solved. */
  scoreFlags: RunFlag[];
}

export interface RunMetricsOptions {
  /** N (the reference's max_epoch), ≥ 1. */
  maxIterations: number;
  /** γ > 0; default 1. */
  gamma?: number;
  /** The rules the lines were scored with (scoredLine): which flags the scores still rest on. */
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

export function runMetrics(lines: readonly RunLine[], { maxIterations, gamma = 1, scoring }: RunMetricsOptions): RunMetricsRow {
  assertGamma(gamma);
  const summary = summarize(lines, maxIterations);
  const regs = lineRegressions(lines);
  let finalA: number | null = null;
  if (summary) {
    const lastRan = [...lines].reverse().find((l) => l.gap >= 0)!;
    finalA = normalizedChange(num(lastRan.pytest.passed), summary);
  }
  let tokensIn = 0;
  let tokensOut = 0;
  let timeSec = 0;
  lines.forEach((l, i) => {
    const u = lineUsage(l);
    tokensIn += u.tokensIn;
    tokensOut += u.tokensOut;
    // The base run is shared by every run of the task: its time is not this run's.
    if (i > 0) timeSec += u.timeSec;
  });
  return {
    evoScore: summary ? evoScore(summary.a, gamma) : null,
    gamma,
    evoScoreReference: summary ? summary.evoScore : null,
    solved: summary?.solved === 1,
    zeroRegression: summary?.zeroRegression === 1,
    regressions: regs.count,
    finalA,
    iterations: Math.max(0, lines.length - 1),
    crashed: lines.slice(1).filter((l) => l.gap < 0).length,
    maxIterations,
    tokensIn,
    tokensOut,
    timeSec,
    scoreFlags: scoreFlags(lines, scoring),
  };
}

/** EvoScore(γ) of a run for another γ without the rest of the row (the γ slider). */
export function runEvoScore(lines: readonly RunLine[], maxIterations: number, gamma: number): number | null {
  assertGamma(gamma);
  const summary = summarize(lines, maxIterations);
  return summary ? evoScore(summary.a, gamma) : null;
}

/** The table's average row over runs: the mean of each numeric column; booleans as rates in [0, 1]. */
export interface RunMetricsAverage {
  count: number;
  /** Means over the rows where the value is not null (null when none has one). */
  evoScore: number | null;
  evoScoreReference: number | null;
  finalA: number | null;
  solved: number;
  zeroRegression: number;
  regressions: number;
  iterations: number;
  tokensIn: number;
  tokensOut: number;
  timeSec: number;
  /** Rows these means include whose scores rest on a flag: every average says so. */
  flagged: FlaggedCount;
  /** Solved rows whose scores rest on a flag: `solved` counts them only with the flag named. */
  solvedFlagged: FlaggedCount;
}

export function averageMetrics(rows: readonly RunMetricsRow[]): RunMetricsAverage {
  const n = rows.length;
  const mean = (f: (r: RunMetricsRow) => number): number => (n ? rows.reduce((s, r) => s + f(r), 0) / n : 0);
  const meanOf = (f: (r: RunMetricsRow) => number | null): number | null => {
    const vs = rows.map(f).filter((v): v is number => v !== null);
    return vs.length ? vs.reduce((s, v) => s + v, 0) / vs.length : null;
  };
  return {
    count: n,
    evoScore: meanOf((r) => r.evoScore),
    evoScoreReference: meanOf((r) => r.evoScoreReference),
    finalA: meanOf((r) => r.finalA),
    solved: mean((r) => (r.solved ? 1 : 0)),
    zeroRegression: mean((r) => (r.zeroRegression ? 1 : 0)),
    regressions: mean((r) => r.regressions),
    iterations: mean((r) => r.iterations),
    tokensIn: mean((r) => r.tokensIn),
    tokensOut: mean((r) => r.tokensOut),
    timeSec: mean((r) => r.timeSec),
    flagged: flaggedCount(rows.map((r) => r.scoreFlags)),
    solvedFlagged: flaggedCount(rows.filter((r) => r.solved).map((r) => r.scoreFlags)),
  };
}
