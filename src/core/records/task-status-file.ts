// Where one task of a batch stands, as its worker last wrote it (`.sweci-batch/<task>.json`). The
// task folder holds the truth (runs, iteration.jsonl); this file adds what the folder cannot say:
// why a task failed before or outside its run, and when. Here, below the batch and the scoring
// that both read it; batch/task-status.ts finds the file in an experiment.
import { z } from 'zod';
import { jsonRecordFile } from './record-file';

export const taskStateSchema = z.enum([
  'queued',
  'checking-out',
  'human-history',
  'running',
  'solved',
  'max-iterations',
  // Initialisation failed (pytest exit > 1 on the base or the target, as the reference drops such a task). Not retried.
  'init-failed',
  // A step failed every try, or something else went wrong; running the command again retries.
  'failed',
  // The gateway stopped a step at a bound (--max-cost-per-task, --max-cost, calls or tokens); running again with a larger bound continues.
  'budget-exhausted',
  'cancelled',
  // Another process holds the task.
  'busy',
]);
export type TaskState = z.infer<typeof taskStateSchema>;

/** A task in one of these states is done: a rerun skips it, and a run of only such tasks exits 0. */
export const FINISHED_STATES: readonly TaskState[] = ['solved', 'max-iterations', 'init-failed'];

export const taskStatusSchema = z.object({
  schema: z.literal(1),
  task: z.string(),
  state: taskStateSchema,
  updated: z.string(),
  /** Completed iterations of the run. */
  iterations: z.number().optional(),
  gap: z.number().optional(),
  /** a(c) of the last iteration. */
  a: z.number().optional(),
  reason: z.string().optional(),
  /** The flags the run's score rests on (metrics/run-flags.ts SCORE_FLAGS): a flagged solve is never a plain one. */
  flags: z.array(z.string()).optional(),
});
export type TaskStatus = z.infer<typeof taskStatusSchema>;

// A damaged status reads as none: the task folder holds the truth, and the task runs again.
const statusFile = jsonRecordFile({ schema: taskStatusSchema, whenDamaged: 'The task runs again.', onDamage: 'missing' });

/** A task's status by the file's path (experimentLayout(dir).statusFile(id)). */
export async function readTaskStatusFile(file: string): Promise<TaskStatus | undefined> {
  return statusFile.read(file);
}

export function readTaskStatusFileSync(file: string): TaskStatus | undefined {
  return statusFile.readSync(file);
}

export async function writeTaskStatusFile(file: string, status: Omit<TaskStatus, 'schema' | 'updated'>): Promise<void> {
  await statusFile.write(file, { schema: 1, ...status, updated: new Date().toISOString() });
}
