// opencode's `run --format json`: each model call is a step, `step_start` … `step_finish` (its
// tokens {input, output, reasoning, cache: {read, write}}, cost and finish reason); within it
// `text` and `reasoning` parts and `tool_use` parts, each a finished tool call with its input and
// output (or error). A tool's output is what the next step sends back; `error` events are the
// session's errors.
import { amount, count, isObj, plus, str, toolInput, Turns, usageOf, type Draft, type EventReader } from '../../reading/event-turns';

export const opencodeEvents: EventReader = {
  recognises: (events) =>
    events.some(
      (e) => (e.type === 'step_start' || e.type === 'step_finish' || e.type === 'text' || e.type === 'tool_use' || e.type === 'reasoning') && isObj(e.part),
    ),
  read: (events) => readOpencode(events),
};

function readOpencode(events: readonly Record<string, unknown>[]): Draft {
  const turns = new Turns();
  const notes: string[] = [];
  let stepStart: number | undefined;
  for (const e of events) {
    const part = isObj(e.part) ? e.part : {};
    if (e.type === 'step_start') {
      turns.begin();
      stepStart = amount(e.timestamp);
    } else if (e.type === 'text' && typeof part.text === 'string') {
      turns.answer({ kind: 'text', role: 'assistant', text: part.text });
    } else if (e.type === 'reasoning' && typeof part.text === 'string') {
      turns.answer({ kind: 'reasoning', text: part.text });
    } else if (e.type === 'tool_use') {
      const state = isObj(part.state) ? part.state : {};
      const id = str(part.callID) ?? str(part.id);
      const base = id !== undefined ? { id } : {};
      const name = str(part.tool) ?? '(unnamed)';
      // The call and its result come together: the call is this step's, the result the next step's input.
      turns.answer({ kind: 'tool-call', ...base, name, input: toolInput(state.input) });
      const error = state.status === 'error';
      turns.add({ kind: 'tool-result', ...base, name, output: (error ? str(state.error) : str(state.output)) ?? '', ...(error ? { isError: true } : {}) });
    } else if (e.type === 'step_finish') {
      const call = turns.last;
      if (!call) continue;
      const t = isObj(part.tokens) ? part.tokens : undefined;
      if (t) {
        const cache = isObj(t.cache) ? t.cache : {};
        const cached = count(cache.read);
        const reasoning = count(t.reasoning);
        // Input with the cache reads and writes, output with the reasoning: every token read, every token written.
        const u = usageOf(plus(count(t.input), cached, count(cache.write)), plus(count(t.output), reasoning), cached, reasoning);
        if (u) call.usage = u;
      }
      const cost = amount(part.cost);
      if (cost !== undefined) call.costUsd = cost;
      const reason = str(part.reason);
      if (reason) call.stopReason = reason;
      const end = amount(e.timestamp);
      if (stepStart !== undefined && end !== undefined && end >= stepStart) call.ms = end - stepStart;
      stepStart = undefined;
      turns.end();
    } else if (e.type === 'error') {
      const error = errorText(e.error);
      if (turns.last) turns.last.error = error;
      notes.push(`The CLI reported an error: ${error}`);
    }
  }
  return { calls: turns.finish(), tools: [], notes };
}

function errorText(v: unknown): string {
  if (!isObj(v)) return str(v) ?? 'no detail';
  const data = isObj(v.data) ? v.data : {};
  return str(data.message) ?? str(v.message) ?? str(v.name) ?? 'no detail';
}
