// Which tasks of a dataset a batch runs: all of them in dataset order, the ones named, and
// (a Kubernetes pod) the N-th of those.
import { promises as fs } from 'node:fs';
import { plural } from '../util/plural';
import type { TaskSpec } from '../task/task-spec';
import { UserError } from '../util/errors';

export interface TaskSelection {
  /** Task ids to run, from --tasks. */
  ids?: readonly string[];
  /** A file with one task id per line (# starts a comment), from --tasks-file. */
  idsFile?: string;
  /** 0-based position in the selected list (JOB_COMPLETION_INDEX). */
  index?: number;
}

export async function readTaskIdsFile(file: string): Promise<string[]> {
  const text = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UserError(`Cannot read the task list ${file}: ${err.code ?? err.message}.`);
  });
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, '').trim())
    .filter((l) => l !== '');
}

/** The selected tasks in dataset order; unknown ids are an error that lists them. */
export async function selectTasks(all: readonly TaskSpec[], sel: TaskSelection, where: string): Promise<TaskSpec[]> {
  let chosen = [...all];
  const wanted = [...(sel.ids ?? []), ...(sel.idsFile ? await readTaskIdsFile(sel.idsFile) : [])];
  if (wanted.length > 0) {
    const known = new Set(all.map((t) => t.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new UserError(
        `${where} has no task ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}. Check the ids (they are the task_id column of the split's CSV).`,
      );
    }
    const set = new Set(wanted);
    chosen = chosen.filter((t) => set.has(t.id));
  }
  if (sel.index !== undefined) {
    if (!Number.isInteger(sel.index) || sel.index < 0 || sel.index >= chosen.length) {
      throw new UserError(
        `--task-index ${sel.index} is outside the ${plural(chosen.length, 'selected task')} (0 to ${chosen.length - 1}). The Job's completions must equal the number of tasks.`,
      );
    }
    chosen = [chosen[sel.index]];
  }
  if (chosen.length === 0) throw new UserError(`${where} has no tasks to run.`);
  return chosen;
}
