// Where one task of a batch stands, as its worker last wrote it. The task folder holds the
// truth (runs, iteration.jsonl); this file adds what the folder cannot say: why a task failed
// before or outside its run, and when.
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../util/fs-atomic';
import { experimentLayout } from './experiment';

export type TaskState =
  | 'queued'
  | 'checking-out'
  | 'human-history'
  | 'running'
  | 'solved'
  | 'max-iterations'
  /** Initialisation failed (pytest exit > 1 on the base or the target, as the reference drops such a task). Not retried. */
  | 'init-failed'
  /** A step failed every try, or something else went wrong; running the command again retries. */
  | 'failed'
  | 'cancelled'
  /** Another process holds the task. */
  | 'busy';

/** A task in one of these states is done: a rerun skips it, and a run of only such tasks exits 0. */
export const FINISHED_STATES: readonly TaskState[] = ['solved', 'max-iterations', 'init-failed'];

export interface TaskStatus {
  schema: 1;
  task: string;
  state: TaskState;
  updated: string;
  /** Completed iterations of the run. */
  iterations?: number;
  gap?: number;
  /** a(c) of the last iteration. */
  a?: number;
  reason?: string;
}

export async function readTaskStatus(experimentDir: string, taskId: string): Promise<TaskStatus | undefined> {
  try {
    return JSON.parse(await fs.readFile(experimentLayout(experimentDir).statusFile(taskId), 'utf8')) as TaskStatus;
  } catch {
    return undefined;
  }
}

export async function writeTaskStatus(experimentDir: string, status: Omit<TaskStatus, 'schema' | 'updated'>): Promise<void> {
  const layout = experimentLayout(experimentDir);
  await fs.mkdir(layout.statusDir, { recursive: true });
  const full: TaskStatus = { schema: 1, ...status, updated: new Date().toISOString() };
  await writeFileAtomic(layout.statusFile(status.task), JSON.stringify(full, null, 2) + '\n');
}
