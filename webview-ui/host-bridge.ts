// How the webview talks to its host. Inside VS Code: acquireVsCodeApi (messages + persisted
// state). In an exported report there is no host: the data comes from a JSON script tag and
// nothing is posted or persisted. A request gets the next requestId; a reply reaches the view
// only if it is the one the protocol pairs with a request still open (CHART_REPLIES). The saved
// state and the report's data are read through their schemas, as a host message is.
import * as z from 'zod/mini';
import type { HostMessage, WebviewMessage } from '../src/shared/chart-protocol';
import { CHART_REPLIES, isHostMessage } from '../src/shared/chart-protocol';
import { chartDataSchema, heatmapDataSchema } from '../src/shared/chart-types';
import { savedState, vsCodeApi } from './vscode-api';

const viewStateSchema = z.object({
  gamma: z.number(),
  hidden: z.array(z.string()),
  heatmapRun: z.optional(z.string()),
  /** A second run: the heatmap then shows where the two differ test by test. */
  heatmapCompare: z.optional(z.string()),
});
export type ViewState = z.infer<typeof viewStateSchema>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = Extract<WebviewMessage, { requestId: number }>;
type Notification = Exclude<WebviewMessage, { requestId: number }>;

export interface Bridge {
  readonly standalone: boolean;
  post(msg: Notification): void;
  /** Sends a request with a new requestId; its reply is handed to onMessage once, while the request is open. */
  request(msg: DistributiveOmit<Request, 'requestId'>): void;
  /** Closes the open requests of a type: their replies (about data since replaced) are dropped. */
  forget(type: Request['type']): void;
  getState(): Partial<ViewState> | undefined;
  setState(s: ViewState): void;
  onMessage(fn: (msg: HostMessage) => void): void;
}

/** What an exported report embeds in <script type="application/json" id="sweci-report-data">. */
const reportPayloadSchema = z.object({
  data: chartDataSchema,
  gamma: z.number(),
  heatmaps: z.array(heatmapDataSchema),
  title: z.string(),
});
export type ReportPayload = z.infer<typeof reportPayloadSchema>;

export function createBridge(): Bridge {
  const api = vsCodeApi();
  if (api) {
    let nextId = 1;
    /** Open requests: requestId → the request's type. */
    const open = new Map<number, Request['type']>();
    /** Whether a host message may be handed on: not a reply, or the reply to an open request (which it closes). */
    const expected = (msg: HostMessage): boolean => {
      if (!('requestId' in msg)) return true;
      const asked = open.get(msg.requestId);
      if (asked === undefined || CHART_REPLIES[asked] !== msg.type) return false;
      open.delete(msg.requestId);
      return true;
    };
    return {
      standalone: false,
      post: (msg) => api.postMessage(msg),
      request: (msg) => {
        const requestId = nextId++;
        open.set(requestId, msg.type);
        api.postMessage({ ...msg, requestId });
      },
      forget: (type) => {
        for (const [id, t] of open) if (t === type) open.delete(id);
      },
      // A state that is not one (an older view's, say) is dropped whole, not half used.
      getState: () => savedState(api, z.partial(viewStateSchema)),
      setState: (s) => api.setState(s),
      onMessage: (fn) =>
        window.addEventListener('message', (e: MessageEvent) => {
          if (!isHostMessage(e.data)) console.warn('SWE-CI chart: ignored a malformed message', e.data);
          else if (expected(e.data)) fn(e.data);
        }),
    };
  }
  return {
    standalone: true,
    post: () => undefined,
    request: () => undefined,
    forget: () => undefined,
    getState: () => undefined,
    setState: () => undefined,
    onMessage: () => undefined,
  };
}

/** The embedded data, if the page carries a report's; undefined when it is missing or damaged. */
export function readReportPayload(): ReportPayload | undefined {
  const el = document.getElementById('sweci-report-data');
  if (!el?.textContent) return undefined;
  try {
    const parsed = reportPayloadSchema.safeParse(JSON.parse(el.textContent));
    if (!parsed.success) console.warn('SWE-CI report: the data in this page is damaged', parsed.error);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
