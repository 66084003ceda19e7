// Reveals an iteration's row in the Iterations view (the chart's clicked point, the iteration
// view's shown iteration). Returns why it could not.
import * as vscode from 'vscode';
import { readIterationRecords } from '../../core/loop/iteration-record';
import { readRunInfo } from '../../core/loop/run-store';
import type { IterationsNode } from '../views/iterations-tree';
import { errorMessage } from '../../core/util/errors';
import type { TaskFolder } from '../../core/workspace/task-folder';

export async function revealIteration(task: TaskFolder, view: vscode.TreeView<IterationsNode>, run: string, iteration: number): Promise<string | undefined> {
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
  try {
    await view.reveal(node, { select: true, focus: false, expand: false });
  } catch (err) {
    // The view may be hidden or collapsed away; what asked for the reveal still goes on.
    console.warn(`SWE-CI: could not reveal ${run} #${iteration}: ${errorMessage(err)}`);
  }
  return undefined;
}
