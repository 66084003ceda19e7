// The gateway forwards each protocol's calls, streamed or not, to the upstream with the real key
// in place of the try's token, passes the answer through, and records each call with the usage the
// upstream really sent (the scripted model server says what it sent).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { readGatewayCalls } from '../../../src/core/gateway';
import { answer, modelRequest, PROTOCOLS, REAL_KEY, send, startRig, startUpstream, TEXT, USAGE, type Rig, type Upstream } from './gateway-fixture';

/** The server's protocol name for ours. */
const SERVER_PROTOCOL = { 'anthropic-messages': 'anthropic', 'openai-responses': 'openai-responses', 'chat-completions': 'chat-completions', gemini: 'gemini' };

describe('forwarding', () => {
  let up: Upstream;
  let rig: Rig;
  before(async () => {
    up = await startUpstream();
    rig = await startRig(up);
  });
  after(async () => {
    await rig.close();
    await up.server.close();
  });

  for (const protocol of PROTOCOLS) {
    for (const stream of [false, true]) {
      test(`${protocol}, ${stream ? 'streamed' : 'not streamed'}: real key upstream, answer through, usage recorded as sent`, async () => {
        const calls = rig.callsFile(`${protocol}-${stream}`);
        const t = rig.gateway.openTry({ protocol, upstream: { url: rig.upstreamUrl(protocol), key: REAL_KEY }, callsFile: calls, bounds: {} });
        const seen = up.server.requests.length;
        const res = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream, token: t.token }));
        const summary = await t.close();

        assert.equal(res.status, 200, res.text);
        assert.match(res.text, /the file now\./);
        assert.match(res.text, /write_file/);
        if (stream) assert.match(String(res.headers['content-type']), /text\/event-stream/);

        const received = up.server.requests.slice(seen);
        assert.equal(received.length, 1);
        assert.equal(received[0].key, REAL_KEY, 'the upstream got the real key');
        assert.equal(received[0].protocol, SERVER_PROTOCOL[protocol]);
        assert.ok(!JSON.stringify(received[0]).includes(t.token), 'the token never reached the upstream');
        // The path the client appended to its base URL lands under the upstream's base once.
        const expectedPath = {
          'anthropic-messages': '/v1/messages',
          'openai-responses': '/v1/responses',
          'chat-completions': '/v1/chat/completions',
          gemini: `/v1beta/models/gemini-2.5-pro:${stream ? 'streamGenerateContent' : 'generateContent'}`,
        }[protocol];
        assert.equal(received[0].path, expectedPath);

        const lines = await readGatewayCalls(calls);
        assert.equal(lines.length, 1);
        const line = lines[0];
        assert.equal(line.call, 1);
        assert.equal(line.kind, 'model');
        assert.equal(line.status, 200);
        assert.equal(line.stream, stream);
        assert.equal(line.retries, 0);
        assert.deepEqual(
          { input: line.usage.input, cached: line.usage.cached, output: line.usage.output },
          { input: USAGE.input, cached: USAGE.cachedInput, output: USAGE.output },
          'usage as the server sent it',
        );
        assert.equal(line.response?.text, TEXT);
        assert.deepEqual(
          line.response?.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown]),
          [['write_file', { path: 'a.py', content: 'print(1)\n' }]],
        );
        assert.equal(line.raw?.body, res.text, 'the raw answer is what the client got');
        assert.ok(line.firstByteMs !== undefined && line.firstByteMs <= line.ms);
        assert.equal(line.model, protocol === 'gemini' ? 'gemini-2.5-pro' : (modelRequest(protocol, { stream, token: '' }).body as { model: string }).model);
        const text = readFileSync(calls, 'utf8');
        assert.ok(!text.includes(t.token) && !text.includes(REAL_KEY), 'no key in the record');

        assert.deepEqual(summary.usage, { input: USAGE.input, cached: USAGE.cachedInput, output: USAGE.output, reasoning: 0 });
        assert.equal(summary.calls, 1);
        assert.equal(summary.succeeded, 1);
        assert.equal(summary.failure, undefined);
      });
    }
  }

  test('Gemini key in ?key=: taken out of the query, the real key sent as x-goog-api-key, alt=sse kept', async () => {
    const t = rig.gateway.openTry({
      protocol: 'gemini',
      upstream: { url: rig.upstreamUrl('gemini'), key: REAL_KEY },
      callsFile: rig.callsFile('gq'),
      bounds: {},
    });
    const seen = up.server.requests.length;
    const res = await send('gemini', { origin: rig.gateway.origin! }, modelRequest('gemini', { stream: true, token: t.token, keyInQuery: true }));
    await t.close();
    assert.equal(res.status, 200, res.text);
    const r = up.server.requests[seen];
    assert.equal(r.key, REAL_KEY);
    assert.equal(r.query, 'alt=sse');
    assert.ok(r.headerNames.includes('x-goog-api-key'));
  });

  test('through the Unix socket (mode 0666), as a confined agent reaches it', async () => {
    const { statSync } = await import('node:fs');
    assert.equal(statSync(rig.gateway.socketPath).mode & 0o777, 0o666);
    const t = rig.gateway.openTry({
      protocol: 'chat-completions',
      upstream: { url: rig.upstreamUrl('chat-completions'), key: REAL_KEY },
      callsFile: rig.callsFile('unix'),
      bounds: {},
    });
    const res = await send('chat-completions', { socketPath: rig.gateway.socketPath }, modelRequest('chat-completions', { stream: true, token: t.token }));
    const summary = await t.close();
    assert.equal(res.status, 200, res.text);
    assert.equal(summary.usage.input, USAGE.input);
  });

  test('a streamed Chat Completions request without include_usage gets it added, so the wire reports usage', async () => {
    const calls = rig.callsFile('no-usage-option');
    const t = rig.gateway.openTry({
      protocol: 'chat-completions',
      upstream: { url: rig.upstreamUrl('chat-completions'), key: REAL_KEY },
      callsFile: calls,
      bounds: {},
    });
    const seen = up.server.requests.length;
    const res = await send(
      'chat-completions',
      { origin: rig.gateway.origin! },
      modelRequest('chat-completions', { stream: true, token: t.token, includeUsage: false }),
    );
    const summary = await t.close();
    assert.equal(res.status, 200);
    assert.deepEqual((up.server.requests[seen].body as { stream_options?: unknown }).stream_options, { include_usage: true });
    assert.equal(summary.usage.output, USAGE.output);
  });

  test('model lists and other paths are forwarded and recorded as other calls, without usage', async () => {
    const calls = rig.callsFile('models');
    const t = rig.gateway.openTry({
      protocol: 'chat-completions',
      upstream: { url: rig.upstreamUrl('chat-completions'), key: REAL_KEY },
      callsFile: calls,
      bounds: {},
    });
    const seen = up.server.requests.length;
    const res = await send(
      'chat-completions',
      { origin: rig.gateway.origin! },
      { method: 'GET', path: '/models', headers: { authorization: `Bearer ${t.token}` } },
    );
    const summary = await t.close();
    assert.equal(res.status, 200, res.text);
    assert.equal(up.server.requests[seen].path, '/v1/models');
    assert.equal(up.server.requests[seen].key, REAL_KEY);
    const [line] = await readGatewayCalls(calls);
    assert.equal(line.kind, 'other');
    assert.equal(line.method, 'GET');
    assert.equal(summary.calls, 1);
    assert.equal(summary.modelCalls, 0);
    assert.equal(summary.failure, 'the agent made no model call (only GET /v1/models)');
  });

  test('a stream passes through as it arrives, not when it ends', async () => {
    up.script.push(answer({ paceMs: 120 }));
    const t = rig.gateway.openTry({
      protocol: 'anthropic-messages',
      upstream: { url: rig.upstreamUrl('anthropic-messages'), key: REAL_KEY },
      callsFile: rig.callsFile('paced'),
      bounds: {},
    });
    const res = await send('anthropic-messages', { origin: rig.gateway.origin! }, modelRequest('anthropic-messages', { stream: true, token: t.token }));
    await t.close();
    assert.equal(res.status, 200);
    // Nine events 120 ms apart: the first must reach the client long before the last is written.
    assert.ok(res.firstChunkMs !== undefined && res.firstChunkMs < res.totalMs - 500, `first chunk at ${res.firstChunkMs} ms, end at ${res.totalMs} ms`);
  });
});
