// The Anthropic Messages API as claude (Claude Code) speaks it: `POST /v1/messages?beta=true`,
// streamed (SSE: message_start, content_block_start/delta/stop, message_delta, message_stop) or
// plain JSON. Tool calls are `tool_use` blocks; their results come back as `tool_result` blocks in
// the next user message. Anthropic's `input_tokens` excludes cached tokens, so the server's
// `Usage.input` (which includes them) is split into input_tokens and cache_read_input_tokens.
import type * as http from 'node:http';
import type { Conversation, Reply, ToolCall, ToolResult, ToolSpec, Turn, Usage } from './conversation';
import type { ProtocolAdapter } from './model-server';
import { sse, startSse } from './model-server';
import { type Json, isObject, str } from './wire';

/** Text of a `system` field or a `tool_result` content: a string or a list of blocks (text ones are kept). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .map((b) => (b.type === 'text' ? str(b.text) : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function parseMessage(message: unknown): Turn[] {
  if (!isObject(message)) throw new Error('a message is not an object');
  const role = message.role;
  if (role !== 'user' && role !== 'assistant') throw new Error(`unknown role ${String(role)}`);
  const blocks: Json[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => str(b.text))
    .join('\n');
  if (role === 'assistant') {
    const toolCalls: ToolCall[] = blocks
      .filter((b) => b.type === 'tool_use' || b.type === 'server_tool_use')
      .map((b) => ({ id: str(b.id), name: str(b.name), args: isObject(b.input) ? b.input : {} }));
    return [{ role: 'assistant', text, ...(toolCalls.length > 0 ? { toolCalls } : {}) }];
  }
  const toolResults: ToolResult[] = blocks
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ callId: str(b.tool_use_id), output: textOf(b.content), ...(b.is_error === true ? { isError: true } : {}) }));
  const turns: Turn[] = [];
  if (toolResults.length > 0) turns.push({ role: 'tool', text: '', toolResults });
  if (toolResults.length === 0 || text !== '') turns.push({ role: 'user', text });
  return turns;
}

function parseTool(tool: unknown): ToolSpec {
  if (!isObject(tool)) throw new Error('a tool is not an object');
  return {
    name: str(tool.name) || str(tool.type),
    kind: 'function',
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    ...(tool.input_schema !== undefined ? { parameters: tool.input_schema } : {}),
  };
}

/** Anthropic's usage object: input_tokens excludes the cache (our `input` includes it). */
export function anthropicUsage(usage: Usage): {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
} {
  return {
    input_tokens: Math.max(0, usage.input - usage.cachedInput),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedInput,
    output_tokens: usage.output,
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Conversations parsed from `POST /v1/messages/count_tokens` (answered with a count, not a message). */
const countRequests = new WeakSet<Conversation>();

/** About four characters a token: what a token count answers. */
const estimateTokens = (c: Conversation): number => Math.max(1, Math.ceil((c.system.length + JSON.stringify(c.turns).length) / 4));

let nextMessage = 1;
const messageId = (): string => `msg_sweci${String(nextMessage++).padStart(6, '0')}`;

const inputOf = (call: ToolCall): Record<string, unknown> => (typeof call.args === 'string' ? { input: call.args } : call.args);

function contentBlocks(reply: Reply): Json[] {
  return reply.actions.map((a) =>
    a.kind === 'text' ? { type: 'text', text: a.text } : { type: 'tool_use', id: a.call.id, name: a.call.name, input: inputOf(a.call) },
  );
}

const stopReason = (reply: Reply): string => (reply.actions.some((a) => a.kind === 'tool') ? 'tool_use' : 'end_turn');

export const anthropicAdapter: ProtocolAdapter = {
  protocol: 'anthropic',

  matches(method: string, url: URL): boolean {
    return method === 'POST' && /\/v1\/messages(\/count_tokens)?\/?$/.test(url.pathname);
  },

  parse(body: unknown, url: URL): Conversation {
    if (!isObject(body)) throw new Error('the body is not an object');
    if (!Array.isArray(body.messages)) throw new Error('no messages');
    const turns = body.messages.flatMap(parseMessage);
    const counting = /\/count_tokens\/?$/.test(url.pathname);
    const conversation: Conversation = {
      protocol: 'anthropic',
      model: str(body.model),
      system: textOf(body.system),
      turns,
      // A token count is no model call: without tools the router books it as a side call (zero usage by default).
      tools: Array.isArray(body.tools) && !counting ? body.tools.map(parseTool) : [],
      stream: body.stream === true,
    };
    if (counting) countRequests.add(conversation);
    return conversation;
  },

  respond(res: http.ServerResponse, conversation: Conversation, reply: Reply, usage: Usage): void {
    if (countRequests.has(conversation)) {
      // Token counting: an estimate of the request's size, no model reply.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: estimateTokens(conversation) }));
      return;
    }
    const id = messageId();
    const u = anthropicUsage(usage);
    const blocks = contentBlocks(reply);
    if (!conversation.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model: conversation.model,
          content: blocks,
          stop_reason: stopReason(reply),
          stop_sequence: null,
          usage: u,
        }),
      );
      return;
    }
    startSse(res);
    const event = (data: Json) => sse(res, data, String(data.type));
    event({
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: conversation.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...u, output_tokens: 0 },
      },
    });
    blocks.forEach((block, index) => {
      if (block.type === 'text') {
        event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
      } else {
        event({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
        event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      event({ type: 'content_block_stop', index });
    });
    event({ type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: u });
    event({ type: 'message_stop' });
    res.end();
  },

  errorBody(status: number, message: string): unknown {
    return { type: 'error', error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
  },
};
