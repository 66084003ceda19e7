// What the gateway does when the wire goes wrong: tokens it does not know, upstream errors it
// retries (500, 429 with Retry-After, a reset) and those it does not (401), empty answers, hangs.
// Each ends in the try's failure, read at the wire.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { MAX_IN_FLIGHT_PER_TRY, readGatewayCalls } from '../../../src/core/gateway';
import { answer, modelRequest, PROTOCOLS, REAL_KEY, send, startRig, startUpstream, type Rig, type Upstream } from './gateway-fixture';

const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 5_000 };

describe('faults', () => {
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

  const open = (protocol: (typeof PROTOCOLS)[number], name: string, extra: { idleTimeoutMs?: number; retry?: object } = {}) =>
    rig.gateway.openTry({
      protocol,
      upstream: { url: rig.upstreamUrl(protocol), key: REAL_KEY },
      callsFile: rig.callsFile(name),
      bounds: {},
      retry: FAST_RETRY,
      ...extra,
    });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: an unknown token and a closed try's token get 401 in the protocol's shape, and nothing is forwarded`, async () => {
      const seen = up.server.requests.length;
      const forged = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: false, token: 'sweci-try-forged' }));
      const t = open(protocol, `closed-${protocol}`);
      await t.close();
      const late = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: true, token: t.token }));
      const noKey = await send(
        protocol,
        { origin: rig.gateway.origin! },
        { ...modelRequest(protocol, { stream: false, token: '' }), headers: { 'content-type': 'application/json' } },
      );
      for (const res of [forged, late, noKey]) {
        assert.equal(res.status, 401);
        const body = JSON.parse(res.text) as Record<string, { message?: string; type?: string; status?: string }>;
        assert.match(body.error.message ?? '', /not valid/);
        if (protocol === 'anthropic-messages') assert.equal(body.type, 'error');
        if (protocol === 'gemini') assert.equal(body.error.status, 'UNAUTHENTICATED');
      }
      assert.equal(up.server.requests.length, seen, 'nothing reached the upstream');
    });

    test(`${protocol}: an error body (401) is not retried and is the try's failure`, async () => {
      up.script.push({ actions: [], httpError: { status: 401, message: 'invalid api key for this project' } });
      const t = open(protocol, `401-${protocol}`);
      const seen = up.server.requests.length;
      const res = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: true, token: t.token }));
      const summary = await t.close();
      assert.equal(res.status, 401);
      assert.equal(up.server.requests.length - seen, 1, 'a 401 is not retried');
      const path = new URL(rig.upstreamUrl(protocol)).pathname.replace(/\/$/, '');
      assert.match(summary.failure ?? '', /^no model call succeeded: HTTP 401 from http:\/\/127\.0\.0\.1:\d+\S+: invalid api key for this project$/);
      assert.ok(summary.failure?.includes(path));
      const [line] = await readGatewayCalls(rig.callsFile(`401-${protocol}`));
      assert.equal(line.status, 401);
      assert.equal(line.error, summary.failure?.replace('no model call succeeded: ', ''));
    });

    test(`${protocol}: an empty answer (200, no text, no tool call) fails the try`, async () => {
      up.script.push({ actions: [], usage: { input: 10, cachedInput: 0, output: 0 } });
      const t = open(protocol, `empty-${protocol}`);
      const res = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: protocol !== 'chat-completions', token: t.token }));
      const summary = await t.close();
      assert.equal(res.status, 200);
      assert.equal(summary.succeeded, 1);
      assert.equal(summary.failure, "the model's last answer was empty");
    });
  }

  test("a try's token reaches nothing of the provider's API but the model: files, batches, other methods are refused with 403 and never forwarded", async () => {
    const t = open('chat-completions', 'other-paths');
    const seen = up.server.requests.length;
    const model = modelRequest('chat-completions', { stream: false, token: t.token });
    for (const [method, p] of [
      ['GET', '/v1/files'],
      ['POST', '/v1/files'],
      ['POST', '/v1/fine_tuning/jobs'],
      ['DELETE', '/v1/models/m'],
      ['POST', '/v1/models'],
    ]) {
      const res = await send(
        'chat-completions',
        { origin: rig.gateway.origin! },
        { ...model, method, path: p, ...(method === 'GET' || method === 'DELETE' ? { body: undefined } : {}) },
      );
      assert.equal(res.status, 403, `${method} ${p}`);
      assert.match(res.text, /is not a model call: only the model's own endpoints are forwarded/);
    }
    assert.equal(up.server.requests.length, seen, 'nothing was forwarded');
    // The model list and a model call still go through.
    assert.equal(
      (await send('chat-completions', { origin: rig.gateway.origin! }, { ...model, method: 'GET', path: '/v1/models', body: undefined })).status,
      200,
    );
    assert.equal((await send('chat-completions', { origin: rig.gateway.origin! }, model)).status, 200);
    const summary = await t.close();
    assert.equal(summary.calls, 7);
    assert.equal(summary.failure, undefined, 'refused extra paths do not fail a try whose model calls succeeded');
  });

  test('500, 500, then an answer: retried before the client sees anything, counted in the record', async () => {
    up.script.push({ actions: [], httpError: { status: 500, message: 'boom' } }, { actions: [], httpError: { status: 503, message: 'busy' } });
    const t = open('anthropic-messages', 'retry-500');
    const seen = up.server.requests.length;
    const res = await send('anthropic-messages', { origin: rig.gateway.origin! }, modelRequest('anthropic-messages', { stream: true, token: t.token }));
    const summary = await t.close();
    assert.equal(res.status, 200, res.text);
    assert.equal(up.server.requests.length - seen, 3);
    const [line] = await readGatewayCalls(rig.callsFile('retry-500'));
    assert.equal(line.retries, 2);
    assert.equal(line.status, 200);
    assert.equal(summary.failure, undefined);
  });

  test('429 with Retry-After: 1 waits the second it asks', async () => {
    up.script.push({ actions: [], httpError: { status: 429, message: 'slow down', headers: { 'retry-after': '1' } } });
    const t = open('chat-completions', 'retry-429');
    const started = performance.now();
    const res = await send('chat-completions', { origin: rig.gateway.origin! }, modelRequest('chat-completions', { stream: false, token: t.token }));
    const took = performance.now() - started;
    await t.close();
    assert.equal(res.status, 200);
    assert.ok(took >= 950, `answered after ${Math.round(took)} ms; Retry-After asked for 1000`);
    assert.equal((await readGatewayCalls(rig.callsFile('retry-429')))[0].retries, 1);
  });

  test(`one try may have ${MAX_IN_FLIGHT_PER_TRY} requests in the harness at once: the next is refused with 429 in its shape, not read`, async () => {
    for (let i = 0; i < MAX_IN_FLIGHT_PER_TRY; i++) up.script.push({ actions: [], fault: 'hang' });
    const t = open('chat-completions', 'in-flight', { idleTimeoutMs: 3_000 });
    const request = modelRequest('chat-completions', { stream: false, token: t.token });
    const held = Array.from({ length: MAX_IN_FLIGHT_PER_TRY }, () => send('chat-completions', { origin: rig.gateway.origin! }, request));
    // Once every one of them has reached the upstream, one more.
    const started = performance.now();
    while (up.script.length > 0 && performance.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
    const extra = await send('chat-completions', { origin: rig.gateway.origin! }, request);
    assert.equal(extra.status, 429);
    assert.match(extra.text, new RegExp(`more than ${MAX_IN_FLIGHT_PER_TRY} requests at once from one try`));
    await Promise.all(held);
    await t.close();
  });

  test('retries are bounded: after 3, the last error is the answer and the failure', async () => {
    for (let i = 0; i < 5; i++) up.script.push({ actions: [], httpError: { status: 500, message: `down ${i}` } });
    const t = open('gemini', 'retry-bounded');
    const seen = up.server.requests.length;
    const res = await send('gemini', { origin: rig.gateway.origin! }, modelRequest('gemini', { stream: false, token: t.token }));
    const summary = await t.close();
    up.script.length = 0;
    assert.equal(res.status, 500);
    assert.equal(up.server.requests.length - seen, 4, 'one attempt and 3 retries');
    assert.match(summary.failure ?? '', /HTTP 500 from .*: down 3 \(after 3 retries\)$/);
  });

  test('a connection reset is retried', async () => {
    up.script.push({ actions: [], fault: 'reset' });
    const t = open('openai-responses', 'reset');
    const res = await send('openai-responses', { origin: rig.gateway.origin! }, modelRequest('openai-responses', { stream: true, token: t.token }));
    const summary = await t.close();
    assert.equal(res.status, 200, res.text);
    assert.equal((await readGatewayCalls(rig.callsFile('reset')))[0].retries, 1);
    assert.equal(summary.failure, undefined);
  });

  test('a hang before any byte: the client gets 504 in its shape, the call and the failure say so', async () => {
    up.script.push({ actions: [], fault: 'hang' });
    const t = open('anthropic-messages', 'hang', { idleTimeoutMs: 300 });
    const res = await send('anthropic-messages', { origin: rig.gateway.origin! }, modelRequest('anthropic-messages', { stream: true, token: t.token }));
    const summary = await t.close();
    assert.equal(res.status, 504);
    assert.equal((JSON.parse(res.text) as { type: string }).type, 'error');
    assert.match(summary.failure ?? '', /^no model call succeeded: no byte from http:\/\/127\.0\.0\.1:\d+\/v1\/messages for 0.3 s$/);
    const [line] = await readGatewayCalls(rig.callsFile('hang'));
    assert.equal(line.status, 0);
    assert.match(line.error ?? '', /no byte from/);
  });

  test('a stream that stalls after its first event: the client connection is cut, the call recorded', async () => {
    up.script.push(answer({ fault: 'stall' }));
    const t = open('chat-completions', 'stall', { idleTimeoutMs: 300 });
    const res = await send('chat-completions', { origin: rig.gateway.origin! }, modelRequest('chat-completions', { stream: true, token: t.token }));
    const summary = await t.close();
    assert.equal(res.status, 200);
    assert.equal(res.broken, true, 'the client sees a broken stream, not a finished one');
    const [line] = await readGatewayCalls(rig.callsFile('stall'));
    assert.equal(line.status, 200);
    assert.match(line.error ?? '', /no byte from/);
    assert.match(summary.failure ?? '', /no byte from/);
  });

  test('an upstream nobody listens on: retried, then 502 and "could not reach"', async () => {
    const t = rig.gateway.openTry({
      protocol: 'chat-completions',
      upstream: { url: 'http://127.0.0.1:9/v1', key: REAL_KEY },
      callsFile: rig.callsFile('refused'),
      bounds: {},
      retry: { baseDelayMs: 5, maxRetries: 2 },
    });
    const res = await send('chat-completions', { origin: rig.gateway.origin! }, modelRequest('chat-completions', { stream: false, token: t.token }));
    const summary = await t.close();
    assert.equal(res.status, 502);
    assert.equal(summary.failure, 'no model call succeeded: could not reach http://127.0.0.1:9/v1/chat/completions: ECONNREFUSED (after 2 retries)');
  });

  test('a try with no call at all says so', async () => {
    const t = open('gemini', 'none');
    assert.equal((await t.close()).failure, 'the agent made no model call');
  });

  test('keys never reach the record, even when the upstream echoes them back', async () => {
    up.script.push({ actions: [], httpError: { status: 401, message: `key ${REAL_KEY} is not valid` } });
    const t = open('chat-completions', 'echo');
    // The agent also pastes its own token into the conversation.
    await send(
      'chat-completions',
      { origin: rig.gateway.origin! },
      modelRequest('chat-completions', { stream: false, token: t.token, prompt: `my key is ${t.token}` }),
    );
    const summary = await t.close();
    const text = readFileSync(rig.callsFile('echo'), 'utf8');
    assert.ok(!text.includes(REAL_KEY) && !text.includes(t.token));
    assert.match(text, /\*\*\*/);
    assert.ok(!summary.failure?.includes(REAL_KEY));
    assert.match(summary.failure ?? '', /key \*\*\* is not valid/);
  });
});
