// Bounds: a try's call cap and token bound, and budgets shared by several tries (tokens, cost).
// When one is spent the gateway forwards nothing, answers in the protocol's own error shape and
// tells the harness through onStop.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WireProtocol } from '../../../src/core/agents/endpoint/endpoint';
import { Budget, readGatewayCalls, type TryBounds } from '../../../src/core/gateway';
import { modelRequest, REAL_KEY, send, startRig, startUpstream, USAGE, type Rig, type Upstream } from './gateway-fixture';

describe('bounds', () => {
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

  const open = (protocol: WireProtocol, name: string, bounds: TryBounds, stops: string[], prices?: Record<string, { input: number; output: number }>) =>
    rig.gateway.openTry({
      protocol,
      upstream: { url: rig.upstreamUrl(protocol), key: REAL_KEY },
      callsFile: rig.callsFile(name),
      bounds,
      onStop: (reason) => stops.push(reason),
      ...(prices ? { prices } : {}),
    });
  const call = (protocol: WireProtocol, token: string) => send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: true, token }));

  test('the call cap: the call after the last allowed is refused in the protocol shape, nothing forwarded, onStop once', async () => {
    const stops: string[] = [];
    const t = open('anthropic-messages', 'cap', { maxCalls: 2 }, stops);
    const seen = up.server.requests.length;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call('anthropic-messages', t.token));
    const summary = await t.close();
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 400, 400],
    );
    const refusal = JSON.parse(answers[2].text) as { type: string; error: { type: string; message: string } };
    assert.deepEqual(refusal, { type: 'error', error: { type: 'invalid_request_error', message: 'sweci gateway: budget exhausted: calls per try (2)' } });
    assert.equal(up.server.requests.length - seen, 2);
    assert.deepEqual(stops, ['budget exhausted: calls per try (2)']);
    assert.equal(summary.failure, 'budget exhausted: calls per try (2)');
    assert.equal(summary.calls, 4);
    assert.equal(summary.succeeded, 2);
    const lines = await readGatewayCalls(rig.callsFile('cap'));
    assert.deepEqual(
      lines.map((l) => [l.call, l.status, l.refused]),
      [
        [1, 200, undefined],
        [2, 200, undefined],
        [3, 0, 'budget exhausted: calls per try (2)'],
        [4, 0, 'budget exhausted: calls per try (2)'],
      ],
    );
  });

  test("a try's token bound: the call that crosses it finishes, the next is refused (Gemini's error shape)", async () => {
    const stops: string[] = [];
    const t = open('gemini', 'tokens', { maxTokens: 1000 }, stops);
    const first = await call('gemini', t.token);
    const second = await call('gemini', t.token);
    await t.close();
    assert.equal(first.status, 200);
    assert.equal(second.status, 400);
    assert.deepEqual(JSON.parse(second.text), {
      error: { code: 400, message: 'sweci gateway: budget exhausted: tokens per try (1000)', status: 'INVALID_ARGUMENT' },
    });
    assert.deepEqual(stops, ['budget exhausted: tokens per try (1000)']);
  });

  test('a budget shared by two tries counts both', async () => {
    const task = new Budget('task', { maxTokens: 2000 });
    const stopsA: string[] = [];
    const stopsB: string[] = [];
    const a = open('chat-completions', 'shared-a', { budgets: [task] }, stopsA);
    assert.equal((await call('chat-completions', a.token)).status, 200);
    await a.close();
    assert.equal(task.tokens, USAGE.input + USAGE.output);
    const b = open('openai-responses', 'shared-b', { budgets: [task] }, stopsB);
    assert.equal((await call('openai-responses', b.token)).status, 200, 'under the bound: let through');
    const refused = await call('openai-responses', b.token);
    await b.close();
    assert.equal(refused.status, 400);
    assert.equal((JSON.parse(refused.text) as { error: { message: string } }).error.message, 'sweci gateway: budget exhausted: task tokens (2000)');
    assert.deepEqual(stopsA, []);
    assert.deepEqual(stopsB, ['budget exhausted: task tokens (2000)']);
  });

  test('a cost budget, from the prices per model; a model without a price costs nothing known', async () => {
    const experiment = new Budget('experiment', { maxCostUsd: 0.001 });
    const prices = { 'qwen3-coder-plus': { input: 1, output: 2 } };
    const stops: string[] = [];
    const t = open('chat-completions', 'cost', { budgets: [experiment] }, stops, prices);
    assert.equal((await call('chat-completions', t.token)).status, 200);
    assert.equal((await call('chat-completions', t.token)).status, 400);
    const summary = await t.close();
    // 1234 input (200 cached, priced as input here) at $1/M, 56 output at $2/M.
    const cost = (1234 * 1 + 56 * 2) / 1_000_000;
    assert.ok(Math.abs(experiment.costUsd - cost) < 1e-12);
    assert.ok(Math.abs(summary.costUsd - cost) < 1e-12);
    assert.equal(summary.unpricedCalls, 0);
    assert.deepEqual(stops, ['budget exhausted: experiment cost ($0.001)']);

    const other = new Budget('experiment', { maxCostUsd: 0.001 });
    const u = open('anthropic-messages', 'unpriced', { budgets: [other] }, [], prices);
    await call('anthropic-messages', u.token);
    const s = await u.close();
    assert.equal(other.unpricedCalls, 1);
    assert.equal(other.costUsd, 0);
    assert.equal(s.unpricedCalls, 1);
  });
});
