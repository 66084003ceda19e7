// Gemini CLI's `--output-format stream-json`: `init` (the model), `message` (the user's prompt;
// the model's text in deltas), `tool_use` {tool_name, tool_id, parameters}, `tool_result`
// {tool_id, status, output | error}, `error` (warnings), and a final `result` (status, stats with
// the session's tokens). It marks no turns: the model answers in a new one after tool results.
// Logs recorded before: one `{response, stats}` object (`--output-format json`: only the final
// answer), or `{error}`.
import type { TranscriptUsage } from '../../../../shared/transcript-schema';
import { amount, count, isObj, plus, str, toolInput, Turns, usageOf, type Draft, type EventReader } from '../../reading/event-turns';

export const geminiStream: EventReader = {
  recognises: (events) =>
    events.some(
      (e) =>
        (e.type === 'init' && 'session_id' in e) ||
        (e.type === 'tool_use' && 'tool_name' in e) ||
        (e.type === 'message' && (e.role === 'assistant' || e.role === 'user')) ||
        (e.type === undefined && typeof e.response === 'string' && isObj(e.stats)),
    ),
  read: (events) => readGemini(events),
};

function readGemini(events: readonly Record<string, unknown>[]): Draft {
  const turns = new Turns();
  const notes: string[] = [];
  const totals: Draft['totals'] = {};
  let model: string | undefined;
  for (const e of events) {
    if (e.type === 'init') model = str(e.model) ?? model;
    else if (e.type === 'message' && typeof e.content === 'string') {
      if (e.role === 'user') turns.add({ kind: 'text', role: 'user', text: e.content });
      else if (e.role === 'assistant') turns.answer({ kind: 'text', role: 'assistant', text: e.content }, true);
    } else if (e.type === 'tool_use') {
      const id = str(e.tool_id);
      turns.answer({ kind: 'tool-call', ...(id !== undefined ? { id } : {}), name: str(e.tool_name) ?? '(unnamed)', input: toolInput(e.parameters) });
    } else if (e.type === 'tool_result') {
      const id = str(e.tool_id);
      const error = isObj(e.error) ? str(e.error.message) : undefined;
      turns.add({
        kind: 'tool-result',
        ...(id !== undefined ? { id } : {}),
        output: str(e.output) ?? error ?? '',
        ...(e.status === 'error' ? { isError: true } : {}),
      });
    } else if (e.type === 'error') {
      const message = str(e.message);
      if (message) notes.push(`${str(e.severity) === 'error' ? 'Error' : 'Warning'} from the CLI: ${message}`);
    } else if (e.type === 'result' || (e.type === undefined && (isObj(e.stats) || 'response' in e || 'error' in e))) {
      if (isObj(e.stats)) {
        const u = statsUsage(e.stats);
        if (u) totals.usage = u;
        const ms = amount(e.stats.duration_ms);
        if (ms !== undefined) totals.ms = ms;
      }
      const error = isObj(e.error) ? str(e.error.message) : undefined;
      if (error) {
        if (turns.last) turns.last.error = error;
        else notes.push(`The CLI reported an error: ${error}`);
      }
      // Single-JSON output: the final answer is all the log holds.
      const response = str(e.response);
      if (response !== undefined && turns.calls.length === 0) {
        turns.answer({ kind: 'text', role: 'assistant', text: response });
        notes.push("This log holds only the CLI's final answer (its single-JSON output): the turns before it are not in it.");
      }
    }
  }
  const calls = turns.finish();
  if (model) for (const c of calls) c.model ??= model;
  if (calls.length === 1 && totals.usage && !calls[0].usage) calls[0].usage = totals.usage;
  return { calls, tools: [], totals, notes };
}

/**
 * stream-json: flat `input_tokens` (the prompt, cached included), `output_tokens`, `cached`.
 * json: per model `tokens` {prompt, candidates, cached, thoughts}; thoughts are output.
 */
function statsUsage(stats: Record<string, unknown>): TranscriptUsage | undefined {
  if (isObj(stats.models)) {
    let input: number | undefined;
    let output: number | undefined;
    let cached: number | undefined;
    let reasoning: number | undefined;
    for (const m of Object.values(stats.models)) {
      if (!isObj(m) || !isObj(m.tokens)) continue;
      const t = m.tokens;
      input = plus(input, count(t.prompt) ?? count(t.input));
      output = plus(output, count(t.candidates), count(t.thoughts));
      cached = plus(cached, count(t.cached));
      reasoning = plus(reasoning, count(t.thoughts));
    }
    const u = usageOf(input, output, cached, reasoning);
    if (u) return u;
  }
  return usageOf(count(stats.input_tokens), count(stats.output_tokens), count(stats.cached));
}
