// The API the test bundle's activate() returns (test-api.ts): read through the same providers
// and hosts the views use, and the webviews' traffic recorded by webview-log.ts.
import * as vscode from 'vscode';
import type { Features } from '../../src/extension/activate/features';
import { CHART_VIEW_TYPE } from '../../src/extension/chart/chart-panel';
import { ITERATION_VIEW_TYPE } from '../../src/extension/inspect/iteration-view';
import type { ShownMessage } from '../../src/extension/messages';
import type { PublishedResult } from '../../src/extension/testing/test-results';
import { TRANSCRIPT_VIEW_TYPE } from '../../src/extension/transcript/transcript-panel';
import type { HostMessage, WebviewMessage } from '../../src/shared/chart-protocol';
import type { IterationViewMessage } from '../../src/shared/iteration-protocol';
import type { LeaderboardHostMessage, LeaderboardViewMessage } from '../../src/shared/leaderboard-protocol';
import type { TranscriptHostMessage, TranscriptWebviewMessage } from '../../src/shared/transcript-protocol';
import type { CandidateRow, NonPassedTreeRow, SweciApi } from './test-api';
import type { RenderedMessage, TranscriptRendered, WebviewLog } from './webview-log';

/** The Leaderboard's view type (its module keeps it to itself). */
const LEADERBOARD_VIEW_TYPE = 'sweci.leaderboard';

const text = (v: string | vscode.TreeItemLabel | boolean | undefined): string => (typeof v === 'string' ? v : v && typeof v === 'object' ? v.label : '');

export function sweciApi(
  { task, loop: l, chart: c, iterationView, transcript, leaderboard, testing, environments, requirementLanguage, curate }: Features,
  webviews: WebviewLog,
  lastMessages: () => ShownMessage[],
): SweciApi {
  const { controller, tree, view, info, checkout, hubToken } = task;
  const { loop, keys, iterations, iterationsView, statusBar } = l;
  const { chart } = c;
  // The results Test Explorer last received, kept from now on (before the task loads).
  let testResults: PublishedResult[] = [];
  testing.onDidPublish((results) => (testResults = results));
  const candidateRows = (): CandidateRow[] =>
    curate.candidates.getChildren().map((node) => {
      const item = curate.candidates.getTreeItem(node);
      const id = node.type === 'found' ? node.span.id : node.candidate.id;
      return { id, label: text(item.label), description: text(item.description), contextValue: item.contextValue ?? '' };
    });
  // The Candidate Tasks view's rows at each change, from now on (a search shows spans as it finds them).
  const candidateSnapshots: CandidateRow[][] = [];
  curate.candidates.onDidChangeTreeData(() => candidateSnapshots.push(candidateRows()));
  return {
    candidateRows,
    candidateSnapshots: () => candidateSnapshots,
    candidatesDescription: () => curate.candidates.describe(),
    checkOutTask: (args) => checkout.run(args),
    refresh: () => controller.runTests(),
    nonPassedDescription: () => view.description,
    nonPassedIteration: () => tree.iterationShown,
    nonPassedMessage: () => view.message,
    taskState: () => controller.current,
    setApiKey: (name, value) => keys.set(name, value),
    clearApiKey: (name) => keys.clear(name),
    setHubToken: (value) => hubToken.set(value),
    clearHubToken: () => hubToken.clear(),
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
    taskInfoRows: () => info.shownRows.map((row) => ({ label: row.label, description: row.description ?? '', tooltip: row.tooltip ?? '' })),
    statusBar: () => statusBar.shown,
    releaseEnvironment: () => environments.release(),
    lastMessages,
    showChart: () => chart.show(),
    chartMessages: () => webviews.messages(CHART_VIEW_TYPE) as { posted: HostMessage[]; received: (WebviewMessage | RenderedMessage)[] },
    chartHtml: () => webviews.html(CHART_VIEW_TYPE),
    chartReceive: (message) => webviews.receive(CHART_VIEW_TYPE, message),
    iterationsSelection: () =>
      iterationsView.selection.map((n) => (n.type === 'iteration' ? `${n.run} #${n.record.iteration}` : n.type === 'run' ? n.summary.info.name : n.label)),
    exportReport: (folder) => c.exportReport({ folder }),
    iterationView: () => {
      const shown = iterationView.shown;
      const label =
        shown?.kind === 'iteration'
          ? `${shown.details.run} #${shown.details.iteration}${shown.report ? ' test report' : ''}`
          : shown && `${shown.comparison.left.label} ↔ ${shown.comparison.right.label}`;
      return { shown: label, details: shown, received: webviews.messages(ITERATION_VIEW_TYPE).received as IterationViewMessage[] };
    },
    iterationViewReceive: (message) => webviews.receive(ITERATION_VIEW_TYPE, message),
    transcriptShown: () => {
      const t = transcript.panel.shown;
      return t && { run: t.run, iteration: t.iteration, role: t.role, try: t.try, pending: t.pending, live: t.live };
    },
    transcriptMessages: () =>
      webviews.messages(TRANSCRIPT_VIEW_TYPE) as { posted: TranscriptHostMessage[]; received: (TranscriptWebviewMessage | TranscriptRendered)[] },
    transcriptReceive: (message) => webviews.receive(TRANSCRIPT_VIEW_TYPE, message),
    transcriptOrder: () => webviews.order(TRANSCRIPT_VIEW_TYPE),
    openLeaderboard: async (record) => {
      await leaderboard.panel.show(() => Promise.resolve(record));
    },
    rankLeaderboard: (source) => leaderboard.open(source),
    leaderboardMessages: () => webviews.messages(LEADERBOARD_VIEW_TYPE) as { posted: LeaderboardHostMessage[]; received: LeaderboardViewMessage[] },
    leaderboardReceive: (message) => webviews.receive(LEADERBOARD_VIEW_TYPE, message),
    keptForReload: (viewType) => webviews.kept(viewType),
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
