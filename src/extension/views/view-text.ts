// Making rows fit the side bar (no VS Code API involved): paths relative to the task, and
// one short line in the description with the whole text left to the tooltip.
import * as path from 'node:path';
import type { TaskFolder } from '../../core/workspace/task-folder';

/**
 * `text` with absolute paths inside the task written relative to it: app/code's files as
 * pytest names them (`src/x.py`), the rest from the task folder (`.sweci/…`).
 */
export function relativePaths(text: string, task: TaskFolder): string {
  const root = task.root.replace(/[\\/]+$/, '');
  const code = task.codeDir;
  return text
    .split(`${code}${path.sep}`)
    .join('')
    .split(`${code}`)
    .join(path.relative(root, code).split(path.sep).join('/'))
    .split(`${root}${path.sep}`)
    .join('')
    .split(root)
    .join('.');
}

/** The first line of `text`, at most `max` characters (cut with an ellipsis). */
function oneLine(text: string, max = 72): string {
  const first = text.split(/\r?\n/, 1)[0].trim();
  return first.length > max ? `${first.slice(0, max - 1).trimEnd()}…` : first;
}

/** A description that fits, from `text` that may hold paths of the task. */
export function shortDescription(text: string, task: TaskFolder | undefined, max = 72): string {
  return oneLine(task ? relativePaths(text, task) : text, max);
}
