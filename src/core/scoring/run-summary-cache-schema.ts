// The shape of the per-run summary cache (run-summary-cache.ts reads and writes it;
// run-summary-cache-check.ts checks it by hand and a unit test holds the two to each other).
import { z } from 'zod';
import * as zm from 'zod/mini';
import { runInfoSchema } from '../loop/run-store';
import { taskStateSchema } from '../records/task-status-file';
import { chartRunSchema } from '../../shared/chart-types';
import { RUN_SUMMARY_CODE } from './run-summary-code';

/** Variants (N, γ, scoring rules) kept per run: the CLI's and the editor's settings side by side. */
export const MAX_VARIANTS = 4;

/** One record file's identity, "dev:ino:size:mtimeNs:ctimeNs"; null when the file does not exist. */
const fileKeySchema = z.string().nullable();

/** The task's own files a run's cache also summarises: task.json and the batch status (null: not an experiment's task, or none yet). */
const taskKeySchema = z.object({ task: fileKeySchema, status: fileKeySchema });
export type TaskKey = z.infer<typeof taskKeySchema>;

export const recordsKeySchema = z.object({ run: fileKeySchema, lines: fileKeySchema, journal: fileKeySchema, ...taskKeySchema.shape });
export type RecordsKey = z.infer<typeof recordsKeySchema>;

/**
 * What the experiment readers need of the task, read with its runs: task.json's repository (null
 * when it names none; `task` is null when task.json does not read as a task record, and the reader
 * that needs it reads it itself to say why), and the batch status's state and reason (null when
 * there is none or it is damaged, as readTaskStatus reads it).
 */
const taskFactsSchema = z.object({
  task: z.object({ repo: z.string().nullable() }).nullable(),
  status: z.object({ state: taskStateSchema, reason: z.string().optional() }).nullable(),
});
export type TaskFacts = z.infer<typeof taskFactsSchema>;

const scoringRulesSchema = z.object({ excludeHarnessTampering: z.boolean(), scoreTargetTestsOnly: z.boolean(), keepFlagged: z.boolean() });

/** The options a run's scores depend on. */
export const scoreVariantSchema = z.object({ maxIterations: z.number().int().min(1), gamma: z.number(), scoring: scoringRulesSchema });
export type ScoreVariant = z.infer<typeof scoreVariantSchema>;

/** The chart's run without its points (the experiment readers count them, nothing more). */
const scoredRunSchema = zm.omit(chartRunSchema, { points: true });
export type ScoredRun = z.infer<typeof scoredRunSchema>;

export const runBaseSchema = z.object({
  info: runInfoSchema,
  /** Complete lines of iteration.jsonl (the base's included). */
  lines: z.number().int().min(0),
  /** The iteration in progress, as the run's summary says it (journal.json for the next line). */
  pending: z.boolean(),
  usage: z.object({
    cached: z.number(),
    cost: z.number().nullable(),
    source: z.enum(['wire', 'agent-reported', 'mixed', 'none']),
  }),
});
export type RunBase = z.infer<typeof runBaseSchema>;

export const runSummaryCacheSchema = z.object({
  schema: z.literal(1),
  code: z.literal(RUN_SUMMARY_CODE),
  key: recordsKeySchema,
  base: runBaseSchema,
  task: taskFactsSchema,
  variants: z.array(z.object({ variant: scoreVariantSchema, run: scoredRunSchema })).max(MAX_VARIANTS),
});

export type RunSummaryCache = z.infer<typeof runSummaryCacheSchema>;
