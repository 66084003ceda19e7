// One call of the transcript: its header (number, model, tokens, time, cost, the running total)
// and, built only when it is about to be seen, its body: what the call added to the conversation,
// the model's text, its reasoning (folded), and each tool call as a person reads it (a command
// with its output, a file write as a diff, anything else as JSON), then what went wrong.
import * as l10n from '@vscode/l10n';
import type { Transcript, TranscriptCall, TranscriptItem } from '../src/shared/transcript-schema';
import { toolAction } from '../src/shared/tool-actions';
import { fileChangeAt, type FileChange } from '../src/shared/transcript-edits';
import type { TranscriptWebviewMessage } from '../src/shared/transcript-protocol';
import { el } from './dom';
import { diffView } from './transcript-diff-view';
import { argsLine, callFigures, shortPath, totalText, type RunningTotal } from './transcript-format';
import { toolKey, type Pairing } from './transcript-model';

/** Lines of a text block drawn before "Show all". */
const FIRST_LINES = 60;
/** Lines of a tool's result that is not a command's output (a file read, a search) drawn before "Show all". */
const READ_LINES = 12;

export interface CallContext {
  transcript: Transcript;
  pairing: Pairing;
  changes: FileChange[];
  /** No host (an exported report): nothing to open. */
  standalone: boolean;
  post(msg: TranscriptWebviewMessage): void;
}

/** Text in a <pre>, its first lines only until "Show all" is clicked. */
export function textBlock(text: string, cls: string, firstLines = FIRST_LINES): HTMLElement {
  const lines = text.split('\n');
  const pre = el('pre', { class: cls }, lines.length > firstLines ? lines.slice(0, firstLines).join('\n') : text);
  if (lines.length <= firstLines) return pre;
  const box = el('div', { class: 'clipped' });
  const more = el('button', { type: 'button', class: 'link' }, l10n.t('Show all {0} lines', lines.length));
  more.addEventListener('click', () => {
    pre.textContent = text;
    more.remove();
  });
  box.append(pre, more);
  return box;
}

function badge(text: string, cls = ''): HTMLElement {
  return el('span', { class: `badge ${cls}`.trim() }, text);
}

export function callHeader(call: TranscriptCall, total: RunningTotal, bodyId: string): { head: HTMLElement; toggle: HTMLButtonElement } {
  const head = el('div', { class: 'call-head' });
  const toggle = el(
    'button',
    { type: 'button', class: 'toggle', 'aria-expanded': 'true', 'aria-controls': bodyId, 'aria-label': l10n.t('Call {0}: fold', call.call) },
    '▾',
  );
  const title = el('span', { class: 'call-no' }, l10n.t('Call {0}', call.call));
  head.append(toggle, title);
  if (call.model) head.append(el('span', { class: 'model' }, call.model));
  head.append(el('span', { class: 'figures' }, callFigures(call).join(' · ')));
  if (call.error) head.append(badge('error', 'bad'));
  if (call.refused) head.append(badge('refused', 'bad'));
  if (call.status !== undefined && call.status >= 400) head.append(badge(`HTTP ${call.status}`, 'bad'));
  if (call.retries) head.append(badge(`${call.retries} retr${call.retries === 1 ? 'y' : 'ies'}`, 'warn'));
  if (call.truncated) head.append(badge('cut', 'warn'));
  if (call.side) head.append(badge('side call'));
  if (call.replayed) head.append(badge('replayed'));
  if (call.toolCalls.length) head.append(badge(`${call.toolCalls.length} tool call${call.toolCalls.length === 1 ? '' : 's'}`, 'tools'));
  head.append(el('span', { class: 'spacer' }), el('span', { class: 'total' }, totalText(total)));
  return { head, toggle };
}

function openButtons(ctx: CallContext, call: number, tool: number): HTMLElement[] {
  if (ctx.standalone) return [];
  const diff = el('button', { type: 'button', class: 'small' }, l10n.t('Open in diff editor'));
  diff.addEventListener('click', () => ctx.post({ type: 'open-diff', call, tool }));
  const file = el('button', { type: 'button', class: 'small secondary' }, l10n.t('Open as written'));
  file.addEventListener('click', () => ctx.post({ type: 'open-file', call, tool }));
  return [diff, file];
}

function resultBlock(result: Extract<TranscriptItem, { kind: 'tool-result' }> | undefined, cls: string, firstLines = FIRST_LINES): HTMLElement {
  if (!result) return el('p', { class: 'muted small-note' }, l10n.t('No result recorded (the try ended, or the agent did not send one back).'));
  // A command's output ends with a newline: not a line of its own in the panel.
  const output = result.output.replace(/\s+$/, '');
  if (output === '') return el('p', { class: 'muted small-note' }, result.isError ? l10n.t('Failed, with no output.') : l10n.t('No output.'));
  return textBlock(output, `${cls}${result.isError ? ' error' : ''}`, firstLines);
}

function toolView(ctx: CallContext, call: TranscriptCall, tool: number): HTMLElement {
  const tc = call.toolCalls[tool];
  const result = ctx.pairing.results.get(toolKey(call.call, tool));
  const box = el('div', { class: 'tool', 'data-tool': String(tool) });
  const head = el('div', { class: 'tool-head' });
  head.append(el('span', { class: 'tool-name' }, tc.name));
  box.append(head);
  const action = toolAction({ name: tc.name, input: tc.input });
  const change = fileChangeAt(ctx.changes, call.call, tool);
  if (action?.kind === 'shell') {
    box.classList.add('shell');
    box.append(textBlock(`$ ${action.command}`, 'command', 20), resultBlock(result, 'output'));
  } else if (change) {
    box.classList.add('write');
    head.append(
      el('code', { class: 'tool-path', title: change.path }, shortPath(change.path)),
      el('span', { class: 'spacer' }),
      ...openButtons(ctx, call.call, tool),
    );
    box.append(diffView(change));
    // A write's result is rarely more than "ok"; an error is worth seeing.
    if (result?.isError) box.append(resultBlock(result, 'output'));
  } else {
    const input = typeof tc.input === 'string' ? tc.input : JSON.stringify(tc.input, null, 2);
    // A read or a search: its few arguments fit beside the tool's name; the JSON stays in the tooltip.
    const line = argsLine(tc.input);
    if (line !== undefined) head.append(el('code', { class: 'tool-args', title: input ?? '' }, line));
    else box.append(textBlock(input ?? '', 'json', 30));
    // A read's whole file or a search's many hits: their first lines, the rest a click away.
    box.append(resultBlock(result, 'output', READ_LINES));
  }
  return box;
}

function itemView(item: TranscriptItem): HTMLElement | undefined {
  switch (item.kind) {
    case 'text':
      return el('div', { class: `msg ${item.role}` }, item.text);
    case 'reasoning': {
      const d = el('details', { class: 'reasoning' });
      d.append(el('summary', {}, l10n.t('Reasoning')), textBlock(item.text, 'reasoning-text'));
      return d;
    }
    case 'tool-result': {
      const box = el('div', { class: 'tool orphan' });
      box.append(
        el('div', { class: 'tool-head' }, item.name ? l10n.t('Result of {0} (no matching tool call)', item.name) : l10n.t('Result (no matching tool call)')),
        resultBlock(item, 'output'),
      );
      return box;
    }
    case 'tool-call':
      return undefined;
  }
}

export function callBody(ctx: CallContext, call: TranscriptCall, first: boolean): HTMLElement[] {
  const out: HTMLElement[] = [];
  // What the call added that is not shown elsewhere: the prompt and the system prompt are shown
  // above the calls, tool results with their tool calls.
  call.input.forEach((item, i) => {
    if (ctx.pairing.shown.has(toolKey(call.call, i))) return;
    if (item.kind === 'text' && item.role === 'system' && item.text === ctx.transcript.system) return;
    if (first && item.kind === 'text' && item.role === 'user') return;
    const v = itemView(item);
    if (v) {
      v.classList.add('added');
      out.push(v);
    }
  });
  let tool = 0;
  for (const item of call.output) {
    if (item.kind === 'tool-call') {
      if (tool < call.toolCalls.length) out.push(toolView(ctx, call, tool++));
      continue;
    }
    const v = itemView(item);
    if (v) out.push(v);
  }
  // Tool calls the output list did not carry (a record that kept only toolCalls).
  while (tool < call.toolCalls.length) out.push(toolView(ctx, call, tool++));
  if (call.output.length === 0 && call.toolCalls.length === 0 && !call.error && !call.refused)
    out.push(el('p', { class: 'muted' }, l10n.t('The model answered nothing.')));
  if (call.error) out.push(el('p', { class: 'problem' }, l10n.t('Error: {0}', call.error)));
  if (call.refused) out.push(el('p', { class: 'problem' }, l10n.t('Refused by the gateway: {0}', call.refused)));
  if (call.truncated) out.push(el('p', { class: 'warning' }, l10n.t('Cut in the record: {0}', call.truncated)));
  if (call.retries)
    out.push(
      el(
        'p',
        { class: 'muted' },
        call.retries === 1
          ? l10n.t('The gateway tried this call again 1 time (429, 5xx or a reset).')
          : l10n.t('The gateway tried this call again {0} times (429, 5xx or a reset).', call.retries),
      ),
    );
  if (call.stopReason && !/^(stop|end_turn|tool_calls|tool_use|STOP|completed)$/.test(call.stopReason))
    out.push(el('p', { class: 'muted' }, l10n.t('Stopped: {0}', call.stopReason)));
  return out;
}
