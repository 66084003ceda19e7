// OpenAI Responses (codex): `POST …/responses`, streamed as typed server-sent events
// (`response.created`, then per output item `response.output_item.added`, its deltas and
// `response.output_item.done`, then `response.completed` with the usage), or one `response`
// object when the request did not ask for a stream. Codex builds its history from the
// `output_item.done` items and its token count from `response.completed.response.usage`
// (`total_tokens` is required there); the other events are sent as OpenAI sends them.
//
// Requests: `instructions`, `input` items (messages with input_text/output_text parts,
// function_call / custom_tool_call and their *_output items, reasoning, and codex's
// `additional_tools` item that carries tools outside `tools`), and `tools` (function tools,
// custom tools with free-text input, namespaces of either; hosted tools such as web_search are
// not ToolSpecs). Tool results come back as function_call_output / custom_tool_call_output.
import type * as http from 'node:http';
import type { Conversation, Reply, ToolCall, ToolResult, ToolSpec, Turn, Usage } from './conversation';
import { sse, startSse, type ProtocolAdapter } from './model-server';
import { type Json, contentText, isObject, parseArgs } from './wire';

/** Function and custom tools, namespaces flattened (a tool keeps its own name); hosted tools are skipped. */
function parseTools(raw: unknown, into: ToolSpec[]): void {
  if (!Array.isArray(raw)) return;
  for (const t of raw) {
    if (!isObject(t)) continue;
    if (t.type === 'namespace') {
      parseTools(t.tools, into);
      continue;
    }
    if (typeof t.name !== 'string') continue;
    const description = typeof t.description === 'string' ? { description: t.description } : {};
    if (t.type === 'function')
      into.push({ name: t.name, kind: 'function', ...description, ...(t.parameters !== undefined ? { parameters: t.parameters } : {}) });
    else if (t.type === 'custom') into.push({ name: t.name, kind: 'custom', ...description });
  }
}

const nameOf = (item: Json): string => (typeof item.name === 'string' ? item.name : '');

function callIdOf(item: Json): string {
  if (typeof item.call_id === 'string') return item.call_id;
  return typeof item.id === 'string' ? item.id : '';
}

function parse(body: unknown): Conversation {
  if (!isObject(body)) throw new Error('the body is not a JSON object');
  const system: string[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') system.push(body.instructions);
  const tools: ToolSpec[] = [];
  parseTools(body.tools, tools);
  const turns: Turn[] = [];
  // Consecutive assistant items (text, calls) make one assistant turn; consecutive outputs one tool turn.
  const assistantTurn = (): Turn => {
    const last = turns[turns.length - 1];
    if (last && last.role === 'assistant') return last;
    const turn: Turn = { role: 'assistant', text: '' };
    turns.push(turn);
    return turn;
  };
  const addCall = (call: ToolCall) => {
    const turn = assistantTurn();
    (turn.toolCalls ??= []).push(call);
  };
  const addResult = (result: ToolResult) => {
    const last = turns[turns.length - 1];
    if (last && last.role === 'tool') (last.toolResults ??= []).push(result);
    else turns.push({ role: 'tool', text: '', toolResults: [result] });
  };

  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  if (!Array.isArray(input)) throw new Error('no input[]');
  for (const item of input) {
    if (!isObject(item)) throw new Error('an input item is not an object');
    // Items without a type are messages (`{role, content}`, the easy input form).
    const type = typeof item.type === 'string' ? item.type : 'message';
    switch (type) {
      case 'message': {
        const text = contentText(item.content);
        if (item.role === 'system' || item.role === 'developer') system.push(text);
        else if (item.role === 'assistant') {
          const turn = assistantTurn();
          turn.text += text;
        } else turns.push({ role: 'user', text });
        break;
      }
      case 'function_call':
        addCall({ id: callIdOf(item), name: nameOf(item), args: parseArgs(item.arguments) });
        break;
      case 'custom_tool_call':
        addCall({ id: callIdOf(item), name: nameOf(item), args: typeof item.input === 'string' ? item.input : '' });
        break;
      case 'local_shell_call': {
        const action = isObject(item.action) ? item.action : {};
        addCall({ id: callIdOf(item), name: 'local_shell', args: action });
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const output = item.output;
        let text = contentText(output);
        // Older codex sent function outputs as `{content, success}`.
        if (isObject(output)) text = typeof output.content === 'string' ? output.content : JSON.stringify(output);
        addResult({ callId: callIdOf(item), output: text, ...(isObject(output) && output.success === false ? { isError: true } : {}) });
        break;
      }
      case 'additional_tools':
        parseTools(item.tools, tools);
        break;
      default:
        // reasoning, web_search_call, tool_search_call/output, compaction summaries, …: nothing a brain reads.
        break;
    }
  }
  return {
    protocol: 'openai-responses',
    model: typeof body.model === 'string' ? body.model : '',
    system: system.join('\n\n'),
    turns,
    tools,
    stream: body.stream === true,
  };
}

/** The Responses usage object: `input_tokens` includes the cached tokens; codex requires `total_tokens`. */
function usageJson(usage: Usage): Json {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cachedInput },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
}

/** Splits a string in two (so clients must join deltas); empty and one-character strings stay whole. */
function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const cut = Math.ceil(s.length / 2);
  return [s.slice(0, cut), s.slice(cut)];
}

let nextItem = 1;
const itemId = (prefix: string) => `${prefix}_sweci${Date.now().toString(36)}${String(nextItem++).padStart(5, '0')}`;

/** One output item: its final form, and the delta events between `added` and `done` (streamed). */
interface Output {
  done: Json;
  added: Json;
  deltas: (outputIndex: number) => Json[];
}

function textOutput(text: string): Output {
  const id = itemId('msg');
  const part = { type: 'output_text', text, annotations: [], logprobs: [] };
  return {
    done: { id, type: 'message', status: 'completed', role: 'assistant', content: [part] },
    added: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    deltas: (output_index) => [
      { type: 'response.content_part.added', item_id: id, output_index, content_index: 0, part: { ...part, text: '' } },
      ...halves(text).map((delta) => ({ type: 'response.output_text.delta', item_id: id, output_index, content_index: 0, delta, logprobs: [] })),
      { type: 'response.output_text.done', item_id: id, output_index, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', item_id: id, output_index, content_index: 0, part },
    ],
  };
}

function callOutput(call: ToolCall, conversation: Conversation): Output {
  const spec = conversation.tools.find((t) => t.name === call.name);
  const custom = typeof call.args === 'string' || spec?.kind === 'custom';
  if (custom) {
    const id = itemId('ctc');
    const input = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const item = { id, type: 'custom_tool_call', status: 'completed', call_id: call.id, name: call.name, input };
    return {
      done: item,
      added: { ...item, status: 'in_progress', input: '' },
      deltas: (output_index) => [
        ...halves(input).map((delta) => ({ type: 'response.custom_tool_call_input.delta', item_id: id, output_index, delta })),
        { type: 'response.custom_tool_call_input.done', item_id: id, output_index, input },
      ],
    };
  }
  const id = itemId('fc');
  const args = JSON.stringify(call.args);
  const item = { id, type: 'function_call', status: 'completed', call_id: call.id, name: call.name, arguments: args };
  return {
    done: item,
    added: { ...item, status: 'in_progress', arguments: '' },
    deltas: (output_index) => [
      ...halves(args).map((delta) => ({ type: 'response.function_call_arguments.delta', item_id: id, output_index, delta })),
      { type: 'response.function_call_arguments.done', item_id: id, output_index, arguments: args },
    ],
  };
}

function respond(res: http.ServerResponse, conversation: Conversation, reply: Reply, usage: Usage): void {
  const outputs: Output[] = [];
  // Text first (merged into one message), then the calls: the order a model emits them.
  const text = reply.actions.flatMap((a) => (a.kind === 'text' ? [a.text] : [])).join('');
  if (text !== '' || reply.actions.length === 0) outputs.push(textOutput(text));
  for (const a of reply.actions) if (a.kind === 'tool') outputs.push(callOutput(a.call, conversation));

  const response: Json = {
    id: itemId('resp'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    model: conversation.model || 'sweci-model',
    output: [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: null,
  };
  const completed: Json = { ...response, status: 'completed', output: outputs.map((o) => o.done), usage: usageJson(usage) };

  if (!conversation.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completed));
    return;
  }
  startSse(res);
  let sequence = 0;
  const send = (event: Json) => sse(res, { ...event, sequence_number: sequence++ }, String(event.type));
  send({ type: 'response.created', response });
  send({ type: 'response.in_progress', response });
  outputs.forEach((o, output_index) => {
    send({ type: 'response.output_item.added', output_index, item: o.added });
    for (const d of o.deltas(output_index)) send(d);
    send({ type: 'response.output_item.done', output_index, item: o.done });
  });
  send({ type: 'response.completed', response: completed });
  res.end();
}

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
function errorBody(status: number, message: string): unknown {
  const [type, code] =
    status === 401
      ? ['invalid_request_error', 'invalid_api_key']
      : status === 429
        ? ['requests', 'rate_limit_exceeded']
        : status >= 500
          ? ['server_error', null]
          : status === 404
            ? ['invalid_request_error', 'model_not_found']
            : ['invalid_request_error', null];
  return { error: { message, type, param: null, code } };
}

export const openaiResponsesAdapter: ProtocolAdapter = {
  protocol: 'openai-responses',
  matches: (method, url) => method === 'POST' && /\/responses\/?$/.test(url.pathname),
  parse,
  respond,
  errorBody,
};
