// Replay: a try answered from a recorded try's calls, the upstream stopped. Each call gets the
// recorded status, content type and body byte for byte (streamed back as a stream); a request
// that differs from the recording in the conversation or the tools — or one call too many —
// stops the try with "diverged at call N: <JSON path> …".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WireProtocol } from '../../../src/core/agents/endpoint/endpoint';
import { readGatewayCalls, type GatewayCall } from '../../../src/core/gateway';
import { modelRequest, PROTOCOLS, REAL_KEY, send, startRig, startUpstream, type Rig, type WireResponse } from './gateway-fixture';

/** Where the prompt of the first (and only) user turn sits in each protocol's request. */
const PROMPT_PATH: Record<WireProtocol, string> = {
  'anthropic-messages': '$.messages[0].content[0].text',
  'openai-responses': '$.input[0].content[0].text',
  // messages[0] is the system prompt: it keeps its place, not its text.
  'chat-completions': '$.messages[1].content',
  gemini: '$.contents[0].parts[0].text',
};

interface Recorded {
  calls: GatewayCall[];
  answers: WireResponse[];
}

describe('replay', () => {
  let rig: Rig;
  const recorded = new Map<WireProtocol, Recorded>();

  before(async () => {
    // Record three calls per protocol (streamed, not, streamed), then stop the upstream for good.
    const up = await startUpstream();
    rig = await startRig(up);
    for (const protocol of PROTOCOLS) {
      const t = rig.gateway.openTry({
        protocol,
        upstream: { url: rig.upstreamUrl(protocol), key: REAL_KEY },
        callsFile: rig.callsFile(`rec-${protocol}`),
        bounds: {},
      });
      const answers: WireResponse[] = [];
      for (const [i, stream] of [true, false, true].entries())
        answers.push(await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream, token: t.token, prompt: `step ${i}` })));
      await t.close();
      recorded.set(protocol, { calls: await readGatewayCalls(rig.callsFile(`rec-${protocol}`)), answers });
    }
    await up.server.close();
  });
  after(() => rig.close());

  const replayTry = (protocol: WireProtocol, name: string, stops: string[]) =>
    rig.gateway.openTry({
      protocol,
      upstream: undefined,
      callsFile: rig.callsFile(name),
      bounds: {},
      replay: recorded.get(protocol)!.calls,
      onStop: (r) => stops.push(r),
    });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: replayed answers are byte-identical, with the upstream stopped`, async () => {
      const stops: string[] = [];
      const t = replayTry(protocol, `replay-${protocol}`, stops);
      const { answers } = recorded.get(protocol)!;
      for (const [i, stream] of [true, false, true].entries()) {
        const res = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream, token: t.token, prompt: `step ${i}` }));
        assert.equal(res.status, answers[i].status);
        assert.equal(res.headers['content-type'], answers[i].headers['content-type']);
        assert.ok(res.body.equals(answers[i].body), `call ${i + 1}: the same bytes`);
      }
      const summary = await t.close();
      assert.deepEqual(stops, []);
      assert.equal(summary.failure, undefined);
      assert.equal(summary.succeeded, 3);
      const lines = await readGatewayCalls(rig.callsFile(`replay-${protocol}`));
      assert.deepEqual(
        lines.map((l) => [l.replayed, l.usage]),
        recorded.get(protocol)!.calls.map((c) => [true, c.usage]),
      );
    });

    test(`${protocol}: a changed prompt diverges at its call, named by its JSON path`, async () => {
      const stops: string[] = [];
      const t = replayTry(protocol, `diverge-${protocol}`, stops);
      assert.equal(
        (await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: true, token: t.token, prompt: 'step 0' }))).status,
        200,
      );
      const res = await send(protocol, { origin: rig.gateway.origin! }, modelRequest(protocol, { stream: false, token: t.token, prompt: 'step one' }));
      const summary = await t.close();
      assert.equal(res.status, 400);
      const expected = `diverged at call 2: ${PROMPT_PATH[protocol]}: "step one" now, "step 1" recorded`;
      assert.equal(summary.failure, expected);
      assert.deepEqual(stops, [expected]);
      assert.match(res.text, /diverged at call 2/);
    });
  }

  test('a call beyond the recording diverges; a changed tool list does too', async () => {
    const stops: string[] = [];
    const t = replayTry('chat-completions', 'beyond', stops);
    for (const [i, stream] of [true, false, true].entries())
      await send('chat-completions', { origin: rig.gateway.origin! }, modelRequest('chat-completions', { stream, token: t.token, prompt: `step ${i}` }));
    const res = await send(
      'chat-completions',
      { origin: rig.gateway.origin! },
      modelRequest('chat-completions', { stream: true, token: t.token, prompt: 'step 3' }),
    );
    assert.equal(res.status, 400);
    assert.equal((await t.close()).failure, 'diverged at call 4: the recording has 3 calls');

    const u = replayTry('anthropic-messages', 'tools', []);
    const r = modelRequest('anthropic-messages', { stream: true, token: u.token, prompt: 'step 0' });
    (r.body as { tools: unknown[] }).tools.push({ name: 'run_shell', input_schema: {} });
    await send('anthropic-messages', { origin: rig.gateway.origin! }, r);
    assert.equal((await u.close()).failure, 'diverged at call 1: $.tools: 2 items now, 1 recorded');
  });

  test('a streamed call replayed as not streamed diverges (its recorded answer would not fit)', async () => {
    const t = replayTry('gemini', 'stream-flag', []);
    await send('gemini', { origin: rig.gateway.origin! }, modelRequest('gemini', { stream: false, token: t.token, prompt: 'step 0' }));
    assert.match(
      (await t.close()).failure ?? '',
      /^diverged at call 1: the request is POST \/v1beta\/models\/gemini-2\.5-pro:generateContent, the recording has POST .*:streamGenerateContent$/,
    );
  });
});
