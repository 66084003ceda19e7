// What the chart webview receives (via postMessage): plain JSON-serialisable data, no node
// imports, so the webview bundle can import these types. Built by load-chart-data.ts.
import type { Baseline } from '../metrics/normalized-change';
import type { SummaryAverage } from '../metrics/reference-summary';
import type { RunMetricsRow } from '../metrics/run-metrics';
import type { RunFlag } from '../metrics/run-flags';
import type { TestRegressions, TransitionColumn } from '../metrics/transitions';

export type { RunMetricsRow, SummaryAverage, TestRegressions, TransitionColumn, Baseline, RunFlag };

/** 'human' when every recorded role step was played by a human; 'human-history' for the replay of upstream commits. */
export type ChartRunKind = 'agent' | 'human' | 'human-history';

/** One pytest run (one iteration.jsonl line). */
export interface ChartPoint {
  /** x: 0 = the base; k = the k-th iteration (for human-history: the commit's first-parent position). */
  iteration: number;
  /**
   * y: a(c) by the reference's rules — pytest.passed against the run's baseline (line 0's
   * pytest.passed and gap), clamped to [0, target]. null when pytest did not run (or the run
   * has no baseline).
   */
  a: number | null;
  /** Tests passed among those the target passes (the record's `passed`); null when pytest did not run. */
  passed: number | null;
  /** Tests the target passes. */
  targetPassed: number;
  /** pytest's summary.passed, what `a` is computed from; null when pytest did not run. */
  pytestPassed: number | null;
  /** Size of the non-passed set; −1 when pytest did not run. */
  gap: number;
  /** Tests that passed in the last iteration whose pytest ran and do not pass now. */
  regressions: number;
  /** pytest did not run (crash, timeout, no report): gap −1. */
  crashed: boolean;
  /** Why pytest did not run. */
  pytestError?: string;
  /** Files of this iteration's code that change how pytest collects or reports tests (see harness-tampering.ts). */
  harnessTampering?: readonly string[];
  /** Passed tests that neither the target nor the base passed (metrics/inflated.ts): how many. */
  inflated?: number;
  /** This line's integrity flags (metrics/run-flags.ts); absent when none. */
  flags?: RunFlag[];
  /** Architect + programmer tokens of this iteration (0 when unknown; the base has none). */
  tokensIn: number;
  tokensOut: number;
  /** Seconds: the roles' execution_time + pytest_time of this iteration. */
  timeSec: number;
  /** app/code commit (human-history: the upstream sha). */
  commit: string;
  /** e.g. the upstream commit's subject in human-history. */
  note?: string;
  finishedAt: string;
}

export interface ChartRun {
  run: string;
  kind: ChartRunKind;
  /** Who played the roles, e.g. "claude-code" or "architect: human · programmer: codex". */
  label: string;
  /** run.json's created (ISO); runs are ordered by it. */
  created: string;
  /** run.json's maxIterations. */
  runMaxIterations: number;
  /** init = pytest.passed of line 0, target = init + gap of line 0; null when the base run did not run pytest. */
  baseline: Baseline | null;
  points: ChartPoint[];
  /**
   * The reference's a values padded to ChartData.maxIterations (see metrics/reference-summary):
   * EvoScore(γ) = evoScore(evoA, γ) from metrics/evo-score — what the γ slider recomputes.
   * [] when there is no baseline.
   */
  evoA: number[];
  /** The comparison-table row, computed with ChartData.gamma and ChartData.maxIterations. */
  metrics: RunMetricsRow;
  /** An iteration is in progress (after a cancel or a crash, or running now). */
  pending: boolean;
  /** Every integrity flag of any of its lines (metrics/run-flags.ts): what its scores rest on. */
  flags: RunFlag[];
}

export interface ChartData {
  /**
   * N, the iteration count every run is scored over (padded with its last value): the largest
   * run.json maxIterations of the loop runs; a human-history run counts with its number of
   * replayed commits (lines − 1), not with its run.json maxIterations (all upstream commits).
   */
  maxIterations: number;
  /** The x-axis end: max(maxIterations, every point's iteration). */
  maxX: number;
  /** γ the metrics rows were computed with. */
  gamma: number;
  runs: ChartRun[];
  /** The reference table's average row over the runs with a baseline. */
  average: SummaryAverage;
  /** Runs left out because their iteration.jsonl could not be read (e.g. a corrupt line), and why. */
  skipped: Array<{ run: string; reason: string }>;
}

/** The per-test heatmap of one run. Decode `cells` with decodeCells (metrics/transitions). */
export interface HeatmapData {
  run: string;
  /** Row t: the t-th test the target passes (node ids, sorted). */
  tests: string[];
  /** One column per iteration.jsonl line, in order; ran = false: every cell is missing. */
  columns: TransitionColumn[];
  /**
   * Row-major status codes as a string, one digit per cell: cells[t * columns.length + c] is
   * '0' missing, '1' passed, '2' failed (failed, skipped, xfailed, xpassed), '3' error.
   */
  cells: string;
  /** Which tests (row indices) regressed when, against the last column whose pytest ran. */
  regressions: TestRegressions[];
}
