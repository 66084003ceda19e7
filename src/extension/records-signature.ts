// What the change feed's poll compares: the sizes and modification times of a task's records.
// File events alone are not enough: a network file system, a full inotify table or a directory
// made while the watcher was still adding its parent can each lose them, and a view left stale
// is wrong without saying so. Reading a few stats every couple of seconds is cheap at any scale
// the editor shows (one task, its runs).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { taskFolder } from '../core/workspace/task-folder';

/** A task's records, each side as one comparable string. */
export interface RecordsSignature {
  /** task.json and the current code's last pytest run. */
  task: string;
  /** Each run's run.json and iteration.jsonl, and which runs exist. */
  runs: string;
}

export async function recordsSignature(dir: string): Promise<RecordsSignature> {
  const task = taskFolder(dir);
  const runNames = await fsp.readdir(task.runsDir).catch(() => [] as string[]);
  const runFiles = runNames.sort().flatMap((name) => [task.run(name).runFile, task.run(name).iterationsFile]);
  const [taskSide, runsSide] = await Promise.all([stamps([task.taskFile, task.current.run]), stamps(runFiles)]);
  return { task: taskSide, runs: runsSide };
}

async function stamps(files: readonly string[]): Promise<string> {
  const each = await Promise.all(
    files.map(async (file) => {
      const s = await fsp.stat(file).catch(() => undefined);
      return `${path.basename(path.dirname(file))}/${path.basename(file)}:${s ? `${s.size}:${s.mtimeMs}` : '-'}`;
    }),
  );
  return each.join('\n');
}
