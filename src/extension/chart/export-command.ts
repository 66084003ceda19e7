// SWE-CI: Export Report — asks where (the task's .sweci/reports/export-<time>/ by default, or a
// folder the user picks), writes the report there and offers to open it: in the file manager on a
// local desktop; in the person's browser, or as a download, where VS Code runs in a browser or remotely.
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import { integritySettings } from '../config';
import type { ReportBrowser } from './report-browser';
import { actionsAfter, revealActions, type RevealAction } from './reveal-choice';
import { showError } from '../errors';
import { writeReport, type ExportResult } from '../../core/report/export-report';
import type { TaskFolder } from '../../core/workspace/task-folder';

export interface ExportArgs {
  /** Write here without asking (tests, scripts). */
  folder?: string;
}

export async function exportReportCommand(
  context: vscode.ExtensionContext,
  task: TaskFolder | undefined,
  gamma: number,
  browser: ReportBrowser,
  args?: ExportArgs,
): Promise<ExportResult | undefined> {
  if (!task) {
    void messages.showInformationMessage(vscode.l10n.t('No SWE-CI task is open. Check one out first.'));
    return undefined;
  }
  let folder = args?.folder;
  if (!folder) {
    const suggested = task.exportDir();
    const pick = await vscode.window.showQuickPick(
      [
        { label: `$(folder) ${path.relative(task.root, suggested)}`, description: vscode.l10n.t('in the task folder'), folder: suggested },
        { label: `$(folder-opened) ${vscode.l10n.t('Choose a Folder…')}`, folder: undefined },
      ],
      { title: vscode.l10n.t('Export the SWE-CI report to') },
    );
    if (!pick) return undefined;
    folder = pick.folder;
    if (!folder) {
      const chosen = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: vscode.l10n.t('Export Here'),
        defaultUri: vscode.Uri.file(task.root),
      });
      if (!chosen?.[0]) return undefined;
      folder = path.join(chosen[0].fsPath, path.basename(suggested));
    }
  }
  const result = await writeReport({
    task,
    folder,
    extensionRoot: context.extensionUri.fsPath,
    gamma,
    title: vscode.l10n.t('SWE-CI report · {0}', path.basename(task.root)),
    scoring: integritySettings(vscode.Uri.file(task.root)),
    // The pages in the display language, as the chart panel shows them (activate/features.ts gives
    // @vscode/l10n the same bundle, for the words the report writes itself).
    ...(vscode.l10n.bundle ? { l10n: vscode.l10n.bundle } : {}),
  });
  if (!args?.folder) {
    const report = vscode.Uri.file(result.html);
    const actions = revealActions({
      desktop: vscode.env.uiKind === vscode.UIKind.Desktop,
      remote: vscode.env.remoteName !== undefined,
      insideWorkspace: vscode.workspace.getWorkspaceFolder(report) !== undefined,
    });
    // A toast closes with the button clicked: after Open in Browser it comes back with the rest (Download).
    const offer = (left: readonly RevealAction[]) =>
      void messages.showInformationMessage(vscode.l10n.t('SWE-CI report written to {0}', folder), ...left.map(revealLabel)).then(async (choice) => {
        const action = left.find((a) => revealLabel(a) === choice);
        if (!action) return;
        // Back at once, not once the action is done: a page opened in the browser may never say so.
        const rest = actionsAfter(left, action);
        if (rest.length > 0) offer(rest);
        try {
          if (action.command === 'copy') await vscode.env.clipboard.writeText(result.html);
          else if (action.command === 'browser') await browser.openPage(result.folder);
          else if (action.command === 'download') await browser.download(result.folder);
          else await vscode.commands.executeCommand(action.command, report);
        } catch (err) {
          showError(vscode.l10n.t('{0} failed', revealLabel(action)), err);
        }
      });
    offer(actions);
  }
  return result;
}

/** A reveal action's button in the display language (reveal-choice names them in English, as ids). */
function revealLabel(action: RevealAction): string {
  switch (action.command) {
    case 'revealFileInOS':
      return vscode.l10n.t('Reveal Folder');
    case 'browser':
      return vscode.l10n.t('Open in Browser');
    case 'download':
      return vscode.l10n.t('Download');
    case 'revealInExplorer':
      return vscode.l10n.t('Show in Explorer');
    case 'copy':
      return vscode.l10n.t('Copy Path');
  }
}
