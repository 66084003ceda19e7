// The chart webview's host: one panel (opened or revealed by SWE-CI: Show Chart, restored after
// a window reload by the serializer), fed with the runs' data and kept live by loop events and
// a watcher on the runs' iteration.jsonl files. Every message from the webview is validated.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_GAMMA, isWebviewMessage, type HostMessage, type WebviewMessage } from '../../shared/chart-protocol';
import { log } from '../log';
import type { ChangeFeed } from '../change-feed';
import type { TaskController } from '../task-controller';
import { loadChartData, loadHeatmap, type ChartData } from '../../core/scoring/load-chart-data';
import { listRuns } from '../../core/loop/run-store';
import { CL_RESULTS_FILE } from '../../core/continual/cl-results';
import { sequenceData, type SequenceData } from '../../core/continual/sequence-data';
import { summarizeSequence } from '../../core/continual/sequence-summary';
import { DEFAULT_CL_WEIGHTS, type ClWeights } from '../../core/continual/cl-metrics';
import { showError } from '../errors';
import { integritySettings, sequenceSettings } from '../config';
import { makeNonce, webviewHtml } from './chart-html';
import { errorMessage } from '../../core/util/errors';

export const CHART_VIEW_TYPE = 'sweci.chart';
const GAMMA_KEY = 'sweci.chart.gamma';
/** Messages kept for the test API (and for a look in a debugger). */
const KEEP = 50;

export interface ChartPanelDeps {
  context: vscode.ExtensionContext;
  tasks: TaskController;
  /** Says when the runs' records changed (this window's loop, another window, the CLI). */
  feed: ChangeFeed;
  /** Reveals an iteration in the Iterations view and opens its code diff; returns why not, if it could not. */
  openIteration(run: string, iteration: number): Promise<string | undefined>;
}

export class ChartPanelHost implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private panelSubs: vscode.Disposable[] = [];
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private html: string | undefined;
  private hasRuns: boolean | undefined;
  /** Watches the results matrix of the sequence the task may belong to (its parent folder). */
  private sequenceWatch: { dir: string; watcher: vscode.FileSystemWatcher } | undefined;
  private weightsError: string | undefined;
  readonly posted: HostMessage[] = [];
  readonly received: WebviewMessage[] = [];

  constructor(private readonly deps: ChartPanelDeps) {
    this.subs.push(
      deps.feed.onDidChangeRuns(() => this.scheduleUpdate()),
      vscode.window.onDidChangeActiveColorTheme(() => this.post({ type: 'theme-changed' })),
      vscode.window.registerWebviewPanelSerializer(CHART_VIEW_TYPE, {
        // After a window reload VS Code recreates the panel; the webview restores its own state
        // (γ, hidden series, heatmap run) through setState, the data is sent afresh.
        deserializeWebviewPanel: (panel) => Promise.resolve(this.adopt(panel)),
      }),
    );
    this.scheduleUpdate();
  }

  get gamma(): number {
    return this.deps.context.workspaceState.get<number>(GAMMA_KEY) ?? DEFAULT_GAMMA;
  }

  /** The webview's HTML as last set (tests check its CSP). */
  get currentHtml(): string | undefined {
    return this.html;
  }

  show(): void {
    if (this.panel) return this.panel.reveal(undefined, false);
    const panel = vscode.window.createWebviewPanel(CHART_VIEW_TYPE, 'SWE-CI Chart', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: false,
    });
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    const root = this.deps.context.extensionUri;
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(root, 'dist'), vscode.Uri.joinPath(root, 'media')],
    };
    panel.iconPath = vscode.Uri.joinPath(root, 'media', 'sweci.svg');
    this.html = webviewHtml({
      cspSource: panel.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'chart.css')).toString(),
    });
    panel.webview.html = this.html;
    this.panelSubs.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      panel.onDidDispose(() => {
        if (this.panel === panel) this.panel = undefined;
        for (const s of this.panelSubs.splice(0)) s.dispose();
      }),
    );
  }

  /** Handles one message from the webview (also how tests act as the webview). */
  async receive(raw: unknown): Promise<void> {
    if (!isWebviewMessage(raw)) {
      log().warn(`Chart: ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    this.keep(this.received, raw);
    try {
      switch (raw.type) {
        case 'ready':
          this.post({ type: 'init', data: await this.load(), gamma: this.gamma });
          this.post({ type: 'sequence', sequence: await this.loadSequence() });
          break;
        case 'gamma-changed':
          await this.deps.context.workspaceState.update(GAMMA_KEY, raw.gamma);
          break;
        case 'heatmap-requested': {
          const dir = this.deps.tasks.taskDir();
          if (dir) this.post({ type: 'heatmap', requestId: raw.requestId, heatmap: await loadHeatmap(dir, raw.run) });
          break;
        }
        case 'point-clicked': {
          const problem = await this.deps.openIteration(raw.run, raw.iteration);
          this.post({
            type: 'reveal-ack',
            requestId: raw.requestId,
            run: raw.run,
            iteration: raw.iteration,
            ok: !problem,
            ...(problem ? { message: problem } : {}),
          });
          break;
        }
        case 'export-requested': {
          const result = await vscode.commands.executeCommand<{ folder: string } | undefined>('sweci.exportReport');
          this.post(
            result
              ? { type: 'export-done', requestId: raw.requestId, ok: true, folder: result.folder }
              : { type: 'export-done', requestId: raw.requestId, ok: false },
          );
          break;
        }
        case 'rendered':
          break;
      }
    } catch (err) {
      log().error(`Chart: ${raw.type} failed: ${errorMessage(err)}`);
    }
  }

  /** Sends the chart data again (after a pytest run). */
  scheduleUpdate(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.updateContext();
      if (!this.panel) return;
      this.load()
        .then((data) => this.post({ type: 'update', data }))
        .catch((err: unknown) => log().error(`Chart: could not read the runs: ${errorMessage(err)}`));
      void this.loadSequence().then((sequence) => this.post({ type: 'sequence', sequence }));
    }, 200);
  }

  /**
   * sweci.hasRuns: the Iterations view shows the Show Chart button only when there is
   * something to chart (its title bar stays as it was on a task without runs).
   */
  private async updateContext(): Promise<void> {
    const dir = this.deps.tasks.taskDir();
    const has = dir ? (await listRuns(dir).catch(() => [])).length > 0 : false;
    if (has !== this.hasRuns) {
      this.hasRuns = has;
      await vscode.commands.executeCommand('setContext', 'sweci.hasRuns', has);
    }
  }

  private async load(): Promise<ChartData> {
    const dir = this.deps.tasks.taskDir();
    return dir
      ? loadChartData(dir, { gamma: this.gamma, scoring: integritySettings(vscode.Uri.file(dir)) })
      : { maxIterations: 0, maxX: 0, gamma: this.gamma, runs: [], average: { count: 0, evoScore: 0, solved: 0, zeroRegression: 0 }, skipped: [] };
  }

  /**
   * The sequence the open task is part of: a task of `sweci run --sequence` sits in the
   * experiment folder, next to its cl-results.json. null when the task is in no sequence.
   */
  private async loadSequence(): Promise<SequenceData | null> {
    const dir = this.deps.tasks.taskDir();
    this.watchSequence(dir && path.dirname(dir));
    if (!dir) return null;
    try {
      const summary = await summarizeSequence(path.dirname(dir), { weights: this.clWeights(vscode.Uri.file(dir)) });
      return summary ? sequenceData(summary, path.basename(dir)) : null;
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
      if (this.weightsError !== message) showError('The chart scores the sequence with the default weights', err);
      this.weightsError = message;
      return { ...DEFAULT_CL_WEIGHTS };
    }
  }

  private watchSequence(experimentDir: string | undefined): void {
    if (this.sequenceWatch?.dir === experimentDir) return;
    this.sequenceWatch?.watcher.dispose();
    this.sequenceWatch = undefined;
    if (!experimentDir) return;
    // Outside the workspace folder, so not in the change feed: its own watcher.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(experimentDir), CL_RESULTS_FILE));
    const changed = () => this.scheduleUpdate();
    watcher.onDidCreate(changed);
    watcher.onDidChange(changed);
    watcher.onDidDelete(changed);
    this.sequenceWatch = { dir: experimentDir, watcher };
  }

  private post(msg: HostMessage): void {
    if (!this.panel) return;
    this.keep(this.posted, msg);
    void this.panel.webview.postMessage(msg);
  }

  private keep<T>(list: T[], m: T): void {
    list.push(m);
    if (list.length > KEEP) list.splice(0, list.length - KEEP);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.sequenceWatch?.watcher.dispose();
    this.panel?.dispose();
    for (const s of [...this.subs, ...this.panelSubs]) s.dispose();
  }
}
