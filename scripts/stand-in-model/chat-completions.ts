// OpenAI Chat Completions (qwen, opencode through @ai-sdk/openai-compatible): `POST …/chat/completions`,
// streamed as `chat.completion.chunk` events (text and tool_calls deltas, a finish_reason, then a
// usage chunk with `choices: []` when `stream_options.include_usage` asked for it, then `[DONE]`),
// or one `chat.completion` object. Tool results come back as `role: "tool"` messages. A stream that
// did not ask for usage gets none, though the server still records it (qwen and opencode both ask).
import type * as http from 'node:http';
import type { Conversation, Reply, ToolCall, ToolResult, ToolSpec, Turn, Usage } from './conversation';
import { sse, startSse, type ProtocolAdapter } from './model-server';
import { type Json, contentText, isObject, parseArgs, str } from './wire';

/** What a request asked that the protocol-neutral Conversation does not hold. */
interface Extras {
  includeUsage: boolean;
}
const extras = new WeakMap<Conversation, Extras>();

function parseToolCalls(raw: unknown): ToolCall[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((c, i): ToolCall => {
    const id = typeof c.id === 'string' ? c.id : `call_${i}`;
    if (isObject(c.custom)) return { id, name: str(c.custom.name), args: str(c.custom.input) };
    const fn = isObject(c.function) ? c.function : {};
    return { id, name: str(fn.name), args: parseArgs(fn.arguments) };
  });
}

function parseTools(raw: unknown): ToolSpec[] {
  if (!Array.isArray(raw)) return [];
  const tools: ToolSpec[] = [];
  for (const t of raw) {
    if (!isObject(t)) continue;
    if (isObject(t.function) && typeof t.function.name === 'string') {
      tools.push({
        name: t.function.name,
        kind: 'function',
        ...(typeof t.function.description === 'string' ? { description: t.function.description } : {}),
        ...(t.function.parameters !== undefined ? { parameters: t.function.parameters } : {}),
      });
    } else if (t.type === 'custom' && isObject(t.custom) && typeof t.custom.name === 'string') {
      tools.push({ name: t.custom.name, kind: 'custom', ...(typeof t.custom.description === 'string' ? { description: t.custom.description } : {}) });
    }
  }
  return tools;
}

function parse(body: unknown): Conversation {
  if (!isObject(body)) throw new Error('the body is not a JSON object');
  if (!Array.isArray(body.messages)) throw new Error('no messages[]');
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const m of body.messages) {
    if (!isObject(m)) throw new Error('a message is not an object');
    const text = contentText(m.content);
    switch (m.role) {
      case 'system':
      case 'developer':
        system.push(text);
        break;
      case 'user':
        turns.push({ role: 'user', text });
        break;
      case 'assistant': {
        const toolCalls = parseToolCalls(m.tool_calls);
        turns.push({ role: 'assistant', text, ...(toolCalls.length ? { toolCalls } : {}) });
        break;
      }
      case 'tool':
      case 'function': {
        const result: ToolResult = { callId: str(m.tool_call_id) || str(m.name), output: text };
        turns.push({ role: 'tool', text: '', toolResults: [result] });
        break;
      }
      default:
        throw new Error(`unknown message role ${JSON.stringify(m.role)}`);
    }
  }
  const streamOptions = isObject(body.stream_options) ? body.stream_options : {};
  const conversation: Conversation = {
    protocol: 'chat-completions',
    model: typeof body.model === 'string' ? body.model : '',
    system: system.join('\n\n'),
    turns,
    tools: parseTools(body.tools),
    stream: body.stream === true,
  };
  extras.set(conversation, { includeUsage: streamOptions.include_usage === true });
  return conversation;
}

/** OpenAI's usage object: `prompt_tokens` includes the cached tokens. */
function usageJson(usage: Usage): Json {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cachedInput, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

const argsText = (call: ToolCall): string => (typeof call.args === 'string' ? call.args : JSON.stringify(call.args));

/** Splits a string in two (so clients must join deltas); empty and one-character strings stay whole. */
function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const cut = Math.ceil(s.length / 2);
  return [s.slice(0, cut), s.slice(cut)];
}

function respond(res: http.ServerResponse, conversation: Conversation, reply: Reply, usage: Usage): void {
  const id = `chatcmpl-sweci${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = conversation.model || 'sweci-model';
  const text = reply.actions.flatMap((a) => (a.kind === 'text' ? [a.text] : [])).join('');
  const calls = reply.actions.flatMap((a) => (a.kind === 'tool' ? [a.call] : []));
  const finishReason = calls.length ? 'tool_calls' : 'stop';

  if (!conversation.stream) {
    const message: Json = {
      role: 'assistant',
      content: text === '' && calls.length ? null : text,
      refusal: null,
      ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argsText(c) } })) } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
        usage: usageJson(usage),
        system_fingerprint: 'fp_sweci',
      }),
    );
    return;
  }

  const chunk = (choices: unknown[], extra: Json = {}): Json => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'fp_sweci',
    choices,
    ...extra,
  });
  const delta = (d: Json, finish: string | null = null): unknown[] => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
  startSse(res);
  sse(res, chunk(delta({ role: 'assistant', content: '', refusal: null })));
  for (const piece of text ? halves(text) : []) sse(res, chunk(delta({ content: piece })));
  calls.forEach((c, index) => {
    sse(res, chunk(delta({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })));
    for (const piece of halves(argsText(c))) sse(res, chunk(delta({ tool_calls: [{ index, function: { arguments: piece } }] })));
  });
  sse(res, chunk(delta({}, finishReason)));
  if (extras.get(conversation)?.includeUsage) sse(res, chunk([], { usage: usageJson(usage) }));
  sse(res, '[DONE]');
  res.end();
}

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
function errorBody(status: number, message: string): unknown {
  const [type, code]: [string, string | null] =
    status === 401
      ? ['invalid_request_error', 'invalid_api_key']
      : status === 403
        ? ['invalid_request_error', 'unsupported_country_region_territory']
        : status === 404
          ? ['invalid_request_error', 'model_not_found']
          : status === 429
            ? ['requests', 'rate_limit_exceeded']
            : status >= 500
              ? ['server_error', null]
              : ['invalid_request_error', null];
  return { error: { message, type, param: null, code } };
}

export const chatCompletionsAdapter: ProtocolAdapter = {
  protocol: 'chat-completions',
  matches: (method, url) => method === 'POST' && /\/chat\/completions\/?$/.test(url.pathname),
  parse: (body) => parse(body),
  respond,
  errorBody,
};
