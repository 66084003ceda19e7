// Claude Code's `--output-format stream-json --verbose` and Qwen Code's `--output-format
// stream-json` (the same shape): a `system` init (the tools), `assistant` messages (content
// blocks: text, thinking, tool_use; the message's usage), `user` messages (tool_result blocks),
// and a final `result` (total usage, cost, time). Claude Code prints one event per content block,
// each with the whole message's id: blocks of one id are one turn. A sub-agent's messages carry
// the tool call that started it (`parent_tool_use_id`): its turns are side calls.
// Logs recorded before: Claude Code's single `result` object (`--output-format json`: only the
// final answer), Qwen Code's JSON array of the same messages.
import type { TranscriptItem, TranscriptUsage } from '../../../../shared/transcript-schema';
import { amount, contentText, count, isObj, plus, str, toolInput, Turns, usageOf, type Draft, type EventReader } from '../../reading/event-turns';

/** Whose counting the usage follows (see `usage`). */
export type Flavour = 'claude' | 'qwen';

/**
 * A reader of Claude-shaped streams counting usage as `flavour` does; without one, as the stream
 * says it was written (Qwen Code's init event names its version), else as Claude Code.
 */
export function claudeShapedReader(flavour?: Flavour): EventReader {
  return {
    recognises: (events) => events.some((e) => (e.type === 'assistant' && isObj(e.message)) || (e.type === 'result' && ('is_error' in e || 'subtype' in e))),
    read: (events) => readClaudeShaped(events, flavour ?? flavourOf(events)),
  };
}

export const claudeStream = claudeShapedReader();

function flavourOf(events: readonly Record<string, unknown>[]): Flavour {
  return events.some((e) => e.type === 'system' && 'qwen_code_version' in e) ? 'qwen' : 'claude';
}

/**
 * Claude Code counts cache reads and writes apart from `input_tokens` (Anthropic's sense); Qwen
 * Code copies Chat Completions' prompt count, which already holds the cached tokens.
 */
function usage(v: unknown, flavour: Flavour): TranscriptUsage | undefined {
  if (!isObj(v)) return undefined;
  const cached = count(v.cache_read_input_tokens);
  const input = flavour === 'claude' ? plus(count(v.input_tokens), count(v.cache_creation_input_tokens), cached) : count(v.input_tokens);
  return usageOf(input, count(v.output_tokens), cached);
}

function readClaudeShaped(events: readonly Record<string, unknown>[], flavour: Flavour): Draft {
  const notes: string[] = [];
  let tools: Draft['tools'] = [];
  // Every conversation's turns, in the order they began.
  const calls: Draft['calls'] = [];
  const seen = new Set<Draft['calls'][number]>();
  const keep = (call: Draft['calls'][number]) => {
    if (!seen.has(call)) calls.push(call);
    seen.add(call);
  };
  // The main conversation, and each sub-agent's (by the tool call that started it).
  const conversations = new Map<string, { turns: Turns; messageId?: string }>();
  const conversation = (parent: unknown) => {
    const key = str(parent) ?? '';
    let c = conversations.get(key);
    if (!c) {
      c = { turns: new Turns(key !== '') };
      conversations.set(key, c);
    }
    return c;
  };
  let result: Record<string, unknown> | undefined;
  for (const e of events) {
    if (e.type === 'system' && e.subtype === 'init') {
      if (Array.isArray(e.tools))
        tools = e.tools.flatMap((t) => (typeof t === 'string' ? [{ name: t }] : isObj(t) && typeof t.name === 'string' ? [{ name: t.name }] : []));
    } else if (e.type === 'assistant' && isObj(e.message)) {
      const m = e.message;
      const c = conversation(e.parent_tool_use_id);
      const id = str(m.id);
      // Another block of the message under way continues its turn; a new message is a new turn.
      const call = id !== undefined && id === c.messageId && c.turns.last ? c.turns.turn() : c.turns.begin();
      keep(call);
      c.messageId = id;
      for (const item of blocks(m.content)) c.turns.answer(item);
      const model = str(m.model);
      if (model) call.model = model;
      const u = usage(m.usage, flavour);
      if (u) call.usage = u;
      const stop = str(m.stop_reason);
      if (stop) call.stopReason = stop;
      const error = str(e.error);
      if (error) call.error = error;
    } else if (e.type === 'user' && isObj(e.message)) {
      const c = conversation(e.parent_tool_use_id);
      const content = e.message.content;
      if (typeof content === 'string') c.turns.add({ kind: 'text', role: 'user', text: content });
      else if (Array.isArray(content)) {
        for (const b of content) {
          if (!isObj(b)) continue;
          if (b.type === 'tool_result') {
            c.turns.add({
              kind: 'tool-result',
              ...(str(b.tool_use_id) !== undefined ? { id: str(b.tool_use_id) } : {}),
              output: contentText(b.content),
              ...(b.is_error === true ? { isError: true } : {}),
            });
          } else if (b.type === 'text' && typeof b.text === 'string') c.turns.add({ kind: 'text', role: 'user', text: b.text });
        }
      }
    } else if (e.type === 'result') {
      result = e;
    }
  }
  // Tool results after a conversation's last answer: a last turn, cut.
  for (const { turns } of conversations.values()) for (const call of turns.finish()) keep(call);

  const totals: Draft['totals'] = {};
  if (result) {
    const u = usage(result.usage, flavour);
    if (u) totals.usage = u;
    const cost = amount(result.total_cost_usd) ?? amount(result.cost_usd);
    if (cost !== undefined) totals.costUsd = cost;
    const ms = amount(result.duration_ms);
    if (ms !== undefined) totals.ms = ms;
    const answer = str(result.result);
    if (calls.length === 0 && answer !== undefined) {
      // Single-JSON output: the final answer is all the log holds.
      calls.push({ input: [], output: [{ kind: 'text', role: 'assistant', text: answer }], ...(u ? { usage: u } : {}) });
      const turns = count(result.num_turns);
      notes.push(`This log holds only the CLI's final answer (its single-JSON output)${turns ? `: the ${turns} turns before it are not in it` : ''}.`);
    }
  }
  if (flavour === 'claude' && totals.usage && calls.length > 1) {
    const perTurn = calls.reduce((a, c) => a + (c.usage?.output ?? 0), 0);
    if (perTurn < totals.usage.output)
      notes.push("Claude Code prints each message's output tokens as they stood when its first block was printed: the totals are its final count.");
  }
  return { calls, tools, totals, notes };
}

/** A message's content blocks as transcript items. */
function blocks(content: unknown): TranscriptItem[] {
  if (typeof content === 'string') return [{ kind: 'text', role: 'assistant', text: content }];
  if (!Array.isArray(content)) return [];
  const out: TranscriptItem[] = [];
  for (const b of content) {
    if (!isObj(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') out.push({ kind: 'text', role: 'assistant', text: b.text });
    else if (b.type === 'thinking' && typeof b.thinking === 'string') out.push({ kind: 'reasoning', text: b.thinking });
    else if (b.type === 'redacted_thinking') out.push({ kind: 'reasoning', text: '[redacted]' });
    else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
      const id = str(b.id);
      out.push({ kind: 'tool-call', ...(id !== undefined ? { id } : {}), name: str(b.name) ?? '(unnamed)', input: toolInput(b.input) });
    }
  }
  return out;
}
