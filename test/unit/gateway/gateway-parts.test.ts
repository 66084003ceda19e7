// The gateway's small parts on their own: SSE split anywhere, path mapping, Retry-After, the first
// difference as a JSON path, the record cap, and usage conventions per protocol.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { CallsFile } from '../../../src/core/gateway/calls-file';
import { upstreamUrl } from '../../../src/core/gateway/protocol-routes';
import { MASK, SecretMask } from '../../../src/core/util/secret-mask';
import { unreplayable } from '../../../src/core/gateway/replay-answer';
import { firstDifference } from '../../../src/core/gateway/json-difference';
import { retryDelayMs, DEFAULT_RETRY } from '../../../src/core/gateway/retry-policy';
import { SseReader } from '../../../src/core/gateway/sse-reader';
import { reassemble } from '../../../src/core/gateway/answers/answer';
import { gatewayCallSchema, type GatewayCall } from '../../../src/core/records/gateway-call';

test('SSE events come out whole however the bytes are split (CRLF, a UTF-8 character cut in two)', () => {
  const text = 'event: a\r\ndata: {"t":"é"}\r\n\r\n: comment\ndata: one\ndata: two\n\ndata: [DONE]\n\n';
  const bytes = Buffer.from(text);
  for (let size = 1; size <= bytes.length; size++) {
    const r = new SseReader();
    const events = [];
    for (let i = 0; i < bytes.length; i += size) events.push(...r.push(bytes.subarray(i, i + size)));
    events.push(...r.end());
    assert.deepEqual(events, [{ event: 'a', data: '{"t":"é"}' }, { data: 'one\ntwo' }, { data: '[DONE]' }], `chunks of ${size}`);
  }
});

test('path mapping: OpenAI-style drops the gateway /v1, the others append as asked', () => {
  assert.equal(
    upstreamUrl('chat-completions', 'https://open.bigmodel.cn/api/paas/v4', '/v1/chat/completions'),
    'https://open.bigmodel.cn/api/paas/v4/chat/completions',
  );
  assert.equal(upstreamUrl('openai-responses', 'https://api.openai.com/v1/', '/v1/responses'), 'https://api.openai.com/v1/responses');
  assert.equal(upstreamUrl('chat-completions', 'http://h/v1', '/v1/models'), 'http://h/v1/models');
  assert.equal(upstreamUrl('chat-completions', 'http://h/v1', '/v1'), 'http://h/v1');
  assert.equal(upstreamUrl('chat-completions', 'http://h/v1', '/v10/x'), 'http://h/v1/v10/x');
  assert.equal(upstreamUrl('anthropic-messages', 'https://openrouter.ai/api', '/v1/messages?beta=true'), 'https://openrouter.ai/api/v1/messages?beta=true');
  assert.equal(
    upstreamUrl('gemini', 'https://generativelanguage.googleapis.com', '/v1beta/models/g:streamGenerateContent?alt=sse'),
    'https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse',
  );
});

test('backoff doubles; Retry-After (seconds or a date) and retry-after-ms win; the cap holds', () => {
  const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 5000 };
  assert.deepEqual(
    [0, 1, 2, 3, 10].map((i) => retryDelayMs(p, i)),
    [100, 200, 400, 800, 5000],
  );
  assert.equal(retryDelayMs(p, 0, { 'retry-after': '2' }), 2000);
  assert.equal(retryDelayMs(p, 0, { 'retry-after': '600' }), 5000);
  assert.equal(retryDelayMs(p, 0, { 'retry-after-ms': '250' }), 250);
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(retryDelayMs(p, 0, { 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, now), 3000);
});

test('the first difference is named by its JSON path', () => {
  assert.equal(firstDifference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }, '$'), '$.a[1].b: "y" now, "x" recorded');
  assert.equal(firstDifference({ a: [1] }, { a: [1, 2] }, '$'), '$.a: 2 items now, 1 recorded');
  assert.equal(firstDifference({ 'odd key': 1 }, {}, '$'), '$["odd key"]: missing now, 1 recorded');
  assert.equal(firstDifference({}, { n: true }, '$'), '$.n: true now, missing in the recording');
  assert.equal(firstDifference({ a: 1 }, { a: 1 }, '$'), undefined);
});

test('keys are masked raw and as JSON escapes them', () => {
  const r = new SecretMask(['sk-with"quote-123', 'short']);
  assert.equal(r.mask(JSON.stringify({ k: 'sk-with"quote-123', s: 'short' })), `{"k":"${MASK}","s":"short"}`);
});

const call = (extra: Partial<GatewayCall> = {}): GatewayCall => ({
  call: 1,
  protocol: 'chat-completions',
  kind: 'model',
  method: 'POST',
  path: '/v1/chat/completions',
  stream: false,
  status: 200,
  usage: { input: 1, output: 1, cached: 0, reasoning: 0 },
  ms: 1,
  retries: 0,
  request: { messages: [{ role: 'user', content: 'x'.repeat(3000) }] },
  response: { text: 'y'.repeat(3000), toolCalls: [] },
  raw: { status: 200, contentType: 'application/json', body: 'z'.repeat(3000), encoding: 'utf8' },
  ...extra,
});

/** The line a calls file with this cap writes for the call. */
async function callLine(c: GatewayCall, redact: SecretMask, cap: number): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-calls-'));
  try {
    const file = new CallsFile(path.join(dir, 'calls.jsonl'), redact, { lineCap: cap });
    file.append(c);
    await file.flushed();
    assert.equal(file.writeError, undefined);
    return await fs.readFile(file.file, 'utf8');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

test('a record over the cap drops the raw answer, then the request, then cuts the text, and says it cannot be replayed', async () => {
  const none = new SecretMask([]);
  assert.equal((JSON.parse(await callLine(call(), none, 100_000)) as GatewayCall).truncated, undefined);
  const one = gatewayCallSchema.parse(JSON.parse(await callLine(call(), none, 7000)));
  assert.equal(one.raw, undefined);
  assert.ok(one.request !== undefined);
  assert.match(one.truncated ?? '', /the raw answer dropped; this call cannot be replayed/);
  assert.match(unreplayable(one) ?? '', /its record was cut/);
  const two = gatewayCallSchema.parse(JSON.parse(await callLine(call(), none, 4000)));
  assert.equal(two.request, undefined);
  const three = gatewayCallSchema.parse(JSON.parse(await callLine(call(), none, 1500)));
  assert.ok((three.response?.text.length ?? 0) <= 375);
  assert.ok(Buffer.byteLength(await callLine(call(), none, 1500)) <= 1500);
});

test('usage conventions: input holds the cache, output holds reasoning, for each protocol', () => {
  const sse = (events: unknown[]) => Buffer.from(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
  const anthropic = reassemble(
    'anthropic-messages',
    'text/event-stream',
    sse([
      {
        type: 'message_start',
        message: { model: 'm', usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 1 } },
      },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } },
    ]),
  );
  assert.deepEqual(anthropic.usage, { input: 115, output: 42, cached: 100, reasoning: 0 });
  const responses = reassemble(
    'openai-responses',
    'application/json',
    Buffer.from(
      JSON.stringify({
        object: 'response',
        status: 'completed',
        output: [],
        usage: { input_tokens: 50, input_tokens_details: { cached_tokens: 20 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 12 } },
      }),
    ),
  );
  assert.deepEqual(responses.usage, { input: 50, output: 30, cached: 20, reasoning: 12 });
  const chat = reassemble(
    'chat-completions',
    'text/event-stream',
    sse([
      { choices: [{ index: 0, delta: { content: 'hi' } }] },
      {
        choices: [],
        usage: { prompt_tokens: 9, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 3 }, completion_tokens_details: { reasoning_tokens: 2 } },
      },
    ]),
  );
  assert.deepEqual([chat.text, chat.usage], ['hi', { input: 9, output: 4, cached: 3, reasoning: 2 }]);
  const gemini = reassemble(
    'gemini',
    'text/event-stream',
    sse([
      {
        candidates: [{ content: { parts: [{ text: 'thinking', thought: true }, { text: 'a' }] } }],
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1 },
      },
      {
        candidates: [{ content: { parts: [{ text: 'b' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 7, cachedContentTokenCount: 2, candidatesTokenCount: 3, thoughtsTokenCount: 5 },
      },
    ]),
  );
  assert.deepEqual([gemini.text, gemini.stopReason, gemini.usage], ['ab', 'STOP', { input: 7, output: 8, cached: 2, reasoning: 5 }]);
});
