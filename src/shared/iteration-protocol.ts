// The iteration view's messages, webview → host. The host renders the view's HTML itself (it
// changes only when the user steps), so messages flow one way: the webview reports clicks. Each
// names what to open by index or id into the data the host rendered, never by a path, so a
// message cannot make the host open a file the view did not show. Browser-safe.
import * as z from 'zod/mini';
import { count, guardFor } from './message-schema';

const nodeId = () => z.string().check(z.minLength(1), z.maxLength(4095));

/** Webview → host: what a click asks for. */
export const iterationViewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('step'), direction: z.union([z.literal(1), z.literal(-1)]) }),
  z.strictObject({ type: z.literal('open-test'), nodeid: nodeId() }),
  /** Index into the rendered iteration's archived files. */
  z.strictObject({ type: z.literal('open-file'), index: count() }),
  z.strictObject({ type: z.literal('open-code-changes') }),
  z.strictObject({ type: z.literal('open-requirement') }),
  z.strictObject({ type: z.literal('open-requirement-diff') }),
  z.strictObject({ type: z.literal('select-for-compare') }),
  z.strictObject({ type: z.literal('compare-with-selected') }),
  /** One of the tries the rendered iteration lists with a transcript. */
  z.strictObject({ type: z.literal('open-transcript'), role: z.enum(['architect', 'programmer']), attempt: z.int().check(z.minimum(1)) }),
  /** The shown iteration's test report as a table; back to the iteration; the raw report.json. */
  z.strictObject({ type: z.literal('open-test-report') }),
  z.strictObject({ type: z.literal('close-test-report') }),
  z.strictObject({ type: z.literal('open-raw-report') }),
]);
export type IterationViewMessage = z.infer<typeof iterationViewMessageSchema>;

export const isIterationViewMessage = guardFor(iterationViewMessageSchema);
export const ITERATION_VIEW_ACTIONS: IterationViewMessage['type'][] = iterationViewMessageSchema.def.options.map((o) => o.def.shape.type.def.values[0]);

/**
 * The message a clicked element asks for: its `data-action`, plus `data-arg` as the action's
 * argument (direction, node id, file index or `role:try`). Undefined for anything malformed.
 */
export function messageForAction(action: string | undefined, arg: string | undefined): IterationViewMessage | undefined {
  let msg: unknown;
  switch (action) {
    case 'step':
      msg = { type: action, direction: Number(arg) };
      break;
    case 'open-test':
      msg = { type: action, nodeid: arg };
      break;
    case 'open-file':
      msg = { type: action, index: Number(arg) };
      break;
    case 'open-transcript': {
      // `role:try`, e.g. `programmer:2`.
      const [role, attempt] = (arg ?? '').split(':');
      msg = { type: action, role, attempt: Number(attempt) };
      break;
    }
    default:
      msg = { type: action };
  }
  return isIterationViewMessage(msg) ? msg : undefined;
}
