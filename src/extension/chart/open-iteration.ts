// What clicking a chart point does: reveal that iteration in the Iterations view and open the
// code diff archived with it. Returns why it could not, for the webview to show.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readIterationRecords } from '../../core/loop/iteration-record';
import { ARCHIVE, iterDir, readRunInfo, runLayout } from '../../core/loop/run-store';
import type { IterationsNode } from '../views/iterations-tree';

export async function openIteration(taskDir: string, view: vscode.TreeView<IterationsNode>, run: string, iteration: number): Promise<string | undefined> {
  const info = await readRunInfo(taskDir, run);
  if (!info) return `Run ${run} is not on disk any more.`;
  const layout = runLayout(taskDir, run);
  const records = await readIterationRecords(layout.iterationsFile);
  const i = records.findIndex((r) => r.iteration === iteration);
  if (i < 0) return `Run ${run} has no iteration ${iteration}.`;
  // The node the Iterations view would build for this row (same id), so reveal finds it.
  const node: IterationsNode = { type: 'iteration', run, history: info.kind === 'human-history', record: records[i], line0: records[0], previous: i > 0 ? records[i - 1] : undefined };
  try {
    await view.reveal(node, { select: true, focus: false, expand: true });
  } catch (err) {
    // The view may be hidden or collapsed away; the diff still opens.
    console.warn(`SWE-CI: could not reveal ${run} #${iteration}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const diff = path.join(iterDir(layout, iteration), ARCHIVE.codeDiff);
  if (!fs.existsSync(diff)) return iteration === 0 ? 'The base has no code changes.' : `Iteration ${iteration} of ${run} archived no code diff.`;
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(diff), { preview: true, viewColumn: vscode.ViewColumn.Beside });
  return undefined;
}
