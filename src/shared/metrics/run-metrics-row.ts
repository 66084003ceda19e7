// One run's row of metrics, stated once: this schema is the row's type (z.infer), the check the
// chart webview makes on receipt, and the list of fields metric-columns.ts must give a column
// each (the compiler holds the two together). Field order is the row's order in every JSON
// output (summarize --format json, metrics.json). zod/mini: small enough for the webview bundle.
import * as z from 'zod/mini';
import { RUN_FLAGS } from './run-flags';

const count = () => z.int().check(z.minimum(0));

export const runMetricsRowSchema = z.object({
  /** EvoScore(γ) over the reference's padded a values (N = maxIterations); null without a baseline. */
  evoScore: z.nullable(z.number()),
  gamma: z.number(),
  /** EvoScore(γ=1) exactly as the reference computes it (sum(a) / max_epoch). */
  evoScoreReference: z.nullable(z.number()),
  /** The reference's solved: max([init] + values) == target. */
  solved: z.boolean(),
  /** The reference's zero_regression: no value below its predecessor (clamped, padded, truncated). */
  zeroRegression: z.boolean(),
  /** Regressions as the later framework counts them (against the last iteration whose pytest ran). */
  regressions: z.number(),
  /** a(c) of the last line whose pytest ran (0 when only the base ran); null without a baseline. */
  finalA: z.nullable(z.number()),
  /** Completed iterations: lines − 1. */
  iterations: count(),
  /** Iterations whose pytest did not run. */
  crashed: z.number(),
  /** N used for padding. */
  maxIterations: z.number(),
  /** Input/output tokens summed over both roles and every iteration (unknown counts as 0). */
  tokensIn: z.number(),
  tokensOut: z.number(),
  /** Seconds: the roles' execution_time plus pytest_time, summed over iterations 1.. (the base run is shared by all runs). */
  timeSec: z.number(),
  /** The integrity flags these scores rest on (scored-line.ts scoreFlags): a solved run with one is not plainly solved. */
  scoreFlags: z.array(z.enum(RUN_FLAGS)),
});

export type RunMetricsRow = z.infer<typeof runMetricsRowSchema>;
export type MetricId = keyof RunMetricsRow;
