// Entry point: wires the core engine to thin VS Code views and commands, one feature at a time
// (activate/*). Every view renders files and events; the one change feed says when they changed.
import * as vscode from 'vscode';
import { activateChart } from './activate/chart-feature';
import { activateLoop } from './activate/loop-feature';
import { activateNonPassedFollow } from './activate/non-passed-follow';
import { activateSequence } from './activate/sequence-feature';
import { startTestHooks } from './activate/sweci-api';
import { activateTask } from './activate/task-feature';
import { activateTranscript } from './activate/transcript-feature';
import { ChangeFeed } from './change-feed';
import { revealIteration } from './chart/open-iteration';
import { revealViewOnce } from './commands/check-out-task';
import { EnvironmentManager } from './environment/environment-manager';
import { activateInspect } from './inspect/activate-inspect';
import { log } from './log';
import { abortAllSteps } from './progress';
import { activateRequirementLanguage } from './requirement/requirement-language';
import type { SweciApi } from './test-api';
import { activateTesting } from './testing/test-controller';

export async function activate(context: vscode.ExtensionContext): Promise<SweciApi | undefined> {
  // Only under the test harness (SWECI_TEST_HOOKS=1): the test API, and the recording it reads.
  const testApi = startTestHooks();
  const environments = new EnvironmentManager();
  activeEnvironments = environments;
  const feed = new ChangeFeed();
  context.subscriptions.push(log(), environments, feed);

  const task = activateTask(context, environments, feed);
  const { controller } = task;
  const loop = activateLoop(context, controller, environments, feed);
  const testing = activateTesting(context, controller, environments);
  const inspect = activateInspect({
    context,
    task: () => controller.task(),
    onDidChangeRuns: feed.onDidChangeRuns,
    reveal: async ({ run, iteration }) => {
      const dir = controller.task();
      if (dir) await revealIteration(dir, loop.iterationsView, run, iteration);
    },
    selectedRow: () => {
      const node = loop.iterationsView.selection[0];
      return node?.type === 'iteration' || node?.type === 'run' ? node : undefined;
    },
    activeRun: () => loop.loop.activeRun,
  });
  context.subscriptions.push(
    ...inspect.disposables,
    inspect.view.onDidChangeCompareSelection((ref) => loop.iterations.markCompareSelection(ref)),
  );
  activateNonPassedFollow(context, controller, task.tree, inspect.view, () => task.updateView());
  const chart = activateChart(context, controller, feed, inspect.view);
  const transcript = activateTranscript(context, controller, feed, loop.loop);
  const requirementLanguage = activateRequirementLanguage(context, feed);
  context.subscriptions.push(requirementLanguage);
  activateSequence(context, loop.keys);

  const api = testApi?.({ task, loop, chart, iterationView: inspect.view, transcript, testing, environments, requirementLanguage });

  await controller.reload();
  void revealViewOnce(context, controller.task());
  void loop.offerResume();
  return api;
}

let activeEnvironments: EnvironmentManager | undefined;

/** Stops running steps and removes the task's containers before the window goes. */
export async function deactivate(): Promise<void> {
  abortAllSteps();
  await activeEnvironments?.release();
}
