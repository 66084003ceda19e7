// Exports of an experiment's records for other tools: Export Inspect Log… (a run row of the
// Iterations view, the view's menu, or the palette).
import * as vscode from 'vscode';
import { exportInspectLogCommand } from '../export/inspect-log-command';
import type { TaskController } from '../task-controller';

/** `gamma`: the γ the views show (the chart's), for the logs' EvoScore. */
export function activateExport(context: vscode.ExtensionContext, controller: TaskController, gamma: () => number): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('sweci.exportInspectLog', (arg?: unknown) => exportInspectLogCommand(controller.task()?.root, gamma(), arg)),
  );
}
