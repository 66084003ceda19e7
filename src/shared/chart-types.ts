// What the chart webview receives (via postMessage): plain JSON-serialisable data, no node
// imports, so the webview bundle can import these. Built by load-chart-data.ts. Each type is
// inferred from its schema (zod/mini: small enough for the webview bundle), so a field cannot
// be added to the data without the check the webview makes on receipt. The metrics row is its
// own schema (metrics/run-metrics-row.ts); the other metrics' types are tied to their schemas
// here by a compile-time check.
import * as z from 'zod/mini';
import type { Baseline } from './metrics/normalized-change';
import type { SummaryAverage } from './metrics/reference-summary';
import { runMetricsRowSchema, type RunMetricsRow } from './metrics/run-metrics-row';
import { RUN_FLAGS, type RunFlag } from './metrics/run-flags';
import type { TestRegressions, TransitionColumn } from './metrics/transitions';

export type { RunMetricsRow, SummaryAverage, TestRegressions, TransitionColumn, Baseline, RunFlag };

/** A count or an index: a non-negative integer. */
const count = () => z.int().check(z.minimum(0));
const nullableNumber = () => z.nullable(z.number());
const runFlagSchema = z.enum(RUN_FLAGS);

// The metrics' types are theirs (shared/metrics/, beside this file); these schemas must
// describe them exactly, field for field, or `sameShape` below does not compile.
const baselineSchema = z.object({ init: z.number(), target: z.number() });
const summaryAverageSchema = z.object({ count: count(), evoScore: z.number(), solved: z.number(), zeroRegression: z.number() });
const transitionColumnSchema = z.object({ iteration: count(), ran: z.boolean() });
const testRegressionsSchema = z.object({ iteration: count(), comparedWith: z.int(), tests: z.array(count()) });

/** True only when A and B are the same object type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const sameShape: [
  Same<z.infer<typeof baselineSchema>, Baseline>,
  Same<z.infer<typeof summaryAverageSchema>, SummaryAverage>,
  Same<z.infer<typeof transitionColumnSchema>, TransitionColumn>,
  Same<z.infer<typeof testRegressionsSchema>, TestRegressions>,
] = [true, true, true, true];

/** One pytest run (one iteration.jsonl line). */
const chartPointSchema = z.object({
  /** x: 0 = the base; k = the k-th iteration (for human-history: the commit's first-parent position). */
  iteration: count(),
  /**
   * y: a(c) by the reference's rules — pytest.passed against the run's baseline (line 0's
   * pytest.passed and gap), clamped to [0, target]. null when pytest did not run (or the run
   * has no baseline).
   */
  a: nullableNumber(),
  /** Tests passed among those the target passes (the record's `passed`); null when pytest did not run. */
  passed: nullableNumber(),
  /** Tests the target passes. */
  targetPassed: z.number(),
  /** pytest's summary.passed, what `a` is computed from; null when pytest did not run. */
  pytestPassed: nullableNumber(),
  /** Size of the non-passed set; −1 when pytest did not run. */
  gap: z.number(),
  /** Tests that passed in the last iteration whose pytest ran and do not pass now. */
  regressions: z.number(),
  /** pytest did not run (crash, timeout, no report): gap −1. */
  crashed: z.boolean(),
  /** Why pytest did not run. */
  pytestError: z.optional(z.string()),
  /** Files of this iteration's code that change how pytest collects or reports tests (see harness-tampering.ts). */
  harnessTampering: z.optional(z.readonly(z.array(z.string()))),
  /** Passed tests that neither the target nor the base passed (metrics/inflated.ts): how many. */
  inflated: z.optional(count()),
  /** This line's integrity flags (metrics/run-flags.ts); absent when none. */
  flags: z.optional(z.array(runFlagSchema)),
  /** Architect + programmer tokens of this iteration (0 when unknown; the base has none). */
  tokensIn: z.number(),
  tokensOut: z.number(),
  /** Seconds: the roles' execution_time + pytest_time of this iteration. */
  timeSec: z.number(),
  /** app/code commit (human-history: the upstream sha). */
  commit: z.string(),
  /** e.g. the upstream commit's subject in human-history. */
  note: z.optional(z.string()),
  finishedAt: z.string(),
});
export type ChartPoint = z.infer<typeof chartPointSchema>;

/** 'human' when every recorded role step was played by a human; 'human-history' for the replay of upstream commits. */
export const chartRunKindSchema = z.enum(['agent', 'human', 'human-history']);
export type ChartRunKind = z.infer<typeof chartRunKindSchema>;

export const chartRunSchema = z.object({
  run: z.string(),
  kind: chartRunKindSchema,
  /** Who played the roles, e.g. "claude-code" or "architect: human · programmer: codex". */
  label: z.string(),
  /** run.json's created (ISO); runs are ordered by it. */
  created: z.string(),
  /** run.json's maxIterations. */
  runMaxIterations: z.number(),
  /** init = pytest.passed of line 0, target = init + gap of line 0; null when the base run did not run pytest. */
  baseline: z.nullable(baselineSchema),
  points: z.array(chartPointSchema),
  /**
   * The reference's a values padded to ChartData.maxIterations (see metrics/reference-summary):
   * EvoScore(γ) = evoScore(evoA, γ) from metrics/evo-score — what the γ slider recomputes.
   * [] when there is no baseline.
   */
  evoA: z.array(z.number()),
  /** The comparison-table row, computed with ChartData.gamma and ChartData.maxIterations. */
  metrics: runMetricsRowSchema,
  /** An iteration is in progress (after a cancel or a crash, or running now). */
  pending: z.boolean(),
  /** Every integrity flag of any of its lines (metrics/run-flags.ts): what its scores rest on. */
  flags: z.array(runFlagSchema),
});
export type ChartRun = z.infer<typeof chartRunSchema>;

export const chartDataSchema = z.object({
  /**
   * N, the iteration count every run is scored over (padded with its last value): the largest
   * run.json maxIterations of the loop runs; a human-history run counts with its number of
   * replayed commits (lines − 1), not with its run.json maxIterations (all upstream commits).
   */
  maxIterations: count(),
  /** The x-axis end: max(maxIterations, every point's iteration). */
  maxX: count(),
  /** γ the metrics rows were computed with. */
  gamma: z.number(),
  runs: z.array(chartRunSchema),
  /** The reference table's average row over the runs with a baseline. */
  average: summaryAverageSchema,
  /** Runs left out because their iteration.jsonl could not be read (e.g. a corrupt line), and why. */
  skipped: z.array(z.object({ run: z.string(), reason: z.string() })),
});
export type ChartData = z.infer<typeof chartDataSchema>;

/** The per-test heatmap of one run. Decode `cells` with decodeCells (metrics/transitions). */
export const heatmapDataSchema = z
  .object({
    run: z.string(),
    /** Row t: the t-th test the target passes (node ids, sorted). */
    tests: z.array(z.string()),
    /** One column per iteration.jsonl line, in order; ran = false: every cell is missing. */
    columns: z.array(transitionColumnSchema),
    /**
     * Row-major status codes as a string, one digit per cell: cells[t * columns.length + c] is
     * '0' missing, '1' passed, '2' failed (failed, skipped, xfailed, xpassed), '3' error.
     */
    cells: z.string().check(z.regex(/^[0-3]*$/)),
    /** Which tests (row indices) regressed when, against the last column whose pytest ran. */
    regressions: z.array(testRegressionsSchema),
  })
  .check(z.refine((h) => h.cells.length === h.tests.length * h.columns.length, 'one cell per test and column'));
export type HeatmapData = z.infer<typeof heatmapDataSchema>;
