// What `sweci leaderboard --format json` prints, what the leaderboard report embeds and what the
// Leaderboard panel receives: one record, stated once. Each type is inferred from its schema
// (zod/mini, small enough for the webview bundle), so the CLI, the report and the panel cannot
// disagree on a field. Plain JSON: no node imports here.
import * as z from 'zod/mini';

const count = () => z.int().check(z.minimum(0));
const rate = () => z.number().check(z.minimum(0), z.maximum(1));
/** A 95% interval [low, high]. */
const interval = () => z.tuple([z.number(), z.number()]);

/** How the entries' tasks are put together: only the tasks every entry scored, or each entry's own. */
export const TASKS_POLICIES = ['common', 'union'] as const;
export type TasksPolicy = (typeof TASKS_POLICIES)[number];

/** γ as the user wrote it ("0.8", "1", "1.25"): the key of every by-γ object below. */
export const gammaKeySchema = z.string().check(z.regex(/^\d+(\.\d+)?$/));

/** leaderboard.json: who each entry is, so a set of models is one file under version control. */
export const leaderboardFileSchema = z.strictObject({
  entries: z
    .array(
      z.strictObject({
        /** The experiment folder (`sweci run --experiment`), relative to the file's folder or absolute. */
        experiment: z.string().check(z.minLength(1)),
        /** The run to rank (default: the experiment's own run), e.g. "human-history". */
        run: z.optional(z.string().check(z.minLength(1))),
        /** The name shown; experiments sharing a label are repeats of one entry. Default: the experiment's agents. */
        label: z.optional(z.string().check(z.minLength(1))),
        /** Who made the model (Figure 4 draws one line per provider). */
        provider: z.optional(z.string().check(z.minLength(1))),
        /** The model's release date, ISO (YYYY-MM-DD). */
        released: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
      }),
    )
    .check(z.minLength(1)),
});
export type LeaderboardFile = z.infer<typeof leaderboardFileSchema>;

export const leaderboardEntrySchema = z.strictObject({
  label: z.string(),
  provider: z.nullable(z.string()),
  released: z.nullable(z.string()),
  /** 'human-history' for the real developers' replay (`--with-human`), else 'agent'. */
  kind: z.enum(['agent', 'human-history']),
  /** Each repeat's experiment folder and run (one unless several experiments share the label). */
  experiments: z.array(z.strictObject({ experiment: z.string(), run: z.string() })),
  /** The tasks this entry is ranked on. */
  tasks: count(),
  /** Task ids of the ranked set this entry has no scored run for (never dropped silently). */
  missing: z.array(z.string()),
  /** EvoScore(γ=1) of each task the entry is ranked on (repeats: their mean), by task id: where the table's tasks open from. */
  taskScores: z.record(z.string(), z.number()),
  /** Mean EvoScore over the tasks, by γ (keys as in the record's `gammas`): what `sweci summarize --gamma` gives. */
  evoScore: z.record(gammaKeySchema, z.number()),
  /** Percentile bootstrap 95% interval of EvoScore(γ=1), tasks of one repository resampled together. */
  evoScoreCI95: interval(),
  solvedRate: rate(),
  solvedCI95: interval(),
  zeroRegressionRate: rate(),
  zeroRegressionCI95: interval(),
  meanIterations: z.number(),
  /** Tokens per task, both roles, every iteration; `source` says whether the gateway counted them or the agents reported them. */
  tokensPerTask: z.strictObject({ input: z.number(), output: z.number(), cached: z.number(), source: z.enum(['wire', 'agent-reported', 'mixed', 'none']) }),
  /** Dollars per task; null when some call's price is unknown. */
  costPerTask: z.nullable(z.number()),
  wallSecondsPerTask: z.number(),
  /** Tasks whose run carries an integrity flag (metrics/run-flags.ts), counted as `sweci summarize` counts them. */
  flaggedTasks: count(),
  /** With repeats: the standard deviation of EvoScore(γ=1) between repeats, beside the one between tasks. */
  spread: z.strictObject({ betweenRepeats: z.nullable(z.number()), betweenTasks: z.number() }),
  /** How far the entry's rank moves from the lowest γ to the highest (positive: better at high γ). */
  rankMove: z.int(),
  /** Group number (1 = top): an entry not distinguishable from the one above it shares its group. */
  group: z.int().check(z.minimum(1)),
  /** No other entry is at least as good on EvoScore(γ=1) and at least as cheap per task, and better on one. */
  onCostFrontier: z.boolean(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const leaderboardPairSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  /** Mean over the common tasks of EvoScore(γ=1) of a minus that of b. */
  meanDiff: z.number(),
  /** Paired bootstrap 95% interval of that difference (repositories resampled together). */
  ci95: interval(),
  /** The interval excludes 0. */
  distinguishable: z.boolean(),
});
export type LeaderboardPair = z.infer<typeof leaderboardPairSchema>;

export const leaderboardRecordSchema = z
  .strictObject({
    schema: z.literal(1),
    /** γ values as written, in the order given; "1" is always among them. */
    gammas: z.array(gammaKeySchema),
    tasksPolicy: z.enum(TASKS_POLICIES),
    /** The tasks every entry is ranked on (policy common), or every task some entry scored (union). */
    tasks: z.array(z.string()),
    /** N, the reference's max_epoch, every entry is scored with. */
    maxEpoch: count(),
    bootstrap: z.strictObject({ resamples: count(), seed: z.int(), clusters: z.literal('repository'), repositories: count() }),
    /** Best first at γ=1 (the table's order). */
    entries: z.array(leaderboardEntrySchema),
    /** By γ: each entry's rank, best first; tied entries share a rank (1, 1, 3). */
    ranks: z.record(gammaKeySchema, z.array(z.strictObject({ label: z.string(), rank: z.int().check(z.minimum(1)), evoScore: z.number() }))),
    /** Every pair of entries, in table order (a above b). */
    pairs: z.array(leaderboardPairSchema),
    /** What the outputs must say besides the numbers (e.g. the union policy, tasks some entry lacks). */
    notes: z.array(z.string()),
  })
  .check(
    // The outputs look labels up across the parts: a rank or a pair naming no entry is no record.
    z.refine(
      (r) => {
        const labels = new Set(r.entries.map((e) => e.label));
        return (
          labels.size === r.entries.length &&
          r.gammas.every((g) => r.ranks[g]?.length === r.entries.length && r.ranks[g].every((x) => labels.has(x.label))) &&
          r.pairs.every((p) => labels.has(p.a) && labels.has(p.b))
        );
      },
      { message: 'every γ ranks each entry once, and ranks and pairs name only the entries (labels are unique)' },
    ),
  );
export type LeaderboardRecord = z.infer<typeof leaderboardRecordSchema>;
