// What the change feed's poll compares: the sizes and modification times of a task's records.
// File events alone are not enough: a network file system, a full inotify table or a directory
// made while the watcher was still adding its parent can each lose them, and a view left stale
// is wrong without saying so. Reading a few stats every couple of seconds is cheap at any scale
// the editor shows (one task, its runs).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { CALLS_SUFFIX } from '../core/agents/model-route';
import { taskFolder } from '../core/workspace/task-folder';

/** A task's records, each side as one comparable string. */
export interface RecordsSignature {
  /** task.json and the current code's last pytest run. */
  task: string;
  /** Each run's run.json and iteration.jsonl, and which runs exist. */
  runs: string;
  /** The calls records of tries in progress (runs/<run>/pending/*.calls.jsonl). */
  calls: string;
}

export async function recordsSignature(dir: string): Promise<RecordsSignature> {
  const task = taskFolder(dir);
  const runNames = await fsp.readdir(task.runsDir).catch(() => [] as string[]);
  runNames.sort();
  const runFiles = runNames.flatMap((name) => [task.run(name).runFile, task.run(name).iterationsFile]);
  const callsFiles = (
    await Promise.all(
      runNames.map(async (name) => {
        const pending = task.run(name).pendingDir;
        const names = await fsp.readdir(pending).catch(() => [] as string[]);
        return names.filter((n) => n.endsWith(CALLS_SUFFIX)).map((n) => path.join(pending, n));
      }),
    )
  ).flat();
  const [taskSide, runsSide, callsSide] = await Promise.all([stamps([task.taskFile, task.current.run]), stamps(runFiles), stamps(callsFiles)]);
  return { task: taskSide, runs: runsSide, calls: callsSide };
}

/** Each file's (or folder's) size and modification time, as one comparable string; a missing one counts too. */
export async function stamps(files: readonly string[]): Promise<string> {
  const each = await Promise.all(
    files.map(async (file) => {
      const s = await fsp.stat(file).catch(() => undefined);
      return `${file}:${s ? `${s.size}:${s.mtimeMs}` : '-'}`;
    }),
  );
  return each.join('\n');
}

/**
 * Reads `read()` every `ms` (and once at once, for the baseline) and hands each new reading with
 * the one before it to `moved`; a reading still in progress skips a tick.
 */
export class StampPoll<T> {
  private readonly timer: NodeJS.Timeout;
  private last: T | undefined;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly moved: (now: T, before: T) => void,
    ms: number,
  ) {
    this.timer = setInterval(() => void this.tick(), ms);
    void this.tick();
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = await this.read();
      if (this.stopped) return;
      const before = this.last;
      this.last = now;
      if (before !== undefined) this.moved(now, before);
    } catch {
      // A folder gone between the readdir and the stat: the next tick reads again.
    } finally {
      this.busy = false;
    }
  }

  dispose(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
