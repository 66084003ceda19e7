// The chart webview's host: one panel (opened or revealed by SWE-CI: Show Chart, restored after
// a window reload by the webview host), fed with the runs' data and kept live by the change feed
// (loop events, the runs' records, the sequence's results matrix). The panel, its page and the parsing of every
// message from the webview are the webview host's (webview/webview-host.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import { CHART_REPLIES, DEFAULT_GAMMA, webviewMessageSchema, type HostMessage, type WebviewMessage } from '../../shared/chart-protocol';
import { log } from '../log';
import type { ChangeFeed } from '../change-feed';
import type { TaskController } from '../task-controller';
import { loadChartData, type ChartData } from '../../core/scoring/load-chart-data';
import { loadHeatmap } from '../../core/scoring/load-heatmap';
import { listRuns } from '../../core/loop/run-store';
import { sequenceData, type SequenceData } from '../../core/sequence/sequence-data';
import { summarizeSequence } from '../../core/sequence/sequence-summary';
import { DEFAULT_CL_WEIGHTS, type ClWeights } from '../../core/sequence/cl-metrics';
import { showError } from '../errors';
import { integritySettings, sequenceSettings } from '../config';
import { errorMessage } from '../../core/util/errors';
import { WebviewHost } from '../webview/webview-host';

export const CHART_VIEW_TYPE = 'sweci.chart';
const GAMMA_KEY = 'sweci.chart.gamma';

export interface ChartPanelDeps {
  context: vscode.ExtensionContext;
  tasks: TaskController;
  /** Says when the runs' records or the sequence's results changed (this window's loop, another window, the CLI). */
  feed: ChangeFeed;
  /** Reveals an iteration in the Iterations view and opens its code diff; returns why not, if it could not. */
  openIteration(run: string, iteration: number): Promise<string | undefined>;
  /** Opens a test at its definition, beside the iteration (a heatmap cell); a reason when it cannot. */
  openTest(run: string, iteration: number, nodeid: string): Promise<string | undefined>;
}

export class ChartPanelHost implements vscode.Disposable {
  private readonly host: WebviewHost<WebviewMessage, HostMessage, typeof CHART_REPLIES>;
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  /**
   * Counts the reads of the runs sent to the webview: a read overtaken by a newer one is dropped,
   * so a slow read begun before the last record was written never lands after the read that saw it.
   */
  private reads = 0;
  private hasRuns: boolean | undefined;
  private weightsError: string | undefined;

  constructor(private readonly deps: ChartPanelDeps) {
    this.host = new WebviewHost({
      extensionUri: deps.context.extensionUri,
      viewType: CHART_VIEW_TYPE,
      title: vscode.l10n.t('SWE-CI Chart'),
      script: 'webview.js',
      style: 'chart.css',
      incoming: webviewMessageSchema,
      replies: CHART_REPLIES,
      onReady: () => this.first(),
      // init carries the runs in full, read after any update made while the page loaded.
      replacedOnReady: ['update'],
      onMessage: (m) => this.handle(m),
      // After a window reload: the page restores its own state (γ, hidden series, heatmap run)
      // through setState; the data is sent afresh (onReady). Nothing more to keep.
      restore: { restore: () => undefined },
    });
    this.subs.push(
      this.host,
      deps.feed.onDidChangeRuns(() => this.scheduleUpdate()),
      deps.feed.onDidChangeSequence(() => this.scheduleUpdate()),
      vscode.window.onDidChangeActiveColorTheme(() => this.host.post({ type: 'theme-changed' })),
    );
    this.scheduleUpdate();
  }

  get gamma(): number {
    return this.deps.context.workspaceState.get<number>(GAMMA_KEY) ?? DEFAULT_GAMMA;
  }

  show(): void {
    this.host.show();
  }

  /** What a new page needs first: the runs and the sequence. */
  private async first(): Promise<HostMessage[]> {
    const read = ++this.reads;
    const [data, sequence] = await Promise.all([this.load(), this.loadSequence()]);
    // A newer read may have posted before this init overwrites it: read once more.
    if (read !== this.reads) this.scheduleUpdate();
    return [
      { type: 'init', data, gamma: this.gamma },
      { type: 'sequence', sequence },
    ];
  }

  private async handle(m: Exclude<WebviewMessage, { type: 'ready' }>): Promise<void> {
    switch (m.type) {
      case 'gamma-changed':
        await this.deps.context.workspaceState.update(GAMMA_KEY, m.gamma);
        break;
      case 'heatmap-requested': {
        const dir = this.deps.tasks.task();
        if (dir) this.host.reply(m, { type: 'heatmap', heatmap: await loadHeatmap(dir, m.run) });
        break;
      }
      case 'point-clicked': {
        const problem = await this.deps.openIteration(m.run, m.iteration);
        this.host.reply(m, { type: 'reveal-ack', run: m.run, iteration: m.iteration, ok: !problem, ...(problem ? { message: problem } : {}) });
        break;
      }
      case 'test-clicked': {
        const problem = await this.deps.openTest(m.run, m.iteration, m.nodeid);
        if (problem) void messages.showInformationMessage(problem);
        break;
      }
      case 'export-requested': {
        const result = await vscode.commands.executeCommand<{ folder: string } | undefined>('sweci.exportReport');
        this.host.reply(m, result ? { type: 'export-done', ok: true, folder: result.folder } : { type: 'export-done', ok: false });
        break;
      }
    }
  }

  /** Sends the chart data again (after a pytest run). */
  scheduleUpdate(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.updateContext();
      if (!this.host.isOpen) return;
      const read = ++this.reads;
      Promise.all([this.load(), this.loadSequence()])
        .then(([data, sequence]) => {
          if (read !== this.reads) return;
          this.host.post({ type: 'update', data });
          this.host.post({ type: 'sequence', sequence });
        })
        .catch((err: unknown) => log().error(`Chart: could not read the runs: ${errorMessage(err)}`));
    }, 200);
  }

  /**
   * sweci.hasRuns: the Iterations view shows the Show Chart button only when there is
   * something to chart (its title bar stays as it was on a task without runs).
   */
  private async updateContext(): Promise<void> {
    const dir = this.deps.tasks.task();
    const has = dir ? (await listRuns(dir).catch(() => [])).length > 0 : false;
    if (has !== this.hasRuns) {
      this.hasRuns = has;
      await vscode.commands.executeCommand('setContext', 'sweci.hasRuns', has);
    }
  }

  private async load(): Promise<ChartData> {
    const dir = this.deps.tasks.task();
    return dir
      ? loadChartData(dir, { gamma: this.gamma, scoring: integritySettings(vscode.Uri.file(dir.root)) })
      : { maxIterations: 0, maxX: 0, gamma: this.gamma, runs: [], average: { count: 0, evoScore: 0, solved: 0, zeroRegression: 0 }, skipped: [] };
  }

  /**
   * The sequence the open task is part of: a task of `sweci run --sequence` sits in the
   * experiment folder, next to its cl-results.json. null when the task is in no sequence.
   */
  private async loadSequence(): Promise<SequenceData | null> {
    const dir = this.deps.tasks.task();
    if (!dir) return null;
    try {
      const summary = await summarizeSequence(path.dirname(dir.root), { weights: this.clWeights(vscode.Uri.file(dir.root)) });
      return summary ? sequenceData(summary, path.basename(dir.root)) : null;
    } catch (err) {
      log().warn(`Chart: the sequence's results could not be read: ${errorMessage(err)}`);
      return null;
    }
  }

  /** sweci.sequence.clWeights; a bad value is said once (with Open Settings) and the defaults are used. */
  private clWeights(scope: vscode.Uri): ClWeights {
    try {
      const { weights } = sequenceSettings(scope);
      this.weightsError = undefined;
      return weights;
    } catch (err) {
      const message = errorMessage(err);
      if (this.weightsError !== message) showError(vscode.l10n.t('The chart scores the sequence with the default weights'), err);
      this.weightsError = message;
      return { ...DEFAULT_CL_WEIGHTS };
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
  }
}
