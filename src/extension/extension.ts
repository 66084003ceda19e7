// Entry point: wires the core engine to thin VS Code views and commands.
import * as vscode from 'vscode';
import { taskLayout } from '../core/workspace/layout';
import { LocalRuntime } from '../core/runtime/local-runtime';
import { CheckOutTaskCommand, type CheckoutArgs } from './commands/check-out-task';
import { log } from './log';
import { abortAllSteps } from './progress';
import { TaskController } from './task-controller';
import type { NonPassedTreeRow, SweciApi } from './test-api';
import { NonPassedTreeProvider } from './views/non-passed-tree';
import { TaskInfoTreeProvider } from './views/task-info-tree';

export async function activate(context: vscode.ExtensionContext): Promise<SweciApi> {
  const runtime = new LocalRuntime();
  const controller = new TaskController(runtime);
  const tree = new NonPassedTreeProvider(controller);
  const view = vscode.window.createTreeView('sweci.nonPassed', { treeDataProvider: tree, showCollapseAll: true });
  const info = new TaskInfoTreeProvider(controller);
  const infoView = vscode.window.createTreeView('sweci.task', { treeDataProvider: info });
  const checkout = new CheckOutTaskCommand(context, controller, runtime);

  const updateView = () => {
    view.description = tree.describe();
    const run = controller.current?.lastRun;
    view.message = run?.kind === 'did-not-run' ? `${run.reason} Showing the previous report.` : undefined;
  };
  context.subscriptions.push(
    log(),
    controller,
    tree,
    view,
    info,
    infoView,
    controller.onDidChange(updateView),
    vscode.commands.registerCommand('sweci.checkoutTask', (args?: CheckoutArgs) => checkout.run(args)),
    vscode.commands.registerCommand('sweci.refresh', () => controller.runTests()),
    vscode.commands.registerCommand('sweci.showLog', () => log().show()),
    vscode.commands.registerCommand('sweci.openSummary', async () => {
      const dir = controller.taskDir();
      if (dir) await vscode.window.showTextDocument(vscode.Uri.file(taskLayout(dir).summaryFile));
    }),
    vscode.commands.registerCommand('sweci.openTestDetail', async (node?: { type: string; entry?: { detailFile?: string } }) => {
      const file = node?.entry?.detailFile;
      if (file) await vscode.window.showTextDocument(vscode.Uri.file(file));
    }),
  );
  await controller.reload();

  return {
    checkOutTask: (args) => checkout.run(args),
    refresh: () => controller.runTests(),
    nonPassedDescription: () => view.description,
    nonPassedMessage: () => view.message,
    taskState: () => controller.current,
    nonPassedRows: () =>
      tree.flatten().map(({ file, item, entry }): NonPassedTreeRow => ({
        file,
        nodeid: entry.nodeid,
        kind: entry.kind,
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: typeof item.description === 'string' ? item.description : '',
        tooltip: item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? ''),
        command: item.command ? { command: item.command.command, arguments: item.command.arguments ?? [] } : undefined,
      })),
  };
}

export function deactivate(): void {
  abortAllSteps();
}
