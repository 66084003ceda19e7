// Codex CLI's `exec --json`: `thread.started`, `turn.started`, `item.started`/`item.completed`
// (agent_message, reasoning, command_execution {command, aggregated_output, exit_code},
// file_change {changes: [{path, kind}]}, mcp_tool_call, web_search, todo_list, error), and
// `turn.completed` with the turn's usage or `turn.failed`. A codex turn is the whole exec (many
// model calls); it marks no model calls: the model answers in a new one after tool results. Its
// commands are `shell` calls, its file changes `apply_patch` calls, as the model made them.
// Older builds wrapped events in `msg` (agent_message, agent_reasoning, exec_command_begin/end,
// patch_apply_begin/end, token_count after each model call).
import type { TranscriptItem } from '../../../../shared/transcript-schema';
import { count, isObj, str, toolInput, Turns, usageOf, type Draft, type DraftCall, type EventReader } from '../../reading/event-turns';

export const codexEvents: EventReader = {
  recognises: (events) =>
    events.some((e) => (typeof e.type === 'string' && /^(thread|turn|item)\./.test(e.type)) || (isObj(e.msg) && typeof e.msg.type === 'string')),
  read: (events) => readCodex(events),
};

/** Items that are the model asking for something: a tool call when they start, a result when they complete. */
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search', 'todo_list']);

function readCodex(events: readonly Record<string, unknown>[]): Draft {
  const turns = new Turns();
  const notes: string[] = [];
  const started = new Set<string>();
  let usage: ReturnType<typeof usageOf>;
  let turnStart = 0;
  let perTurnOnly = false;
  for (const e of events) {
    const type = str(e.type);
    if (type === 'turn.started') {
      turnStart = turns.calls.length;
    } else if ((type === 'item.started' || type === 'item.completed') && isObj(e.item)) {
      const item = e.item;
      const kind = str(item.type) ?? '';
      const id = str(item.id);
      if (TOOL_ITEMS.has(kind)) {
        if (!id || !started.has(id)) turns.answer(toolCall(kind, item));
        if (id) started.add(id);
        if (type === 'item.completed') turns.add(toolResult(kind, item));
      } else if (type === 'item.completed') {
        const text = str(item.text);
        if (kind === 'agent_message' && text !== undefined) turns.answer({ kind: 'text', role: 'assistant', text });
        else if (kind === 'reasoning' && text !== undefined) turns.answer({ kind: 'reasoning', text });
        else if (kind === 'error' && str(item.message)) notes.push(`Error from the CLI: ${str(item.message)}`);
      }
    } else if (type === 'turn.completed') {
      const u = isObj(e.usage) ? e.usage : {};
      const turnUsage = usageOf(count(u.input_tokens), count(u.output_tokens), count(u.cached_input_tokens), count(u.reasoning_output_tokens));
      if (turnUsage) {
        usage = usage ? sumUsage(usage, turnUsage) : turnUsage;
        const turnCalls: DraftCall[] = turns.calls.slice(turnStart);
        // One model call in the turn: its usage is the call's.
        if (turnCalls.length === 1) turnCalls[0].usage = turnUsage;
        else perTurnOnly = true;
      }
    } else if (type === 'turn.failed') {
      const error = isObj(e.error) ? str(e.error.message) : str(e.error);
      if (turns.last) turns.last.error = error ?? 'the turn failed';
      else notes.push(`The turn failed: ${error ?? 'no detail'}`);
    } else if (type === 'error') {
      const message = str(e.message);
      if (message) notes.push(`Error from the CLI: ${message}`);
    } else if (isObj(e.msg)) {
      usage = legacy(e.msg, turns) ?? usage;
    }
  }
  if (perTurnOnly) notes.push('Codex reports tokens per turn, not per model call: the totals are its figures.');
  return { calls: turns.finish(), tools: [], totals: usage ? { usage } : {}, notes };
}

function toolCall(kind: string, item: Record<string, unknown>): TranscriptItem {
  const id = str(item.id);
  const base = id !== undefined ? { id } : {};
  switch (kind) {
    case 'command_execution':
      return { kind: 'tool-call', ...base, name: 'shell', input: { command: item.command } };
    case 'file_change':
      return { kind: 'tool-call', ...base, name: 'apply_patch', input: { changes: changes(item.changes) } };
    case 'mcp_tool_call':
      return { kind: 'tool-call', ...base, name: [str(item.server), str(item.tool)].filter(Boolean).join('.') || 'mcp', input: toolInput(item.arguments) };
    case 'web_search':
      return { kind: 'tool-call', ...base, name: 'web_search', input: { query: item.query } };
    default:
      return { kind: 'tool-call', ...base, name: 'update_plan', input: { items: item.items } };
  }
}

function toolResult(kind: string, item: Record<string, unknown>): TranscriptItem {
  const id = str(item.id);
  const status = str(item.status);
  const failed = status === 'failed' || status === 'declined' || (kind === 'command_execution' && typeof item.exit_code === 'number' && item.exit_code !== 0);
  let output: string;
  if (kind === 'command_execution') {
    output = `${str(item.aggregated_output) ?? ''}${typeof item.exit_code === 'number' && item.exit_code !== 0 ? `\n(exit code ${item.exit_code})` : ''}`;
  } else if (kind === 'file_change') {
    output = changes(item.changes)
      .map((c) => `${c.kind} ${c.path}`)
      .join('\n');
  } else if (kind === 'mcp_tool_call') {
    output = isObj(item.error) ? (str(item.error.message) ?? '') : item.result === undefined ? '' : JSON.stringify(item.result);
  } else output = status ?? '';
  return { kind: 'tool-result', ...(id !== undefined ? { id } : {}), output, ...(failed ? { isError: true } : {}) };
}

function changes(v: unknown): { path: string; kind: string }[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((c) => (isObj(c) && typeof c.path === 'string' ? [{ path: c.path, kind: str(c.kind) ?? 'update' }] : []));
}

function sumUsage(a: NonNullable<ReturnType<typeof usageOf>>, b: NonNullable<ReturnType<typeof usageOf>>): NonNullable<ReturnType<typeof usageOf>> {
  return { input: a.input + b.input, output: a.output + b.output, cached: a.cached + b.cached, reasoning: a.reasoning + b.reasoning };
}

/** An older build's `msg` event; a token_count closes the model call and returns the run's cumulative usage. */
function legacy(msg: Record<string, unknown>, turns: Turns): ReturnType<typeof usageOf> {
  const id = str(msg.call_id);
  const base = id !== undefined ? { id } : {};
  switch (msg.type) {
    case 'agent_message':
      if (typeof msg.message === 'string') turns.answer({ kind: 'text', role: 'assistant', text: msg.message });
      return undefined;
    case 'agent_reasoning':
      if (typeof msg.text === 'string') turns.answer({ kind: 'reasoning', text: msg.text });
      return undefined;
    case 'exec_command_begin':
      turns.answer({ kind: 'tool-call', ...base, name: 'shell', input: { command: msg.command } });
      return undefined;
    case 'exec_command_end': {
      const exit = typeof msg.exit_code === 'number' ? msg.exit_code : undefined;
      const output = str(msg.aggregated_output) ?? [str(msg.stdout), str(msg.stderr)].filter(Boolean).join('\n');
      turns.add({ kind: 'tool-result', ...base, output, ...(exit !== undefined && exit !== 0 ? { isError: true } : {}) });
      return undefined;
    }
    case 'patch_apply_begin': {
      const paths = isObj(msg.changes) ? Object.keys(msg.changes) : [];
      turns.answer({ kind: 'tool-call', ...base, name: 'apply_patch', input: { changes: paths.map((path) => ({ path })) } });
      return undefined;
    }
    case 'patch_apply_end':
      turns.add({ kind: 'tool-result', ...base, output: str(msg.stdout) ?? str(msg.stderr) ?? '', ...(msg.success === false ? { isError: true } : {}) });
      return undefined;
    case 'token_count': {
      const info = isObj(msg.info) ? msg.info : {};
      const last = isObj(info.last_token_usage) ? info.last_token_usage : undefined;
      if (last && turns.last && !turns.last.usage) {
        turns.last.usage = usageOf(count(last.input_tokens), count(last.output_tokens), count(last.cached_input_tokens), count(last.reasoning_output_tokens));
      }
      const total = isObj(info.total_token_usage) ? info.total_token_usage : undefined;
      return total
        ? usageOf(count(total.input_tokens), count(total.output_tokens), count(total.cached_input_tokens), count(total.reasoning_output_tokens))
        : undefined;
    }
    default:
      return undefined;
  }
}
