// The open task: its controller, the Task and Non-passed views, Check Out Task and the commands
// that run or open the current code's tests.
import * as vscode from 'vscode';
import type { ChangeFeed } from '../change-feed';
import { CheckOutTaskCommand, type CheckoutArgs } from '../commands/check-out-task';
import { DownloadDatasetCommand, downloadedLine, type DownloadArgs } from '../commands/download-dataset';
import { HubToken } from '../commands/hub-token';
import * as messages from '../messages';
import type { EnvironmentManager } from '../environment/environment-manager';
import { log } from '../log';
import { TaskController } from '../task-controller';
import { NonPassedTreeProvider } from '../views/non-passed-tree';
import { TaskInfoTreeProvider } from '../views/task-info-tree';

export interface TaskFeature {
  controller: TaskController;
  tree: NonPassedTreeProvider;
  view: vscode.TreeView<unknown>;
  info: TaskInfoTreeProvider;
  checkout: CheckOutTaskCommand;
  hubToken: HubToken;
  /** Re-renders the Non-passed view's description and message. */
  updateView(): void;
}

export function activateTask(context: vscode.ExtensionContext, environments: EnvironmentManager, feed: ChangeFeed): TaskFeature {
  const controller = new TaskController(environments, feed);
  const tree = new NonPassedTreeProvider(controller);
  const view = vscode.window.createTreeView('sweci.nonPassed', { treeDataProvider: tree, showCollapseAll: true });
  const info = new TaskInfoTreeProvider(controller, environments);
  const infoView = vscode.window.createTreeView('sweci.task', { treeDataProvider: info });
  const hubToken = new HubToken(context);
  const downloads = new DownloadDatasetCommand(context, hubToken);
  const checkout = new CheckOutTaskCommand(context, controller, environments, downloads);
  const updateView = () => {
    view.description = tree.describe();
    const run = controller.current?.lastRun;
    const at = tree.iterationShown;
    view.message = at
      ? `The tests as they were at ${at} (the iteration open in the Iteration view).`
      : run?.kind === 'did-not-run'
        ? `${run.reason} Showing the previous report.`
        : undefined;
  };
  context.subscriptions.push(
    controller,
    tree,
    view,
    info,
    infoView,
    controller.onDidChange(updateView),
    vscode.commands.registerCommand('sweci.checkoutTask', (args?: CheckoutArgs) => checkout.run(args)),
    vscode.commands.registerCommand('sweci.downloadDataset', async (args?: DownloadArgs) => {
      const result = await downloads.run(args);
      if (result && !args) {
        const CHECK_OUT = vscode.l10n.t('Check Out a Task…');
        const choice = await messages.showInformationMessage(`${downloadedLine(result)} ${vscode.l10n.t('Check Out Task… lists them now.')}`, CHECK_OUT);
        if (choice === CHECK_OUT) await checkout.runFromDataset(result.datasetDir, result.split);
      }
      return result;
    }),
    vscode.commands.registerCommand('sweci.setHubToken', () => hubToken.promptSet()),
    vscode.commands.registerCommand('sweci.clearHubToken', () => hubToken.clear()),
    vscode.commands.registerCommand('sweci.refresh', () => controller.runTests()),
    vscode.commands.registerCommand('sweci.showLog', () => log().show()),
    vscode.commands.registerCommand('sweci.openSummary', async () => {
      const dir = controller.task();
      if (dir) await vscode.window.showTextDocument(vscode.Uri.file(dir.summaryFile));
    }),
    vscode.commands.registerCommand('sweci.openTestDetail', async (node?: { type: string; entry?: { detailFile?: string } }) => {
      const file = node?.entry?.detailFile;
      if (file) await vscode.window.showTextDocument(vscode.Uri.file(file));
    }),
  );
  return { controller, tree, view, info, checkout, hubToken, updateView };
}
