// Workspace trust: running pytest or an agent executes the task's code, so an untrusted
// workspace never does either, and the user is told why.
import * as vscode from 'vscode';
import * as messages from './messages';
import { log } from './log';

/** What was refused, each a whole sentence so that a translation can word it its own way. */
export type TrustedAction = 'run the tests' | 'run agents' | 'replay the human history';

function refusal(action: TrustedAction): string {
  switch (action) {
    case 'run the tests':
      return vscode.l10n.t(
        "SWE-CI did not run the tests: this workspace is not trusted, and running tests executes the task's code. Trust the workspace to run tests.",
      );
    case 'run agents':
      return vscode.l10n.t(
        "SWE-CI did not run agents: this workspace is not trusted, and running tests executes the task's code. Trust the workspace to run tests.",
      );
    case 'replay the human history':
      return vscode.l10n.t(
        "SWE-CI did not replay the human history: this workspace is not trusted, and running tests executes the task's code. Trust the workspace to run tests.",
      );
  }
}

export function requireTrust(action: TrustedAction): boolean {
  if (vscode.workspace.isTrusted) return true;
  const message = refusal(action);
  log().warn(message);
  void messages.showWarningMessage(message, vscode.l10n.t('Manage Workspace Trust')).then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}
