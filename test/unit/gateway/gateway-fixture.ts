// What the gateway tests share: the project's scripted model server as the upstream (its brain
// plays a script of replies), a gateway in a temporary folder, one request per protocol as that
// protocol's clients send it, and a plain HTTP client that notes when each chunk arrived.
import * as http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WireProtocol } from '../../../src/core/agents/endpoint/endpoint';
import { urlFor } from '../../../src/core/agents/endpoint/endpoint';
import { ModelGateway, clientBaseUrl } from '../../../src/core/gateway';
import { ALL_ADAPTERS } from '../../../scripts/stand-in-model/adapters';
import type { Reply, Usage } from '../../../scripts/stand-in-model/conversation';
import { startModelServer, type ModelServer } from '../../../scripts/stand-in-model/model-server';

export const PROTOCOLS: readonly WireProtocol[] = ['anthropic-messages', 'openai-responses', 'chat-completions', 'gemini'];
export const REAL_KEY = 'sk-real-upstream-key-0123456789abcdef';
export const USAGE: Usage = { input: 1234, cachedInput: 200, output: 56 };
export const TEXT = 'I will write the file now.';

/** A reply with text and one tool call, and fixed usage. */
export function answer(extra: Partial<Reply> = {}): Reply {
  return {
    actions: [
      { kind: 'text', text: TEXT },
      { kind: 'tool', call: { id: 'call_1', name: 'write_file', args: { path: 'a.py', content: 'print(1)\n' } } },
    ],
    usage: USAGE,
    ...extra,
  };
}

export interface Upstream {
  server: ModelServer;
  /** Replies still to give, in order; when empty, `answer()`. */
  script: Reply[];
}

export async function startUpstream(script: Reply[] = []): Promise<Upstream> {
  const up: Upstream = { server: undefined as unknown as ModelServer, script };
  up.server = await startModelServer({ brain: () => up.script.shift() ?? answer(), adapters: ALL_ADAPTERS, requireKey: REAL_KEY });
  return up;
}

export interface Rig {
  dir: string;
  gateway: ModelGateway;
  /** The upstream as the protocol's clients want its URL (what the harness passes as upstream.url). */
  upstreamUrl(protocol: WireProtocol): string;
  callsFile(name: string): string;
  close(): Promise<void>;
}

export async function startRig(up: Upstream | undefined): Promise<Rig> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sweci-gw-'));
  const gateway = await ModelGateway.start({ socketPath: path.join(dir, 'gw.sock'), tcp: true });
  return {
    dir,
    gateway,
    upstreamUrl: (protocol) => urlFor(protocol, up ? up.server.origin : 'http://127.0.0.1:9'),
    callsFile: (name) => path.join(dir, 'calls', `${name}.calls.jsonl`),
    async close() {
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface WireRequest {
  method: string;
  /** Below the client's base URL. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface RequestOptions {
  stream: boolean;
  token: string;
  prompt?: string;
  /** Chat Completions: ask for usage in the stream (default: as the CLIs do, yes). */
  includeUsage?: boolean;
  /** Gemini: send the key as ?key= instead of the header. */
  keyInQuery?: boolean;
  /** Earlier turns, in the protocol's own message shape, before the prompt. */
  history?: unknown[];
}

/** One model request as the protocol's clients send it: a system prompt, a user prompt, a tool. */
export function modelRequest(protocol: WireProtocol, o: RequestOptions): WireRequest {
  const prompt = o.prompt ?? 'Write a.py.';
  const json = { 'content-type': 'application/json' };
  switch (protocol) {
    case 'anthropic-messages':
      return {
        method: 'POST',
        path: '/v1/messages?beta=true',
        headers: { ...json, 'x-api-key': o.token, 'anthropic-version': '2023-06-01' },
        body: {
          model: 'claude-sonnet-4-5',
          max_tokens: 1000,
          stream: o.stream,
          system: [{ type: 'text', text: `You are an agent. Today is ${Date.now()}.` }],
          messages: [...(o.history ?? []), { role: 'user', content: [{ type: 'text', text: prompt, cache_control: { type: 'ephemeral' } }] }],
          tools: [{ name: 'write_file', description: 'write a file', input_schema: { type: 'object' } }],
          metadata: { user_id: `session-${Math.random()}` },
        },
      };
    case 'openai-responses':
      return {
        method: 'POST',
        path: '/responses',
        headers: { ...json, authorization: `Bearer ${o.token}` },
        body: {
          model: 'gpt-5-codex',
          instructions: `You are an agent. Today is ${Date.now()}.`,
          input: [...(o.history ?? []), { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }],
          tools: [{ type: 'function', name: 'write_file', parameters: { type: 'object' } }],
          stream: o.stream,
          prompt_cache_key: `c-${Math.random()}`,
        },
      };
    case 'chat-completions':
      return {
        method: 'POST',
        path: '/chat/completions',
        headers: { ...json, authorization: `Bearer ${o.token}` },
        body: {
          model: 'qwen3-coder-plus',
          messages: [{ role: 'system', content: `You are an agent. Today is ${Date.now()}.` }, ...(o.history ?? []), { role: 'user', content: prompt }],
          tools: [{ type: 'function', function: { name: 'write_file', parameters: { type: 'object' } } }],
          stream: o.stream,
          ...(o.stream && o.includeUsage !== false ? { stream_options: { include_usage: true } } : {}),
          temperature: Math.random(),
        },
      };
    case 'gemini': {
      const method = o.stream ? 'streamGenerateContent' : 'generateContent';
      const query = [o.stream ? 'alt=sse' : '', o.keyInQuery ? `key=${o.token}` : ''].filter(Boolean).join('&');
      return {
        method: 'POST',
        path: `/v1beta/models/gemini-2.5-pro:${method}${query ? `?${query}` : ''}`,
        headers: { ...json, ...(o.keyInQuery ? {} : { 'x-goog-api-key': o.token }) },
        body: {
          contents: [...(o.history ?? []), { role: 'user', parts: [{ text: prompt }] }],
          systemInstruction: { parts: [{ text: `You are an agent. Today is ${Date.now()}.` }] },
          tools: [{ functionDeclarations: [{ name: 'write_file', parameters: { type: 'object' } }] }],
        },
      };
    }
  }
}

export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** ms from the request's end to its first body chunk and to its end. */
  firstChunkMs?: number;
  totalMs: number;
  /** The connection broke before the answer ended. */
  broken?: boolean;
}

/** Where a client reaches the gateway: its TCP origin, or the Unix socket. */
export type Reach = { origin: string } | { socketPath: string };

/** Sends a request the way a client configured with the gateway's base URL for `protocol` would. */
export function send(protocol: WireProtocol, reach: Reach, r: WireRequest, agent?: http.Agent): Promise<WireResponse> {
  const base = new URL(clientBaseUrl(protocol, 'origin' in reach ? reach.origin : 'http://localhost'));
  const target = new URL(base.pathname.replace(/\/$/, '') + r.path, base);
  const body = r.body === undefined ? undefined : Buffer.from(JSON.stringify(r.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...('socketPath' in reach ? { socketPath: reach.socketPath } : { host: target.hostname, port: target.port }),
        method: r.method,
        path: target.pathname + target.search,
        headers: { ...r.headers, ...(body ? { 'content-length': body.length } : {}) },
        agent: agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let firstChunkMs: number | undefined;
        const done = (broken: boolean) => {
          const all = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: all,
            text: all.toString('utf8'),
            ...(firstChunkMs !== undefined ? { firstChunkMs } : {}),
            totalMs: performance.now() - sent,
            ...(broken ? { broken } : {}),
          });
        };
        res.on('data', (c: Buffer) => {
          firstChunkMs ??= performance.now() - sent;
          chunks.push(c);
        });
        res.on('end', () => done(false));
        res.on('error', () => done(true));
      },
    );
    let sent = performance.now();
    req.on('error', reject);
    req.end(body, () => {
      sent = performance.now();
    });
  });
}
