// The iteration view's messages, webview → host. The host renders the view's HTML itself (it
// changes only when the user steps), so messages flow one way: the webview reports clicks. Each
// names what to open by index or id into the data the host rendered, never by a path, so a
// message cannot make the host open a file the view did not show. Browser-safe.

import { guardFor, int, oneOf, type MessageSchema } from './message-schema';

export type IterationViewMessage =
  | { type: 'step'; direction: 1 | -1 }
  | { type: 'open-test'; nodeid: string }
  /** Index into the rendered iteration's archived files. */
  | { type: 'open-file'; index: number }
  | { type: 'open-code-changes' }
  | { type: 'open-requirement' }
  | { type: 'open-requirement-diff' }
  | { type: 'select-for-compare' }
  | { type: 'compare-with-selected' };

const nodeId = (x: unknown): boolean => typeof x === 'string' && x.length > 0 && x.length < 4096;

const SCHEMA: MessageSchema<IterationViewMessage> = {
  step: { direction: oneOf(1, -1) },
  'open-test': { nodeid: nodeId },
  'open-file': { index: int },
  'open-code-changes': {},
  'open-requirement': {},
  'open-requirement-diff': {},
  'select-for-compare': {},
  'compare-with-selected': {},
};

export const isIterationViewMessage = guardFor(SCHEMA);
export const ITERATION_VIEW_ACTIONS = Object.keys(SCHEMA) as IterationViewMessage['type'][];

/**
 * The message a clicked element asks for: its `data-action`, plus `data-arg` as the action's
 * argument (direction, node id or file index). Undefined for anything malformed.
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
    default:
      msg = { type: action };
  }
  return isIterationViewMessage(msg) ? msg : undefined;
}
