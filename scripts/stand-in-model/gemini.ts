// The Gemini API as gemini (Gemini CLI) speaks it: `POST /v1beta/models/<model>:generateContent`
// (plain JSON: the CLI's side calls) and `…:streamGenerateContent?alt=sse` (SSE, each `data:` a
// GenerateContentResponse). Tool calls are `functionCall` parts; their results come back as
// `functionResponse` parts of a user turn. Gemini's promptTokenCount includes cached tokens, like
// the server's `Usage.input`.
import type * as http from 'node:http';
import type { Conversation, Reply, ToolCall, ToolResult, ToolSpec, Turn, Usage } from './conversation';
import type { ProtocolAdapter } from './model-server';
import { sse, startSse } from './model-server';
import { type Json, isObject, str } from './wire';

/** `…/models/<model>:<method>`, the model possibly URL-encoded. */
const ROUTE = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

function route(url: URL): { model: string; method: string } | undefined {
  const m = ROUTE.exec(url.pathname);
  return m ? { model: decodeURIComponent(m[1]), method: m[2] } : undefined;
}

function partsOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) return content.flatMap((c) => (typeof c === 'string' ? [{ text: c }] : isObject(c) && !('parts' in c) ? [c] : partsOf(c)));
  if (isObject(content) && Array.isArray(content.parts)) return content.parts.filter(isObject);
  return [];
}

/** Text parts joined, thoughts left out. */
const textOf = (parts: Json[]): string =>
  parts
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => str(p.text))
    .join('');

function resultOf(part: Json): ToolResult {
  const fr = isObject(part.functionResponse) ? part.functionResponse : {};
  const response = fr.response;
  let output: string;
  let isError = false;
  if (isObject(response) && typeof response.output === 'string') output = response.output;
  else if (isObject(response) && response.error !== undefined) {
    output = typeof response.error === 'string' ? response.error : JSON.stringify(response.error);
    isError = true;
  } else if (typeof response === 'string') output = response;
  else output = JSON.stringify(response ?? null);
  return { callId: str(fr.id) || str(fr.name), output, ...(isError ? { isError } : {}) };
}

function parseContent(content: unknown): Turn[] {
  if (!isObject(content)) throw new Error('a content is not an object');
  const parts = partsOf(content);
  const text = textOf(parts);
  if (content.role === 'model') {
    const toolCalls: ToolCall[] = parts
      .filter((p) => isObject(p.functionCall))
      .map((p) => {
        const fc = p.functionCall as Json;
        return { id: str(fc.id) || str(fc.name), name: str(fc.name), args: isObject(fc.args) ? fc.args : {} };
      });
    return [{ role: 'assistant', text, ...(toolCalls.length > 0 ? { toolCalls } : {}) }];
  }
  const toolResults = parts.filter((p) => isObject(p.functionResponse)).map(resultOf);
  const turns: Turn[] = [];
  if (toolResults.length > 0) turns.push({ role: 'tool', text: '', toolResults });
  if (toolResults.length === 0 || text !== '') turns.push({ role: 'user', text });
  return turns;
}

function parseTools(tools: unknown): ToolSpec[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .filter(isObject)
    .flatMap((t) => (Array.isArray(t.functionDeclarations) ? t.functionDeclarations.filter(isObject) : []))
    .map((d) => ({
      name: str(d.name),
      kind: 'function' as const,
      ...(typeof d.description === 'string' ? { description: d.description } : {}),
      ...(d.parametersJsonSchema !== undefined ? { parameters: d.parametersJsonSchema } : d.parameters !== undefined ? { parameters: d.parameters } : {}),
    }));
}

/** Gemini's usageMetadata: promptTokenCount includes the cached tokens. */
export function geminiUsage(usage: Usage): {
  promptTokenCount: number;
  cachedContentTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
} {
  return {
    promptTokenCount: usage.input,
    cachedContentTokenCount: usage.cachedInput,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.output,
  };
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Conversations parsed from `…:countTokens` (answered with a count, not a reply). */
const countRequests = new WeakSet<Conversation>();

let nextResponse = 1;

function part(action: Reply['actions'][number]): Json {
  if (action.kind === 'text') return { text: action.text };
  const args = typeof action.call.args === 'string' ? { input: action.call.args } : action.call.args;
  return { functionCall: { id: action.call.id, name: action.call.name, args } };
}

export const geminiAdapter: ProtocolAdapter = {
  protocol: 'gemini',

  matches(method: string, url: URL): boolean {
    return method === 'POST' && route(url) !== undefined;
  },

  parse(body: unknown, url: URL): Conversation {
    const r = route(url);
    if (!r) throw new Error(`not a Gemini route: ${url.pathname}`);
    if (!isObject(body)) throw new Error('the body is not an object');
    // countTokens wraps its request: {contents} or {generateContentRequest: {contents, …}}.
    const request = isObject(body.generateContentRequest) ? body.generateContentRequest : body;
    const contents: unknown[] = Array.isArray(request.contents)
      ? request.contents
      : typeof request.contents === 'string' || isObject(request.contents)
        ? [request.contents]
        : [];
    const conversation: Conversation = {
      protocol: 'gemini',
      model: r.model.replace(/^models\//, ''),
      system: textOf(partsOf(request.systemInstruction ?? (isObject(request.config) ? request.config.systemInstruction : undefined))),
      turns: contents.map((c) => (typeof c === 'string' ? { role: 'user', parts: [{ text: c }] } : c)).flatMap(parseContent),
      // A token count is no model call: without tools the router books it as a side call (zero usage by default).
      tools: r.method === 'countTokens' ? [] : parseTools(request.tools),
      stream: r.method === 'streamGenerateContent',
    };
    if (r.method === 'countTokens') countRequests.add(conversation);
    return conversation;
  },

  respond(res: http.ServerResponse, conversation: Conversation, reply: Reply, usage: Usage): void {
    if (countRequests.has(conversation)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: Math.max(1, Math.ceil((conversation.system.length + JSON.stringify(conversation.turns).length) / 4)) }));
      return;
    }
    const responseId = `sweci${String(nextResponse++).padStart(6, '0')}`;
    const parts = reply.actions.map(part);
    const finishReason = 'STOP';
    const usageMetadata = geminiUsage(usage);
    const response = (chunkParts: Json[], last: boolean): Json => ({
      candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last ? { finishReason } : {}) }],
      ...(last ? { usageMetadata } : {}),
      modelVersion: conversation.model,
      responseId,
    });
    if (!conversation.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response(parts, true)));
      return;
    }
    startSse(res);
    // One event per part; the last carries finishReason and usageMetadata (the CLI wants a finish reason).
    if (parts.length === 0) sse(res, response([{ text: '' }], true));
    parts.forEach((p, i) => sse(res, response([p], i === parts.length - 1)));
    res.end();
  },

  errorBody(status: number, message: string): unknown {
    return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
  },
};
