// What a run needs before anything is changed: a task folder, and (in messages) the paths that
// keep app/code from being clean.
import { UserError } from '../util/errors';
import { readTaskRecord } from '../workspace/materialize';
import type { TaskRecord } from '../workspace/layout';

export async function requireTask(taskDir: string): Promise<TaskRecord> {
  const record = await readTaskRecord(taskDir);
  if (!record) throw new UserError(`${taskDir} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
  return record;
}

/** The first paths of a list for a message, e.g. "a.py, b.py and 3 more". */
export function listPaths(paths: string[]): string {
  return paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
}
