// The test bundle's record of every webview host's traffic (src/extension/webview/webview-host.ts
// observeWebviews): the pages set, the messages posted and received (the ones the protocol took,
// and the test webview bundles' 'rendered' reports, which the product refuses), by view type.
import * as z from 'zod/mini';
import { observeWebviews } from '../../src/extension/webview/webview-host';

/** What the chart webview drew (test/webview/chart.ts reads it off the page). */
export const renderedMessageSchema = z.strictObject({
  type: z.literal('rendered'),
  runs: z.array(z.string()),
  points: z.number(),
  gamma: z.number(),
  foreground: z.string(),
});
export type RenderedMessage = z.infer<typeof renderedMessageSchema>;

/** What the Transcript panel drew (test/webview/transcript.ts reads it off the page). */
export const transcriptRenderedSchema = z.strictObject({
  type: z.literal('rendered'),
  calls: z.number(),
  /** Call sections whose bodies were built (the rest are built as they scroll into view). */
  built: z.number(),
  live: z.boolean(),
});
export type TranscriptRendered = z.infer<typeof transcriptRenderedSchema>;

/** How many messages each log keeps, each way. */
const KEEP = 50;

interface ViewLog {
  host?: { receive(raw: unknown): Promise<void> };
  html?: string;
  posted: unknown[];
  received: unknown[];
  /** Both ways, in order, by type: `received ready`, `posted init`. */
  order: string[];
  /** What the host last kept for a window reload. */
  kept?: unknown;
}

export interface WebviewLog {
  /** The last messages posted to the view and received from it, oldest first. */
  messages(viewType: string): { posted: unknown[]; received: unknown[] };
  /** What passed both ways, oldest first, by type (`received ready`, `posted init`). */
  order(viewType: string): string[];
  /** The view's page as last set. */
  html(viewType: string): string | undefined;
  /** Hands `message` to the view's host as if its webview had sent it. */
  receive(viewType: string, message: unknown): Promise<void>;
  /** What the view's host last kept for a window reload (undefined: nothing yet). */
  kept(viewType: string): unknown;
}

const keep = (list: unknown[], m: unknown) => {
  list.push(m);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
};

/** Starts recording every webview host made from now on. */
export function recordWebviews(): WebviewLog {
  const views = new Map<string, ViewLog>();
  const view = (viewType: string): ViewLog => {
    let v = views.get(viewType);
    if (!v) views.set(viewType, (v = { posted: [], received: [], order: [] }));
    return v;
  };
  const reports = [renderedMessageSchema, transcriptRenderedSchema];
  observeWebviews({
    created: (viewType, host) => void (view(viewType).host = host),
    page: (viewType, html) => void (view(viewType).html = html),
    kept: (viewType, kept) => void (view(viewType).kept = kept),
    posted: (viewType, message) => {
      keep(view(viewType).posted, message);
      keep(view(viewType).order, `posted ${typeOf(message)}`);
    },
    received: (viewType, message, accepted) => {
      const report = accepted ? undefined : reports.find((s) => s.safeParse(message).success);
      if (accepted || report) {
        keep(view(viewType).received, message);
        keep(view(viewType).order, `received ${typeOf(message)}`);
      }
      return report !== undefined;
    },
  });
  return {
    messages: (viewType) => ({ posted: [...view(viewType).posted], received: [...view(viewType).received] }),
    order: (viewType) => [...view(viewType).order],
    html: (viewType) => view(viewType).html,
    kept: (viewType) => view(viewType).kept,
    receive: async (viewType, message) => {
      const host = view(viewType).host;
      if (!host) throw new Error(`no webview host for ${viewType}`);
      await host.receive(message);
    },
  };
}

function typeOf(message: unknown): string {
  return typeof message === 'object' && message !== null && 'type' in message ? String(message.type) : '?';
}
