// Where a request goes and what it is, per wire protocol. The agent's client is configured with
// the gateway as its base URL the way that protocol's clients expect one (endpoint.ts, urlFor):
//   Anthropic, Gemini      base http://127.0.0.1:P      the client asks /v1/messages, /v1beta/models/…
//   OpenAI-style (2)       base http://127.0.0.1:P/v1   the client asks /v1/responses, /v1/chat/completions
// and `upstream.url` is the user's base URL in the same form. So for Anthropic and Gemini the
// request path is appended to the upstream URL as it is, and for the OpenAI-style protocols the
// gateway's own `/v1` is taken off first (the upstream URL already ends in its version, which may
// be another one: …/api/paas/v4).
import type { WireProtocol } from './wire-protocol';
import { isRecord } from '../util/is-record';

const openAiStyle = (p: WireProtocol): boolean => p === 'openai-responses' || p === 'chat-completions';

/** The base URL an agent of `protocol` is given for a gateway reached at `origin` (http://host:port). */
export function clientBaseUrl(protocol: WireProtocol, origin: string): string {
  const o = origin.replace(/\/+$/, '');
  return openAiStyle(protocol) ? `${o}/v1` : o;
}

/** The upstream URL for a request path (pathname and query, the key already taken out of it). */
export function upstreamUrl(protocol: WireProtocol, upstreamBase: string, requestPath: string): string {
  const base = upstreamBase.replace(/\/+$/, '');
  let rest = requestPath.startsWith('/') ? requestPath : `/${requestPath}`;
  if (openAiStyle(protocol) && /^\/v1(?=[/?]|$)/.test(rest)) rest = rest.slice(3);
  return rest === '' || rest === '/' ? base : base + rest;
}

const GEMINI_ROUTE = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Whether a request asks the model for an answer (counted as a model call, read for usage). */
export function isModelCall(protocol: WireProtocol, method: string, pathname: string): boolean {
  if (method !== 'POST') return false;
  const p = pathname.replace(/\/+$/, '');
  switch (protocol) {
    case 'anthropic-messages':
      return /\/messages$/.test(p);
    case 'openai-responses':
      return /\/responses$/.test(p);
    case 'chat-completions':
      return /\/chat\/completions$/.test(p);
    case 'gemini':
      return GEMINI_ROUTE.test(p);
  }
}

/**
 * Whether the gateway forwards a request at all: a model call, the model list, or a token count.
 * Nothing else of the provider's API (files, batches, fine-tuning, keys) is the agent's to use
 * with the user's key.
 */
export function isForwardedPath(protocol: WireProtocol, method: string, pathname: string): boolean {
  if (isModelCall(protocol, method, pathname)) return true;
  const p = pathname.replace(/\/+$/, '');
  if (method === 'GET' && /\/models(\/[^/]+)?$/.test(p)) return true;
  if (method !== 'POST') return false;
  return protocol === 'anthropic-messages' ? /\/messages\/count_tokens$/.test(p) : protocol === 'gemini' && /\/models\/[^/:]+:countTokens$/.test(p);
}

/** The model a request names: in the body, or in the path for Gemini. */
export function modelOf(protocol: WireProtocol, pathname: string, body: unknown): string | undefined {
  if (protocol === 'gemini') {
    const m = /\/models\/([^/:]+):/.exec(pathname);
    if (m) return decodeURIComponent(m[1]);
  }
  return isRecord(body) && typeof body.model === 'string' ? body.model : undefined;
}

/** Whether the client asked for a stream (SSE). */
export function asksStream(protocol: WireProtocol, pathname: string, body: unknown): boolean {
  if (protocol === 'gemini') return /:streamGenerateContent$/.test(pathname);
  return isRecord(body) && body.stream === true;
}

/**
 * For a request whose token matched no try, which protocol's error shape to answer in: guessed
 * from the path and the header the key came in.
 */
export function guessProtocol(pathname: string, headers: Record<string, unknown>): WireProtocol {
  if (/\/messages(\/count_tokens)?\/?$/.test(pathname) || headers['anthropic-version'] !== undefined) return 'anthropic-messages';
  if (/\/models\/[^/]+:\w+$/.test(pathname) || headers['x-goog-api-key'] !== undefined) return 'gemini';
  if (/\/responses\/?$/.test(pathname)) return 'openai-responses';
  return 'chat-completions';
}
