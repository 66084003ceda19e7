// What activate() returns under the test harness (test-api.ts): read through the same providers
// and hosts the views use. Without SWECI_TEST_HOOKS=1 none of it is built and nothing is recorded.
import * as vscode from 'vscode';
import type { EnvironmentManager } from '../environment/environment-manager';
import type { IterationViewHost } from '../inspect/iteration-view';
import { observeMessages, type ShownMessage } from '../messages';
import { testHooksEnabled } from '../test-hooks';
import type { NonPassedTreeRow, SweciApi } from '../test-api';
import type { RequirementLanguage } from '../requirement/requirement-language';
import type { activateTesting } from '../testing/test-controller';
import type { PublishedResult } from '../testing/test-results';
import type { ChartFeature } from './chart-feature';
import type { LoopFeature } from './loop-feature';
import type { TaskFeature } from './task-feature';
import type { TranscriptFeature } from './transcript-feature';

export interface ApiParts {
  task: TaskFeature;
  loop: LoopFeature;
  chart: ChartFeature;
  iterationView: IterationViewHost;
  transcript: TranscriptFeature;
  testing: ReturnType<typeof activateTesting>;
  environments: EnvironmentManager;
  requirementLanguage: RequirementLanguage;
}

/** Messages kept for lastMessages(). */
const KEEP = 50;

/**
 * Under the test harness: starts recording the messages shown (from activation on) and returns
 * what builds the test API once the features exist (before the task loads, so it sees the
 * first results). Otherwise undefined: no API, no recording.
 */
export function startTestHooks(): ((parts: ApiParts) => SweciApi) | undefined {
  if (!testHooksEnabled()) return undefined;
  const shown: ShownMessage[] = [];
  observeMessages((m) => {
    shown.push(m);
    if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
  });
  return (parts) => sweciApi(parts, () => [...shown]);
}

const text = (v: string | vscode.TreeItemLabel | boolean | undefined): string => (typeof v === 'string' ? v : v && typeof v === 'object' ? v.label : '');

function sweciApi(
  { task, loop: l, chart: c, iterationView, transcript, testing, environments, requirementLanguage }: ApiParts,
  lastMessages: () => ShownMessage[],
): SweciApi {
  const { controller, tree, view, info, checkout } = task;
  const { loop, keys, iterations, iterationsView, statusBar } = l;
  const { chart } = c;
  // The results Test Explorer last received, kept from now on (before the task loads).
  let testResults: PublishedResult[] = [];
  testing.onDidPublish((results) => (testResults = results));
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
      return w && { role: w.role, iteration: w.iteration, run: w.run, problems: w.problems };
    },
    iterationRows: async () => {
      const out = [];
      for (const runNode of await iterations.getChildren()) {
        const runItem = iterations.getTreeItem(runNode);
        const its = [];
        for (const it of await iterations.getChildren(runNode)) {
          const item = iterations.getTreeItem(it);
          const children = (await iterations.getChildren(it)).map((ch) => text(iterations.getTreeItem(ch).label));
          its.push({ label: text(item.label), description: text(item.description), children });
        }
        out.push({ run: text(runItem.label), description: text(runItem.description), iterations: its });
      }
      return out;
    },
    taskInfoRows: () => info.getChildren().map((row) => ({ label: row.label, description: row.description ?? '', tooltip: row.tooltip ?? '' })),
    statusBar: () => statusBar.shown,
    releaseEnvironment: () => environments.release(),
    lastMessages,
    showChart: () => chart.show(),
    chartMessages: () => chart.messages(),
    chartHtml: () => chart.currentHtml,
    chartReceive: (message) => chart.receive(message),
    iterationsSelection: () =>
      iterationsView.selection.map((n) => (n.type === 'iteration' ? `${n.run} #${n.record.iteration}` : n.type === 'run' ? n.summary.info.name : n.label)),
    exportReport: (folder) => c.exportReport({ folder }),
    iterationView: () => {
      const shown = iterationView.shown;
      const label =
        shown?.kind === 'iteration'
          ? `${shown.details.run} #${shown.details.iteration}${shown.report ? ' test report' : ''}`
          : shown && `${shown.comparison.left.label} ↔ ${shown.comparison.right.label}`;
      return { shown: label, details: shown, received: [...iterationView.received] };
    },
    iterationViewReceive: (message) => iterationView.receive(message),
    transcriptShown: () => {
      const t = transcript.panel.shown;
      return t && { run: t.run, iteration: t.iteration, role: t.role, attempt: t.attempt, pending: t.pending, live: t.live };
    },
    transcriptMessages: () => transcript.panel.messages(),
    transcriptReceive: (message) => transcript.panel.receive(message),
    testItems: () => testing.rows(),
    lastTestResults: () => [...testResults],
    runTestItems: async (ids) => {
      await testing.runIds(ids);
      return [...testResults];
    },
    requirementServerReady: () => requirementLanguage.ready(),
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
