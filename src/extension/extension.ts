// Entry point: wires the core engine to thin VS Code views and commands.
import * as vscode from 'vscode';
import { taskLayout } from '../core/workspace/layout';
import { EnvironmentManager } from './environment/environment-manager';
import { CheckOutTaskCommand, revealViewOnce, type CheckoutArgs } from './commands/check-out-task';
import { log } from './log';
import { lastMessages } from './messages';
import { abortAllSteps } from './progress';
import { TaskController } from './task-controller';
import type { NonPassedTreeRow, SweciApi } from './test-api';
import { NonPassedTreeProvider } from './views/non-passed-tree';
import { TaskInfoTreeProvider } from './views/task-info-tree';
import { ApiKeys } from './agents/api-keys';
import { LoopController } from './loop/loop-controller';
import { IterationsTreeProvider } from './views/iterations-tree';
import { LoopStatusBar } from './views/status-bar';
import { readRunSummary } from '../core/loop/run-store';
import { ChartPanelHost } from './chart/chart-panel';
import { exportReportCommand, type ExportArgs } from './chart/export-command';
import { revealIteration } from './chart/open-iteration';
import { activateInspect } from './inspect/activate-inspect';
import { iterationNonPassed } from '../core/inspect/iteration-details';
import { activateTesting } from './testing/test-controller';

export async function activate(context: vscode.ExtensionContext): Promise<SweciApi> {
  const environments = new EnvironmentManager();
  activeEnvironments = environments;
  const controller = new TaskController(environments);
  const tree = new NonPassedTreeProvider(controller);
  const view = vscode.window.createTreeView('sweci.nonPassed', { treeDataProvider: tree, showCollapseAll: true });
  const info = new TaskInfoTreeProvider(controller, environments);
  const infoView = vscode.window.createTreeView('sweci.task', { treeDataProvider: info });
  const checkout = new CheckOutTaskCommand(context, controller, environments);
  const keys = new ApiKeys(context);
  const loop = new LoopController(context, controller, environments, keys);
  const iterations = new IterationsTreeProvider(controller, loop);
  const iterationsView = vscode.window.createTreeView('sweci.iterations', { treeDataProvider: iterations, showCollapseAll: true });
  const statusBar = new LoopStatusBar(controller, loop, environments);
  const testing = activateTesting(context, controller, environments);
  const setRunning = (running: boolean) => vscode.commands.executeCommand('setContext', 'sweci.loopRunning', running);
  const execute = async (req: Parameters<LoopController['execute']>[0]) => {
    await setRunning(true);
    try {
      return await loop.execute(req);
    } finally {
      await setRunning(false);
      iterations.refresh();
      void statusBar.update();
    }
  };
  // Run Tests finishes an iteration whose Programmer is done; otherwise it is a plain refresh.
  const runTests = async () => {
    const dir = controller.taskDir();
    const run = loop.activeRun;
    const pending = dir && run ? (await readRunSummary(dir, run).catch(() => undefined))?.pending : undefined;
    if (pending?.lastCompletedStep === 'programmer') return execute({ title: 'Run Tests', iterations: 1 });
    return controller.runTests();
  };

  const inspect = activateInspect({
    context,
    taskDir: () => controller.taskDir(),
    onDidChangeRuns: (listener) => iterations.onDidChangeTreeData(() => listener()),
    reveal: async ({ run, iteration }) => {
      const dir = controller.taskDir();
      if (dir) await revealIteration(dir, iterationsView, run, iteration);
    },
    selectedRow: () => {
      const node = iterationsView.selection[0];
      return node?.type === 'iteration' || node?.type === 'run' ? node : undefined;
    },
  });
  const chart = new ChartPanelHost({
    context,
    tasks: controller,
    loop,
    // A clicked point opens that iteration in the iteration view (which reveals its row).
    openIteration: async (run, iteration) => {
      if (!controller.taskDir()) return 'No SWE-CI task is open.';
      try {
        await inspect.view.show({ run, iteration });
        return undefined;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    },
  });
  const exportReport = (args?: ExportArgs) => exportReportCommand(context, controller.taskDir(), chart.gamma, args);

  // The Non-passed view follows the iteration view (unless the user asked for the current code).
  const FOLLOW_KEY = 'sweci.nonPassed.followIteration';
  let followed = 0;
  const follow = async (ref: { run: string; iteration: number } | undefined) => {
    const dir = controller.taskDir();
    const on = context.workspaceState.get<boolean>(FOLLOW_KEY, true);
    const call = ++followed;
    const data = on && ref && dir ? await iterationNonPassed(dir, ref.run, ref.iteration).catch(() => undefined) : undefined;
    // Quick steps: only the latest iteration's tests are shown, whichever load finishes last.
    if (call !== followed) return;
    tree.showIteration(data && ref ? { label: `${ref.run} ${ref.iteration === 0 ? 'base' : `#${ref.iteration}`}`, data } : undefined);
    updateView();
    await vscode.commands.executeCommand('setContext', 'sweci.nonPassedAtIteration', !!data);
    await vscode.commands.executeCommand('setContext', 'sweci.nonPassedFollows', on);
  };
  const shownRef = () => {
    const shown = inspect.view.shown;
    return shown?.kind === 'iteration' ? { run: shown.details.run, iteration: shown.details.iteration } : undefined;
  };
  const updateView = () => {
    view.description = tree.describe();
    const run = controller.current?.lastRun;
    const at = tree.iterationShown;
    view.message = at
      ? `The tests as they were at ${at}, the iteration the iteration view shows.`
      : run?.kind === 'did-not-run'
        ? `${run.reason} Showing the previous report.`
        : undefined;
  };
  context.subscriptions.push(
    log(),
    environments,
    controller,
    tree,
    view,
    info,
    infoView,
    loop,
    iterations,
    iterationsView,
    statusBar,
    vscode.commands.registerCommand('sweci.runArchitect', () => execute({ title: 'Architect', stopAfterStep: 'architect' })),
    vscode.commands.registerCommand('sweci.runProgrammer', () => execute({ title: 'Programmer', stopAfterStep: 'programmer' })),
    vscode.commands.registerCommand('sweci.runTests', runTests),
    vscode.commands.registerCommand('sweci.runIteration', () => execute({ title: 'Iteration', iterations: 1 })),
    vscode.commands.registerCommand('sweci.runLoop', () => execute({ title: 'Loop' })),
    vscode.commands.registerCommand('sweci.beProgrammer', () => execute({ title: 'Iteration (you are the Programmer)', iterations: 1, human: ['programmer'] })),
    vscode.commands.registerCommand('sweci.beArchitect', () => execute({ title: 'Iteration (you are the Architect)', iterations: 1, human: ['architect'] })),
    vscode.commands.registerCommand('sweci.submitIteration', () => loop.submit()),
    vscode.commands.registerCommand('sweci.stop', () => loop.stop()),
    vscode.commands.registerCommand('sweci.newRun', () => loop.newRun()),
    vscode.commands.registerCommand('sweci.recordHumanHistory', async () => {
      await setRunning(true);
      try {
        await loop.recordHumanHistory();
      } finally {
        await setRunning(false);
        iterations.refresh();
      }
    }),
    vscode.commands.registerCommand('sweci.makeActiveRun', async (node?: { type: string; summary?: { info: { name: string } } }) => {
      if (node?.summary) await loop.setActiveRun(node.summary.info.name);
      iterations.refresh();
      void statusBar.update();
    }),
    chart,
    ...inspect.disposables,
    vscode.commands.registerCommand('sweci.showChart', () => chart.show()),
    vscode.commands.registerCommand('sweci.exportReport', (args?: ExportArgs) => exportReport(args)),
    vscode.commands.registerCommand('sweci.setApiKey', () => keys.promptSet()),
    vscode.commands.registerCommand('sweci.clearApiKey', () => keys.promptClear()),
    controller.onDidChange(updateView),
    inspect.view.onDidShowIteration((ref) => void follow(ref)),
    vscode.commands.registerCommand('sweci.showCurrentNonPassed', async () => {
      await context.workspaceState.update(FOLLOW_KEY, false);
      await follow(undefined);
    }),
    vscode.commands.registerCommand('sweci.followIterationView', async () => {
      await context.workspaceState.update(FOLLOW_KEY, true);
      await follow(shownRef());
    }),
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
  void vscode.commands.executeCommand('setContext', 'sweci.nonPassedFollows', context.workspaceState.get<boolean>(FOLLOW_KEY, true));
  await controller.reload();
  void revealViewOnce(context, controller.taskDir());
  void loop.offerResume(() => execute({ title: 'Resume', iterations: 1 }));

  return {
    checkOutTask: (args) => checkout.run(args),
    refresh: () => controller.runTests(),
    nonPassedDescription: () => view.description,
    nonPassedIteration: () => tree.iterationShown,
    nonPassedMessage: () => view.message,
    taskState: () => controller.current,
    setApiKey: (name, value) => keys.set(name, value),
    clearApiKey: (name) => keys.clear(name),
    activeRun: () => loop.activeRun,
    setActiveRun: (run) => loop.setActiveRun(run),
    humanWaiting: () => {
      const w = loop.humans.current;
      return w && { role: w.role, iteration: w.iteration, run: w.run };
    },
    iterationRows: async () => {
      const text = (v: string | vscode.TreeItemLabel | boolean | undefined) => (typeof v === 'string' ? v : v && typeof v === 'object' ? v.label : '');
      const out = [];
      for (const runNode of await iterations.getChildren()) {
        const runItem = iterations.getTreeItem(runNode);
        const its = [];
        for (const it of await iterations.getChildren(runNode)) {
          const item = iterations.getTreeItem(it);
          const children = (await iterations.getChildren(it)).map((c) => text(iterations.getTreeItem(c).label));
          its.push({ label: text(item.label), description: text(item.description), children });
        }
        out.push({ run: text(runItem.label), description: text(runItem.description), iterations: its });
      }
      return out;
    },
    taskInfoRows: () =>
      info.getChildren().map((row) => ({ label: row.label, description: row.description ?? '', tooltip: row.tooltip ?? '' })),
    statusBar: () => statusBar.shown,
    releaseEnvironment: () => environments.release(),
    lastMessages: () => lastMessages(),
    showChart: () => chart.show(),
    chartMessages: () => ({ posted: [...chart.posted], received: [...chart.received] }),
    chartHtml: () => chart.currentHtml,
    chartReceive: (message) => chart.receive(message),
    iterationsSelection: () => iterationsView.selection.map((n) => (n.type === 'iteration' ? `${n.run} #${n.record.iteration}` : n.type === 'run' ? n.summary.info.name : n.label)),
    exportReport: (folder) => exportReport({ folder }),
    iterationView: () => {
      const shown = inspect.view.shown;
      const label = shown?.kind === 'iteration' ? `${shown.details.run} #${shown.details.iteration}` : shown && `${shown.comparison.left.label} ↔ ${shown.comparison.right.label}`;
      return { shown: label, details: shown, received: [...inspect.view.received] };
    },
    iterationViewReceive: (message) => inspect.view.receive(message),
    testItems: () => testing.rows(),
    lastTestResults: () => testing.lastResults(),
    runTestItems: (ids) => testing.runIds(ids),
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

let activeEnvironments: EnvironmentManager | undefined;

/** Stops running steps and removes the task's containers before the window goes. */
export async function deactivate(): Promise<void> {
  abortAllSteps();
  await activeEnvironments?.release();
}
