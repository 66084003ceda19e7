// What the test bundle's activate() returns (test/extension/extension.ts): the surface integration
// tests use to drive and read the extension without scraping the UI. The product's activate()
// returns nothing: this is no API for other extensions.
import type { CheckOutResult } from '../../src/core/checkout/check-out-task';
import type { TaskState } from '../../src/core/checkout/task-state';
import type { NonPassedEntry } from '../../src/core/gap/non-passed';
import type { HostMessage, WebviewMessage } from '../../src/shared/chart-protocol';
import type { LeaderboardRecord } from '../../src/shared/leaderboard-record';
import type { LeaderboardSource } from '../../src/shared/leaderboard-protocol';
import type { LeaderboardHostMessage, LeaderboardViewMessage } from '../../src/shared/leaderboard-protocol';
import type { RenderedMessage, TranscriptRendered } from './webview-log';
import type { CheckoutArgs } from '../../src/extension/commands/check-out-task';
import type { ExportResult } from '../../src/core/report/export-report';
import type { IterationViewMessage } from '../../src/shared/iteration-protocol';
import type { IterationViewHost } from '../../src/extension/inspect/iteration-view';
import type { TranscriptHostMessage, TranscriptWebviewMessage } from '../../src/shared/transcript-protocol';

export type IterationViewShown = NonNullable<IterationViewHost['shown']>;
import type { TestItemRow } from '../../src/extension/testing/test-controller';
import type { PublishedResult } from '../../src/extension/testing/test-results';

export interface NonPassedTreeRow {
  file: string;
  nodeid: string;
  kind: NonPassedEntry['kind'];
  label: string;
  description: string;
  tooltip: string;
  /** Command the row runs when clicked, with its arguments. */
  command?: { command: string; arguments: unknown[] };
}

export interface CandidateRow {
  id: string;
  label: string;
  description: string;
  contextValue: string;
}

export interface SweciApi {
  /** The Candidate Tasks view, read through its TreeDataProvider, and its description. */
  candidateRows(): CandidateRow[];
  /** The view's rows each time it changed (oldest first), recorded since activation. */
  candidateSnapshots(): CandidateRow[][];
  candidatesDescription(): string | undefined;
  checkOutTask(args: CheckoutArgs): Promise<CheckOutResult | undefined>;
  /** Re-runs pytest on the open task (what the view's Refresh does). */
  refresh(): Promise<void>;
  /** The Non-passed tree as the view shows it, read through its TreeDataProvider. */
  nonPassedRows(): NonPassedTreeRow[];
  /** The view's description (passed now / passed by target · gap). */
  nonPassedDescription(): string | undefined;
  /** The iteration the Non-passed view shows instead of the current code (it follows the iteration view), e.g. `agent-1 #3`. */
  nonPassedIteration(): string | undefined;
  /** The message shown above the tree (e.g. when pytest did not run). */
  nonPassedMessage(): string | undefined;
  taskState(): TaskState | undefined;
  /** Stores an API key in secret storage, as SWE-CI: Set API Key… does. */
  setApiKey(name: string, value: string): Promise<void>;
  clearApiKey(name: string): Promise<void>;
  /** Stores the Hugging Face token in secret storage, as SWE-CI: Set Hugging Face Token… does. */
  setHubToken(value: string): Promise<void>;
  clearHubToken(): Promise<void>;
  /** The run the loop commands record into. */
  activeRun(): string | undefined;
  setActiveRun(run: string | undefined): Promise<void>;
  /** What a human step waits for (role, iteration), while the loop waits for Submit Iteration. */
  humanWaiting(): { role: 'architect' | 'programmer'; iteration: number; run: string; problems?: string[] } | undefined;
  /** The Iterations view: runs with their iterations' labels and descriptions, read through its provider. */
  /** Opens (or reveals) the chart webview, as SWE-CI: Show Chart does. */
  showChart(): void;
  /** The last messages posted to the chart webview and received from it (validated ones), oldest first. */
  chartMessages(): { posted: HostMessage[]; received: (WebviewMessage | RenderedMessage)[] };
  /** The chart webview's HTML as set (for its CSP). */
  chartHtml(): string | undefined;
  /** The Iterations view's selected rows as `run #iteration` (the chart reveals a clicked point there). */
  iterationsSelection(): string[];
  /** Handles `message` as if the chart webview had sent it (validated like one). */
  chartReceive(message: unknown): Promise<void>;
  /** Writes the report into `folder` without asking, as SWE-CI: Export Report does. */
  exportReport(folder: string): Promise<ExportResult | undefined>;
  /** The Task view's rows (label, description, tooltip), read through its provider. */
  taskInfoRows(): { label: string; description: string; tooltip: string }[];
  /** The status bar item's text and tooltip. */
  statusBar(): { text: string; tooltip: string };
  /** Disposes the open task's environment (its containers are removed), as closing the window does. */
  releaseEnvironment(): Promise<void>;
  /** What the iteration view shows (`run #k`, or `A ↔ B` when comparing), its data, and the messages it received. */
  iterationView(): { shown: string | undefined; details: IterationViewShown | undefined; received: IterationViewMessage[] };
  /** Handles `message` as if the iteration view's webview had sent it (validated like one). */
  iterationViewReceive(message: unknown): Promise<void>;
  /** The try the Transcript panel shows (undefined when it is closed), and whether it is followed live. */
  transcriptShown(): { run: string; iteration: number; role: 'architect' | 'programmer'; try: number; pending: boolean; live: boolean } | undefined;
  /** The last messages posted to the Transcript panel and received from it (validated ones). */
  transcriptMessages(): { posted: TranscriptHostMessage[]; received: (TranscriptWebviewMessage | TranscriptRendered)[] };
  /** Handles `message` as if the Transcript panel's webview had sent it (validated like one). */
  transcriptReceive(message: unknown): Promise<void>;
  /** What passed between the Transcript panel's host and its page, oldest first, by type (`received ready`, `posted transcript`). */
  transcriptOrder(): string[];
  /** Opens the Leaderboard panel on `record` (checked as the command's would be). */
  openLeaderboard(record: LeaderboardRecord): Promise<void>;
  /** Ranks `source` and opens the Leaderboard panel on it, following its runs, as SWE-CI: Open Leaderboard does once the source is picked. */
  rankLeaderboard(source: LeaderboardSource): Promise<LeaderboardRecord>;
  /** The messages posted to the Leaderboard panel and received from it (validated ones). */
  leaderboardMessages(): { posted: LeaderboardHostMessage[]; received: LeaderboardViewMessage[] };
  /** Handles `message` as if the Leaderboard panel's webview had sent it (validated like one). */
  leaderboardReceive(message: unknown): Promise<void>;
  /** What a panel's host keeps for a window reload (by view type: sweci.leaderboard, sweci.iteration, sweci.transcript). */
  keptForReload(viewType: string): unknown;
  /** The information, warning and error messages the extension showed, oldest first (the last 50). */
  lastMessages(): { level: 'info' | 'warning' | 'error'; text: string }[];
  /** Test Explorer's items (file → class → test → parametrized case), lines 1-based. */
  testItems(): TestItemRow[];
  /** The results Test Explorer last received: of the last current-code run, or of a Run on some items. */
  lastTestResults(): PublishedResult[];
  /**
   * Runs these items through the SWE-CI Run profile's handler, as Run Test does (without ids, as
   * Run All does: the task's full, recorded run); resolves with their results.
   */
  runTestItems(ids?: string[]): Promise<PublishedResult[]>;
  iterationRows(): Promise<{ run: string; description: string; iterations: { label: string; description: string; children: string[] }[] }[]>;
  /** Starts the requirement.xml language server if it is not running, and resolves when it answers. */
  requirementServerReady(): Promise<void>;
}
