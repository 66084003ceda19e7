// Wires the core engine to thin VS Code views and commands, one feature at a time (activate/*),
// and hands back what it made. extension.ts activates the product with it; a harness that
// drives the extension from outside can reach the same views and controllers through it.
import { setTelemetryWarning } from '../../core/telemetry/tracing';
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { ChangeFeed } from '../change-feed';
import { revealIteration } from '../chart/open-iteration';
import { revealViewOnce } from '../commands/check-out-task';
import { EnvironmentManager } from '../environment/environment-manager';
import { activateInspect } from '../inspect/activate-inspect';
import type { IterationViewHost } from '../inspect/iteration-view';
import { log } from '../log';
import { activateRequirementLanguage, type RequirementLanguage } from '../requirement/requirement-language';
import { activateTesting } from '../testing/test-controller';
import { activateChart, type ChartFeature } from './chart-feature';
import { activateCurate, type CurateFeature } from './curate-feature';
import { activateExport } from './export-feature';
import { activateLeaderboard, type LeaderboardFeature } from './leaderboard-feature';
import { activateLoop, type LoopFeature } from './loop-feature';
import { activateNonPassedFollow } from './non-passed-follow';
import { activateSequence } from './sequence-feature';
import { activateTask, type TaskFeature } from './task-feature';
import { activateTranscript, type TranscriptFeature } from './transcript-feature';

export interface Features {
  task: TaskFeature;
  loop: LoopFeature;
  chart: ChartFeature;
  iterationView: IterationViewHost;
  transcript: TranscriptFeature;
  leaderboard: LeaderboardFeature;
  testing: ReturnType<typeof activateTesting>;
  environments: EnvironmentManager;
  requirementLanguage: RequirementLanguage;
  curate: CurateFeature;
}

/** Registers every feature; nothing is read from disk yet (startFeatures loads the task). */
export function activateFeatures(context: vscode.ExtensionContext): Features {
  // The modules that build pages without the VS Code API (inspect/iteration-page.ts) word text
  // through @vscode/l10n: give it the bundle VS Code loaded for the display language (none in English).
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const environments = new EnvironmentManager();
  activeEnvironments = environments;
  const feed = new ChangeFeed();
  context.subscriptions.push(log(), environments, feed);
  // A collector that cannot be reached is said once, in the extension's log.
  setTelemetryWarning((message) => log().warn(message));

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
    inspect.view.onDidChangeCompared((refs) => loop.iterations.markCompared(refs)),
  );
  activateNonPassedFollow(context, controller, task.tree, inspect.view, () => task.updateView());
  const chart = activateChart(context, controller, feed, inspect.view);
  const transcript = activateTranscript(context, controller, feed, loop.loop);
  const requirementLanguage = activateRequirementLanguage(context, feed);
  context.subscriptions.push(requirementLanguage);
  activateSequence(context, loop.keys);
  const leaderboard = activateLeaderboard(context, feed, controller);
  const curate = activateCurate(context, task.checkout);
  // The γ the chart shows (its slider, kept per workspace): the exported EvoScore is the one the views show.
  activateExport(context, controller, () => chart.chart.gamma);
  return { task, loop, chart, iterationView: inspect.view, transcript, leaderboard, testing, environments, requirementLanguage, curate };
}

/** Loads the open task (the views fill in), reveals the SWE-CI view once and offers to resume a run. */
export async function startFeatures(context: vscode.ExtensionContext, { task, loop }: Features): Promise<void> {
  // Before the task is read (which can take seconds): the workbench shows the Explorer till then.
  void revealViewOnce(context, task.controller.task());
  await task.controller.reload();
  void loop.offerResume();
}

let activeEnvironments: EnvironmentManager | undefined;

/** Removes the containers of the environments made at activation (the window is going). */
export async function releaseEnvironments(): Promise<void> {
  await activeEnvironments?.release();
}
