// The iteration view's messages, webview → host. The host renders the view's HTML itself (it
// changes only when the user steps), so messages flow one way: the webview reports clicks. Each
// names what to open by index or id into the data the host rendered, never by a path, so a
// message cannot make the host open a file the view did not show. Browser-safe.

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

export const ITERATION_VIEW_ACTIONS = [
  'step',
  'open-test',
  'open-file',
  'open-code-changes',
  'open-requirement',
  'open-requirement-diff',
  'select-for-compare',
  'compare-with-selected',
] as const satisfies readonly IterationViewMessage['type'][];

type Obj = Record<string, unknown>;

export function isIterationViewMessage(x: unknown): x is IterationViewMessage {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const m = x as Obj;
  switch (m.type) {
    case 'step':
      return m.direction === 1 || m.direction === -1;
    case 'open-test':
      return typeof m.nodeid === 'string' && m.nodeid.length > 0 && m.nodeid.length < 4096;
    case 'open-file':
      return Number.isInteger(m.index) && (m.index as number) >= 0;
    case 'open-code-changes':
    case 'open-requirement':
    case 'open-requirement-diff':
    case 'select-for-compare':
    case 'compare-with-selected':
      return true;
    default:
      return false;
  }
}

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
