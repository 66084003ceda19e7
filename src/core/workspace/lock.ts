// A task's lock (`.sweci/lock`): one writer per task, the scheme of records/process-lock.ts.
import { acquireLock, type HeldLock } from '../records/process-lock';
import type { TaskFolder } from './task-folder';

/** Runs `fn` holding the task's lock; released however `fn` ends. */
export async function withTaskLock<T>(task: TaskFolder, purpose: string, detail: string | undefined, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const lock = await acquireLock(task.lockFile, purpose, detail);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}
