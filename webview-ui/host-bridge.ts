// How the webview talks to its host. Inside VS Code: acquireVsCodeApi (messages + persisted
// state). In an exported report there is no host: the data comes from a JSON script tag and
// nothing is posted or persisted.
import type { HostMessage, RenderedMessage, WebviewMessage } from '../src/shared/chart-protocol';
import { isHostMessage } from '../src/shared/chart-protocol';
import type { ChartData, HeatmapData } from '../src/core/scoring/chart-types';

export interface ViewState {
  gamma: number;
  hidden: string[];
  heatmapRun?: string;
  /** A second run: the heatmap then shows where the two differ test by test. */
  heatmapCompare?: string;
}

export interface Bridge {
  readonly standalone: boolean;
  post(msg: WebviewMessage): void;
  /** Tells the test harness what was drawn; nothing outside it (the page says which, SWECI_TEST_HOOKS). */
  reportRendered(msg: RenderedMessage): void;
  getState(): Partial<ViewState> | undefined;
  setState(s: ViewState): void;
  onMessage(fn: (msg: HostMessage) => void): void;
}

/** What an exported report embeds in <script type="application/json" id="sweci-report-data">. */
export interface ReportPayload {
  data: ChartData;
  gamma: number;
  heatmaps: HeatmapData[];
  title: string;
}

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

export function createBridge(): Bridge {
  if (typeof acquireVsCodeApi === 'function') {
    const api = acquireVsCodeApi();
    const testHooks = document.body.dataset.sweciTestHooks === '1';
    return {
      standalone: false,
      post: (msg) => api.postMessage(msg),
      reportRendered: (msg) => {
        if (testHooks) api.postMessage(msg);
      },
      getState: () => (api.getState() as Partial<ViewState> | undefined) ?? undefined,
      setState: (s) => api.setState(s),
      onMessage: (fn) =>
        window.addEventListener('message', (e: MessageEvent) => {
          if (isHostMessage(e.data)) fn(e.data);
          else console.warn('SWE-CI chart: ignored a malformed message', e.data);
        }),
    };
  }
  return {
    standalone: true,
    post: () => undefined,
    reportRendered: () => undefined,
    getState: () => undefined,
    setState: () => undefined,
    onMessage: () => undefined,
  };
}

export function readReportPayload(): ReportPayload | undefined {
  const el = document.getElementById('sweci-report-data');
  if (!el?.textContent) return undefined;
  try {
    return JSON.parse(el.textContent) as ReportPayload;
  } catch {
    return undefined;
  }
}
