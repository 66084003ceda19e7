// What the Transcript panel reads out of a transcript before drawing it: which tool result
// answers which tool call (results arrive in a later call's input), and each call's text for the
// search box. No DOM, so unit tests run it in node.
import type { Transcript, TranscriptCall, TranscriptItem } from '../src/shared/transcript-schema';

type ResultItem = Extract<TranscriptItem, { kind: 'tool-result' }>;

export interface Pairing {
  /** `${call}:${tool index}` → the result the agent sent back for that tool call. */
  results: Map<string, ResultItem>;
  /** `${call}:${input index}` of the input items shown with their tool call (not again on their own). */
  shown: Set<string>;
}

export const toolKey = (call: number, tool: number): string => `${call}:${tool}`;

/**
 * Pairs each tool call with its result: the first result not yet taken, in a later call's input,
 * with the same id (or, where the protocol has no ids, the same name or none).
 */
export function pairToolResults(t: Transcript): Pairing {
  const pending: { call: number; index: number; item: ResultItem; taken: boolean; order: number }[] = [];
  t.calls.forEach((c, order) =>
    c.input.forEach((item, index) => {
      if (item.kind === 'tool-result') pending.push({ call: c.call, index, item, taken: false, order });
    }),
  );
  const results = new Map<string, ResultItem>();
  const shown = new Set<string>();
  t.calls.forEach((c, order) => {
    c.toolCalls.forEach((tc, k) => {
      const match = pending.find(
        (r) =>
          !r.taken &&
          r.order > order &&
          (tc.id !== undefined && r.item.id !== undefined ? r.item.id === tc.id : r.item.name === undefined || r.item.name === tc.name),
      );
      if (!match) return;
      match.taken = true;
      results.set(toolKey(c.call, k), match.item);
      shown.add(toolKey(match.call, match.index));
    });
  });
  return { results, shown };
}

function itemText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'text':
    case 'reasoning':
      return item.text;
    case 'tool-call':
      return `${item.name} ${typeof item.input === 'string' ? item.input : JSON.stringify(item.input)}`;
    case 'tool-result':
      return item.output;
  }
}

/** Everything a person can read of a call, lower-cased, for the search box. */
export function callSearchText(call: TranscriptCall): string {
  return [call.model ?? '', ...call.input.map(itemText), ...call.output.map(itemText), call.error ?? '', call.refused ?? '', call.truncated ?? '']
    .join('\n')
    .toLowerCase();
}

/** The calls (by position) whose text holds `query` (case-insensitive); all of them for an empty query. */
export function matchingCalls(texts: readonly string[], query: string): number[] {
  const q = query.trim().toLowerCase();
  return texts.flatMap((text, i) => (!q || text.includes(q) ? [i] : []));
}

/** A block a CLI wraps around what it adds to the user's message (Claude Code's agent list, its date, its notes). */
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/**
 * The first call's user text, split: the prompt the harness gave, and the system reminders the
 * CLI put around it (Claude Code's run to a hundred lines and came first, hiding the prompt).
 */
export function promptParts(t: Transcript): { prompt?: string; reminders: string[] } {
  const first = t.calls[0];
  const texts = first?.input.flatMap((i) => (i.kind === 'text' && i.role === 'user' ? [i.text] : [])) ?? [];
  const reminders = texts.flatMap((x) => x.match(REMINDER) ?? []);
  const rest = texts.map((x) => x.replace(REMINDER, '').trim()).filter(Boolean);
  const prompt = rest.length ? rest.join('\n\n') : texts.length && !reminders.length ? texts.join('\n\n') : undefined;
  return { ...(prompt !== undefined ? { prompt } : {}), reminders };
}
