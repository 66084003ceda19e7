// Reveals an iteration's row in the Iterations view (the chart's clicked point, the iteration
// view's shown iteration). Returns why it could not.
import * as vscode from 'vscode';
import { readIterationRecords } from '../../core/loop/iteration-record';
import { readRunInfo } from '../../core/loop/run-store';
import type { IterationsNode } from '../views/iterations-tree';
import { errorMessage } from '../../core/util/errors';
import type { TaskFolder } from '../../core/workspace/task-folder';

/** Reveals at most this many times while a refresh keeps taking the selection away. */
const REVEAL_ATTEMPTS = 5;

/**
 * `refresh`, when given, fires the view's refresh at once; each attempt calls it first, so the
 * reveal (which waits for refreshes already fired) runs against the rows as they are on disk.
 */
export async function revealIteration(
  task: TaskFolder,
  view: vscode.TreeView<IterationsNode>,
  run: string,
  iteration: number,
  refresh?: () => void,
): Promise<string | undefined> {
  const info = await readRunInfo(task, run);
  if (!info) return `Run ${run} is not on disk any more.`;
  const records = await readIterationRecords(task.run(run).iterationsFile);
  const i = records.findIndex((r) => r.iteration === iteration);
  if (i < 0) return `Run ${run} has no iteration ${iteration}.`;
  // The node the Iterations view would build for this row (same id), so reveal finds it.
  const node: IterationsNode = {
    type: 'iteration',
    run,
    history: info.kind === 'human-history',
    record: records[i],
    line0: records[0],
    previous: i > 0 ? records[i - 1] : undefined,
  };
  const selected = () => view.selection.some((n) => n.type === 'iteration' && n.run === run && n.record.iteration === iteration);
  try {
    // A refresh fired while a reveal resolves its rows (the change feed's, after a run records)
    // makes VS Code drop that reveal without a word: reveal again until the row is selected.
    const attempts = refresh ? REVEAL_ATTEMPTS : 1;
    for (let attempt = 1; ; attempt++) {
      refresh?.();
      await view.reveal(node, { select: true, focus: false, expand: false });
      if (attempt >= attempts || selected()) break;
    }
  } catch (err) {
    // The view may be hidden or collapsed away; what asked for the reveal still goes on.
    console.warn(`SWE-CI: could not reveal ${run} #${iteration}: ${errorMessage(err)}`);
  }
  return undefined;
}
