// Opens a test at its definition in app/code (the target's tests are the same in every
// iteration): from the iteration view's test list and from a heatmap cell.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { testLocation } from '../../core/inspect/test-location';
import type { TaskFolder } from '../../core/workspace/task-folder';

/** A reason when the test cannot be found. */
export async function openTestAt(task: TaskFolder, nodeid: string): Promise<string | undefined> {
  const codeDir = task.codeDir;
  const loc = await testLocation(codeDir, nodeid);
  if (!loc) return `${nodeid} is not in app/code any more.`;
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(path.join(codeDir, loc.file)), {
    selection: new vscode.Range(loc.line, 0, loc.line, 0),
    preview: true,
  } satisfies vscode.TextDocumentShowOptions);
  return undefined;
}
