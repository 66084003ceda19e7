// The stand-in model: a scripted model server on 127.0.0.1 only, never another address. The demo
// (scripts/demo.ts) runs one as its agents' model, so the gateway, transcripts and replay work
// without a key; the tests run it for the agent conformance and gateway tests. It speaks the four
// wire protocols the agent CLIs use (Anthropic Messages, OpenAI Responses, Chat Completions,
// Gemini), streamed or not, with tool calls; a brain (the demo's or the test's script) decides
// each reply. It records every request and the usage it reported, so a test can compare the
// tokens the harness recorded with what the server really sent.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Brain, Conversation, Protocol, Reply, Usage } from './conversation';

/** One protocol: which requests it serves, how it reads them and how it answers. */
export interface ProtocolAdapter {
  protocol: Protocol;
  matches(method: string, url: URL): boolean;
  /** The conversation of a request body (already parsed JSON). Throws on a body it cannot read. */
  parse(body: unknown, url: URL): Conversation;
  /** Writes the reply, streamed when the conversation asked for it, with `usage`. */
  respond(res: http.ServerResponse, conversation: Conversation, reply: Reply, usage: Usage): void;
  /** The protocol's error body for a status and message. */
  errorBody(status: number, message: string): unknown;
}

export interface RecordedRequest {
  protocol: Protocol | 'other';
  method: string;
  path: string;
  model?: string;
  tools?: string[];
  /** A request that offered no tools (titles, routers, summaries): answered with zero usage by default. */
  sideCall?: boolean;
  usage?: Usage;
  /** The brain's label for the reply (e.g. the role). */
  label?: string;
  /** The outputs of the tool results this request carried in its last turn (clipped), to see what a tool really did. */
  toolOutputs?: string[];
  status: number;
  /** Header names the client sent (never values: they may hold keys). */
  headerNames: string[];
  /** The key the client sent (x-api-key, Bearer, x-goog-api-key or ?key=), for the tests of key plumbing. */
  key?: string;
  /** The query string as received (without the leading '?'), when there was one. */
  query?: string;
  /** The request body as parsed JSON (model calls), to compare with what a proxy recorded. */
  body?: unknown;
  /** A fault the brain asked for instead of an answer ('reset', 'hang', 'stall'). */
  fault?: string;
}

export interface ModelServerOptions {
  brain: Brain;
  adapters: readonly ProtocolAdapter[];
  /** Requests with another key are refused with 401 (default: any key is taken). */
  requireKey?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Called once a request is answered (a log file, when the server runs in its own process). */
  onRecorded?: (request: RecordedRequest) => void;
}

export interface ModelServer {
  /** http://127.0.0.1:<port> (no path). */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** Usage reported so far, summed (optionally for one protocol). */
  reported(protocol?: Protocol): Usage;
  close(): Promise<void>;
}

/** A reply's usage when the brain gave none: side calls cost nothing, others grow with the conversation. */
export function defaultUsage(conversation: Conversation): Usage {
  if (conversation.tools.length === 0) return { input: 0, cachedInput: 0, output: 0 };
  const n = conversation.turns.length;
  return { input: 1000 + 100 * n, cachedInput: n > 1 ? 200 : 0, output: 30 + 7 * n };
}

function keyOf(req: http.IncomingMessage, url: URL): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  for (const h of ['x-api-key', 'x-goog-api-key', 'api-key']) {
    const v = req.headers[h];
    if (typeof v === 'string') return v;
  }
  return url.searchParams.get('key') ?? undefined;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const record: RecordedRequest = {
      protocol: 'other',
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      status: 200,
      headerNames: Object.keys(req.headers).sort(),
    };
    requests.push(record);
    void handle(req, res, record)
      .catch((err: unknown) => {
        record.status = 500;
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      })
      .finally(() => options.onRecorded?.(record));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedRequest): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const key = keyOf(req, url);
    record.path = url.pathname;
    if (url.search) record.query = url.search.slice(1);
    if (key) record.key = key;
    const adapter = options.adapters.find((a) => a.matches(method, url));
    const refuse = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!adapter) {
      // Reachability probes (HEAD /, model lists) answer 200; anything else is unknown here.
      if (method === 'HEAD' || (method === 'GET' && /\/models\/?$/.test(url.pathname))) {
        if (options.requireKey !== undefined && key !== options.requireKey && url.pathname !== '/')
          return refuse(401, { error: { message: 'invalid api key' } });
        record.status = 200;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(method === 'HEAD' ? undefined : JSON.stringify({ object: 'list', data: [], models: [] }));
        return;
      }
      return refuse(404, { error: { message: `no route for ${method} ${url.pathname}` } });
    }
    record.protocol = adapter.protocol;
    if (options.requireKey !== undefined && key !== options.requireKey) return refuse(401, adapter.errorBody(401, 'invalid api key'));
    let conversation: Conversation;
    try {
      const body = text ? (JSON.parse(text) as unknown) : {};
      record.body = body;
      conversation = adapter.parse(body, url);
    } catch (err) {
      return refuse(400, adapter.errorBody(400, `unreadable request: ${String(err)}`));
    }
    record.model = conversation.model;
    record.tools = conversation.tools.map((t) => t.name);
    record.sideCall = conversation.tools.length === 0;
    const lastResults = conversation.turns.filter((t) => t.role !== 'assistant').flatMap((t) => t.toolResults ?? []);
    if (lastResults.length > 0) record.toolOutputs = lastResults.slice(-1).map((r) => r.output.slice(0, 2000));
    const reply = options.brain(conversation);
    if (reply.httpError) return refuse(reply.httpError.status, adapter.errorBody(reply.httpError.status, reply.httpError.message), reply.httpError.headers);
    if (reply.fault === 'reset' || reply.fault === 'hang') {
      record.status = 0;
      record.fault = reply.fault;
      if (reply.fault === 'reset') req.socket.destroy();
      return;
    }
    const usage = reply.usage ?? defaultUsage(conversation);
    record.usage = usage;
    if (reply.label) record.label = reply.label;
    if (reply.fault) record.fault = reply.fault;
    adapter.respond(reply.paceMs || reply.fault === 'stall' ? pacedResponse(res, reply.paceMs ?? 0, reply.fault === 'stall') : res, conversation, reply, usage);
  }

  // Clients that try a websocket first (codex) are told no, so they fall back to plain HTTP.
  server.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    reported(protocol?: Protocol): Usage {
      const total: Usage = { input: 0, cachedInput: 0, output: 0 };
      for (const r of requests) {
        if (!r.usage || (protocol && r.protocol !== protocol)) continue;
        total.input += r.usage.input;
        total.cachedInput += r.usage.cachedInput;
        total.output += r.usage.output;
      }
      return total;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A response whose writes wait `paceMs` each (a slow stream) or, `stall`ing, stop after the first
 * one: the headers go out at once, the rest never does (the connection stays open).
 */
function pacedResponse(res: http.ServerResponse, paceMs: number, stall: boolean): http.ServerResponse {
  let chain = Promise.resolve();
  let writes = 0;
  const later = (fn: () => void) => {
    chain = chain
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, paceMs)))
      .then(() => {
        if (!res.destroyed) fn();
      });
  };
  return new Proxy(res, {
    get(target, prop) {
      if (prop === 'writeHead')
        return (...args: Parameters<http.ServerResponse['writeHead']>) => {
          target.writeHead(...args);
          target.flushHeaders();
          return target;
        };
      if (prop === 'write')
        return (chunk: string | Buffer) => {
          if (stall && writes++ > 0) return true;
          later(() => target.write(chunk));
          return true;
        };
      if (prop === 'end')
        return (chunk?: string | Buffer) => {
          if (stall) {
            if (writes++ === 0 && chunk !== undefined) later(() => target.write(chunk));
            return target;
          }
          later(() => (chunk === undefined ? target.end() : target.end(chunk)));
          return target;
        };
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** Writes one server-sent event (`event:` line only when named). */
export function sse(res: http.ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

export function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}
