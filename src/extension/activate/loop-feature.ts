// The CI loop: API keys, the loop controller, the Iterations view, the status bar and the
// commands that run steps, iterations, loops and human roles.
import * as vscode from 'vscode';
import { readRunSummary } from '../../core/loop/run-store';
import { revealIteration } from '../chart/open-iteration';
import { ApiKeys } from '../agents/api-keys';
import { checkAgentsCommand } from '../agents/check-agents';
import { CheckDocument } from '../agents/check-document';
import type { ChangeFeed } from '../change-feed';
import type { EnvironmentManager } from '../environment/environment-manager';
import { LoopController } from '../loop/loop-controller';
import { askForNewRun } from '../loop/new-run';
import { pickReplayedRun } from '../loop/replay-run';
import { offerResume } from '../loop/resume-prompt';
import type { TaskController } from '../task-controller';
import { IterationsTreeProvider, type IterationsNode } from '../views/iterations-tree';
import { LoopStatusBar } from '../views/status-bar';

export interface LoopFeature {
  keys: ApiKeys;
  loop: LoopController;
  iterations: IterationsTreeProvider;
  iterationsView: vscode.TreeView<IterationsNode>;
  statusBar: LoopStatusBar;
  /** Runs a loop request with the loopRunning context set, refreshing the views after. */
  execute(req: Parameters<LoopController['execute']>[0]): ReturnType<LoopController['execute']>;
  /** Offers to resume each run with an iteration in progress (after a reload or a crash). */
  offerResume(): Promise<void>;
}

export function activateLoop(context: vscode.ExtensionContext, controller: TaskController, environments: EnvironmentManager, feed: ChangeFeed): LoopFeature {
  const keys = new ApiKeys(context);
  const loop = new LoopController(context, controller, environments, keys);
  const iterations = new IterationsTreeProvider(controller, loop, feed);
  const iterationsView = vscode.window.createTreeView('sweci.iterations', { treeDataProvider: iterations, showCollapseAll: true });
  const statusBar = new LoopStatusBar(controller, loop, environments, feed);
  const setRunning = (running: boolean) => vscode.commands.executeCommand('setContext', 'sweci.loopRunning', running);
  const execute = async (req: Parameters<LoopController['execute']>[0]) => {
    await setRunning(true);
    try {
      const result = await loop.execute(req);
      // Where the new iteration is: selected in the view (its run listed first), and said.
      const last = result?.recorded.at(-1);
      const dir = controller.task();
      if (result && last && dir) {
        await revealIteration(dir, iterationsView, result.run, last.iteration, () => iterations.refreshNow());
      }
      return result;
    } finally {
      // A call refused because another runs must not re-enable the commands that one disables.
      await setRunning(loop.runningRun !== undefined);
      iterations.refresh();
      void statusBar.update();
    }
  };
  // Run Tests finishes an iteration whose Programmer is done; otherwise it is a plain refresh.
  const runTests = async () => {
    const dir = controller.task();
    const run = loop.activeRun;
    const pending = dir && run ? (await readRunSummary(dir, run).catch(() => undefined))?.pending : undefined;
    if (pending?.lastCompletedStep === 'programmer') return execute({ title: vscode.l10n.t('Run Tests'), iterations: 1 });
    return controller.runTests();
  };
  const checkDocument = new CheckDocument();
  context.subscriptions.push(
    loop,
    loop.onEvent((e) => feed.loopEvent(e)),
    iterations,
    iterationsView,
    statusBar,
    vscode.commands.registerCommand('sweci.runArchitect', () => execute({ title: vscode.l10n.t('Run Architect'), stopAfterStep: 'architect' })),
    vscode.commands.registerCommand('sweci.runProgrammer', () => execute({ title: vscode.l10n.t('Run Programmer'), stopAfterStep: 'programmer' })),
    vscode.commands.registerCommand('sweci.runTests', runTests),
    vscode.commands.registerCommand('sweci.runIteration', () => execute({ title: vscode.l10n.t('Run Iteration'), iterations: 1 })),
    vscode.commands.registerCommand('sweci.runLoop', () => execute({ title: vscode.l10n.t('Run Loop') })),
    vscode.commands.registerCommand('sweci.beProgrammer', () =>
      execute({ title: vscode.l10n.t('Run Iteration (you are the Programmer)'), iterations: 1, human: ['programmer'] }),
    ),
    vscode.commands.registerCommand('sweci.beArchitect', () =>
      execute({ title: vscode.l10n.t('Run Iteration (you are the Architect)'), iterations: 1, human: ['architect'] }),
    ),
    vscode.commands.registerCommand('sweci.submitIteration', () => loop.submit()),
    vscode.commands.registerCommand('sweci.stop', () => loop.stop()),
    vscode.commands.registerCommand('sweci.newRun', () => askForNewRun(controller.task(), (run) => loop.setActiveRun(run))),
    vscode.commands.registerCommand('sweci.recordHumanHistory', async () => {
      await setRunning(true);
      try {
        await loop.recordHumanHistory();
      } finally {
        await setRunning(loop.runningRun !== undefined);
        iterations.refresh();
        void statusBar.update();
      }
    }),
    vscode.commands.registerCommand('sweci.makeActiveRun', async (node?: { type: string; summary?: { info: { name: string } } }) => {
      if (node?.summary) await loop.setActiveRun(node.summary.info.name);
      iterations.refresh();
      void statusBar.update();
    }),
    vscode.commands.registerCommand('sweci.replayRun', async (node?: { summary?: { info: { name: string } } }) => {
      const from = await pickReplayedRun(controller.task(), node?.summary?.info.name);
      if (!from) return undefined;
      await loop.setActiveRun(from.into);
      return execute({ title: vscode.l10n.t('Replay {0}', from.run), replayFrom: from.run, iterations: from.iterations });
    }),
    vscode.commands.registerCommand('sweci.setApiKey', () => keys.promptSet()),
    vscode.commands.registerCommand('sweci.clearApiKey', () => keys.promptClear()),
    checkDocument,
    vscode.commands.registerCommand('sweci.checkAgents', () => checkAgentsCommand(keys, checkDocument)),
  );
  const resume = () =>
    offerResume({
      task: controller.task(),
      setActiveRun: (run) => loop.setActiveRun(run),
      resume: () => execute({ title: vscode.l10n.t('Resume'), iterations: 1 }),
    });
  return { keys, loop, iterations, iterationsView, statusBar, execute, offerResume: resume };
}
