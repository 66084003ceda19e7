// Workspace trust: running pytest or an agent executes the task's code, so an untrusted
// workspace never does either, and the user is told why.
import * as vscode from 'vscode';
import * as messages from './messages';
import { log } from './log';

export function requireTrust(action: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  const message = `SWE-CI did not ${action}: this workspace is not trusted, and running tests executes the task's code. ` + 'Trust the workspace to run tests.';
  log().warn(message);
  void messages.showWarningMessage(message, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}
