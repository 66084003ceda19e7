// The one message protocol between the chart webview and the extension host, both ways, as
// schemas. Both sides parse every message on receipt and drop anything else: a webview is
// untrusted content as far as the host is concerned, and the webview must not act on a
// half-formed message. A request the webview sends carries a requestId that the host's reply
// returns (CHART_REPLIES). Browser-safe: no node or vscode imports.
import * as z from 'zod/mini';
import { chartDataSchema, heatmapDataSchema } from './chart-types';
import { sequenceDataSchema } from './sequence-data-schema';
import { count, guardFor, requestId } from './message-schema';

export const GAMMA_MIN = 0.5;
export const GAMMA_MAX = 2;
export const DEFAULT_GAMMA = 1;

const gamma = () => z.number().check(z.minimum(GAMMA_MIN), z.maximum(GAMMA_MAX));

/** Host → webview. */
const hostMessageSchema = z.discriminatedUnion('type', [
  /** The full picture, sent when the webview says it is ready. */
  z.strictObject({ type: z.literal('init'), data: chartDataSchema, gamma: gamma() }),
  /** New data after a pytest run (loop event or iteration.jsonl changed on disk). */
  z.strictObject({ type: z.literal('update'), data: chartDataSchema }),
  /** The per-test heatmap of one run, answering heatmap-requested. */
  z.strictObject({ type: z.literal('heatmap'), requestId: requestId(), heatmap: heatmapDataSchema }),
  /** The sequence the open task belongs to (results matrix, curves, CL metrics), or null: none. */
  z.strictObject({ type: z.literal('sequence'), sequence: z.nullable(sequenceDataSchema) }),
  /** The colour theme changed (the webview also watches its body class; this is a nudge). */
  z.strictObject({ type: z.literal('theme-changed') }),
  /** Answer to point-clicked: whether the iteration could be revealed. */
  z.strictObject({
    type: z.literal('reveal-ack'),
    requestId: requestId(),
    run: z.string(),
    iteration: count(),
    ok: z.boolean(),
    message: z.optional(z.string()),
  }),
  /** Answer to export-requested. */
  z.strictObject({ type: z.literal('export-done'), requestId: requestId(), ok: z.boolean(), folder: z.optional(z.string()), message: z.optional(z.string()) }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

/** Webview → host. */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('point-clicked'), requestId: requestId(), run: z.string(), iteration: count() }),
  z.strictObject({ type: z.literal('gamma-changed'), gamma: gamma() }),
  z.strictObject({ type: z.literal('heatmap-requested'), requestId: requestId(), run: z.string() }),
  z.strictObject({ type: z.literal('export-requested'), requestId: requestId() }),
  // A heatmap cell clicked: open that test at that iteration.
  z.strictObject({ type: z.literal('test-clicked'), run: z.string(), iteration: count(), nodeid: z.string().check(z.maxLength(2000)) }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** Which host message answers which webview request. */
export const CHART_REPLIES = {
  'point-clicked': 'reveal-ack',
  'heatmap-requested': 'heatmap',
  'export-requested': 'export-done',
} as const satisfies Partial<Record<WebviewMessage['type'], HostMessage['type']>>;

export const isHostMessage = guardFor(hostMessageSchema);
