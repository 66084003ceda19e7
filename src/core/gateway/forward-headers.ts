// The headers that cross the gateway. Towards the upstream: the client's own headers without the
// hop-by-hop ones, without any key (the token), with the real key where the protocol wants it, and
// with `accept-encoding: identity` so the copy the gateway reassembles is plain text. Towards the
// client: the upstream's headers without the hop-by-hop ones.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { WireProtocol } from './wire-protocol';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const KEY_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);

/** Headers a `Connection:` header names are hop-by-hop too. */
function connectionNamed(headers: IncomingHttpHeaders): Set<string> {
  const c = headers.connection;
  return new Set(
    (typeof c === 'string' ? c : '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

export function authHeaders(protocol: WireProtocol, key: string): OutgoingHttpHeaders {
  switch (protocol) {
    case 'anthropic-messages':
      return { 'x-api-key': key };
    case 'gemini':
      return { 'x-goog-api-key': key };
    case 'openai-responses':
    case 'chat-completions':
      return { authorization: `Bearer ${key}` };
  }
}

export function upstreamHeaders(incoming: IncomingHttpHeaders, protocol: WireProtocol, key: string, bodyLength: number | undefined): OutgoingHttpHeaders {
  const named = connectionNamed(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || KEY_HEADERS.has(name)) continue;
    if (name === 'host' || name === 'content-length' || name === 'accept-encoding') continue;
    out[name] = value;
  }
  out['accept-encoding'] = 'identity';
  if (bodyLength !== undefined) out['content-length'] = bodyLength;
  return { ...out, ...authHeaders(protocol, key) };
}

export function clientHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = connectionNamed(upstream);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}
