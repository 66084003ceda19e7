// Records bounded in bytes (issue 43), against the project's model server: a try's calls record
// stops growing at its byte bound (the call that crosses it finishes, the next is refused) and so
// does a step's, shared by its tries; refusals keep a body's size, not the body; a request over
// its cap is refused before it is held, an answer over its cap is cut off; a 429 for too many
// calls at once is a refused call in the record; on a nearly full disk (a real tmpfs of a few MB,
// as root) the try stops "disk nearly full" and every line written is whole. And under many
// calls at once the gateway adds one abort listener per call to a signal of the call's own:
// Node's MaxListenersExceededWarning never comes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Budget, MAX_IN_FLIGHT_PER_TRY, MAX_REQUEST_BYTES, readGatewayCalls, type TryBounds } from '../../../src/core/gateway';
import { RECORD_CAP_BYTES, RECORD_SLACK_BYTES } from '../../../src/core/gateway/calls-file';
import type { OpenTryOptions } from '../../../src/core/gateway/gateway-try';
import { freeBytes } from '../../../src/core/util/free-space';
import { modelRequest, REAL_KEY, send, startRig, startUpstream, type Rig, type Upstream } from './gateway-fixture';
import type { Reply } from '../../../scripts/stand-in-model/conversation';

const PROTOCOL = 'chat-completions' as const;
/** An answer of about 1 MB of text: its line holds the text twice (reassembled and raw), about 2 MB. */
const big = (): Reply => ({ actions: [{ kind: 'text', text: 'x'.repeat(1_000_000) }], usage: { input: 10, cachedInput: 0, output: 10 } });

/** Resolves once `check` holds, looking again as the event loop turns (a state, not a clock). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

describe('calls records bounded in bytes', () => {
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

  const open = (name: string, bounds: TryBounds, stops: string[], more: Partial<OpenTryOptions> = {}) =>
    rig.gateway.openTry({
      protocol: PROTOCOL,
      upstream: { url: rig.upstreamUrl(PROTOCOL), key: REAL_KEY },
      callsFile: rig.callsFile(name),
      bounds,
      onStop: (reason) => stops.push(reason),
      ...more,
    });
  const call = (token: string, prompt?: string) =>
    send(PROTOCOL, { origin: rig.gateway.origin! }, modelRequest(PROTOCOL, { stream: false, token, ...(prompt !== undefined ? { prompt } : {}) }));

  test("a try's byte bound: the line that crosses it is written, the next call is refused and ends the try; a flood of big refused calls adds only their sizes", async () => {
    const stops: string[] = [];
    const max = 5_000_000;
    const t = open('bytes', { maxRecordBytes: max }, stops);
    up.script.push(big(), big(), big(), big());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(t.token)).status);
    assert.deepEqual(statuses, [200, 200, 200, 400], 'three lines of about 2 MB cross 5 MB; the fourth call is refused');
    // What a hostile agent does next: bodies of 1 MB each, refused, many times.
    const refused = await Promise.all(Array.from({ length: 12 }, () => call(t.token, 'y'.repeat(1_000_000))));
    assert.ok(refused.every((r) => r.status === 400));
    assert.match(refused[0].text, /budget exhausted: calls record per try \(5000000 bytes\)/);
    const summary = await t.close();
    up.script.length = 0;
    assert.deepEqual(stops, ['budget exhausted: calls record per try (5000000 bytes)']);
    assert.equal(summary.budgetExhausted, true);
    const size = (await fs.stat(rig.callsFile('bytes'))).size;
    assert.ok(size < max + RECORD_CAP_BYTES, `the record is ${size} bytes: under the bound and one line`);
    const lines = await readGatewayCalls(rig.callsFile('bytes'));
    const refusals = lines.filter((l) => l.refused !== undefined);
    assert.equal(refusals.length, 13);
    for (const l of refusals) {
      assert.equal(l.request, undefined, 'a refused line keeps no body');
      assert.ok((l.requestBytes ?? 0) > 0, 'but its size');
    }
    assert.ok(refusals.slice(1).every((l) => (l.requestBytes ?? 0) > 1_000_000));
  });

  test("a step's byte bound is shared by its tries: a second try gets what the first left", async () => {
    const step = new Budget('step', { maxRecordBytes: 5_000_000 });
    const stopsA: string[] = [];
    const stopsB: string[] = [];
    up.script.push(big(), big(), big(), big());
    const a = open('step-a', { maxRecordBytes: 5_000_000, budgets: [step] }, stopsA);
    assert.equal((await call(a.token)).status, 200);
    assert.equal((await call(a.token)).status, 200);
    await a.close();
    const b = open('step-b', { maxRecordBytes: 5_000_000, budgets: [step] }, stopsB);
    assert.equal((await call(b.token)).status, 200, 'the step has about 1 MB left: let through');
    const refusedB = await call(b.token);
    await b.close();
    up.script.length = 0;
    assert.equal(refusedB.status, 400);
    assert.deepEqual(stopsA, []);
    assert.deepEqual(stopsB, ['budget exhausted: step calls records (5000000 bytes)']);
    const written = (await fs.stat(rig.callsFile('step-a'))).size + (await fs.stat(rig.callsFile('step-b'))).size;
    assert.ok(written < 5_000_000 + RECORD_CAP_BYTES + RECORD_SLACK_BYTES, `${written} bytes over the step's two records`);
  });

  test('a request that says it is over the cap is refused before its body is read, and recorded with its size', async () => {
    const t = open('too-big', {}, []);
    const declared = MAX_REQUEST_BYTES + 1;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: new URL(rig.gateway.origin!).port,
          method: 'POST',
          path: '/v1/chat/completions',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.token}`, 'content-length': declared },
          agent: false,
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        },
      );
      req.on('error', () => undefined);
      // Only the start of the body is ever sent: the answer must not wait for the rest.
      req.write('{"model": "m", "messages": [');
    });
    await t.close();
    assert.equal(answer.status, 413);
    assert.match(answer.text, /the request body is over 67108864 bytes/);
    const [line] = await readGatewayCalls(rig.callsFile('too-big'));
    assert.equal(line.status, 413);
    assert.equal(line.requestBytes, declared);
    assert.match(line.refused ?? '', /over 67108864 bytes/);
  });

  test('an answer over its cap is cut off, and the record says why', async () => {
    const t = open('long-answer', {}, [], { maxAnswerBytes: 200_000 });
    up.script.push(big());
    const answer = await call(t.token);
    const summary = await t.close();
    assert.ok(answer.broken === true || answer.body.length <= 200_000 + 65_536, 'the client gets no more than the cap (and a chunk)');
    const [line] = await readGatewayCalls(rig.callsFile('long-answer'));
    assert.match(line.error ?? '', /the answer from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions was over 200000 bytes and was cut off/);
    assert.match(summary.failure ?? '', /was over 200000 bytes/);
  });

  test('many calls at once: one abort listener each, no MaxListenersExceededWarning; the calls past the flood limit are refused calls in the record', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const t = open('flood', {}, []);
      const n = MAX_IN_FLIGHT_PER_TRY + 4;
      const hung = up.server.requests.filter((r) => r.fault === 'hang').length;
      for (let i = 0; i < MAX_IN_FLIGHT_PER_TRY; i++) up.script.push({ actions: [], fault: 'hang' });
      const answers: Array<{ status: number }> = [];
      const all = Array.from({ length: n }, () =>
        call(t.token).then(
          (a) => answers.push(a),
          () => answers.push({ status: -1 }),
        ),
      );
      await until(() => up.server.requests.filter((r) => r.fault === 'hang').length - hung === MAX_IN_FLIGHT_PER_TRY, 'every allowed call hangs at the server');
      await until(() => answers.filter((a) => a.status === 429).length === 4, 'four calls refused 429');
      await t.close();
      await Promise.all(all);
      up.script.length = 0;
      await new Promise((r) => setImmediate(r));
      const lines = await readGatewayCalls(rig.callsFile('flood'));
      const floods = lines.filter((l) => l.status === 429);
      assert.equal(floods.length, 4, 'each 429 is a line');
      for (const l of floods) assert.equal(l.refused, `more than ${MAX_IN_FLIGHT_PER_TRY} requests at once from one try`);
      assert.equal(lines.length, n, 'and every call that hung too');
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(
      warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
      [],
    );
  });

  test('a nearly full disk (a real tmpfs of 12 MB): the try stops "disk nearly full" and every line written is whole', async (t) => {
    if (process.getuid?.() !== 0) return t.skip('mounting a tmpfs needs root');
    const mount = path.join(rig.dir, 'small-disk');
    await fs.mkdir(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mount]);
    try {
      const stops: string[] = [];
      const floor = 6 * 1024 * 1024;
      const file = path.join(mount, 'programmer-try-1.calls.jsonl');
      const gt = rig.gateway.openTry({
        protocol: PROTOCOL,
        upstream: { url: rig.upstreamUrl(PROTOCOL), key: REAL_KEY },
        callsFile: file,
        bounds: {},
        minFreeBytes: floor,
        onStop: (reason) => stops.push(reason),
      });
      for (let i = 0; i < 8; i++) up.script.push(big());
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await call(gt.token)).status);
      const summary = await gt.close();
      up.script.length = 0;
      assert.equal(stops.length, 1, stops.join('; '));
      assert.match(stops[0], /^disk nearly full: [\d.]+ MB free at .*small-disk, below the floor of 6\.0 MB \(sweci\.agents\.minFreeDiskMb\)$/);
      assert.equal(summary.diskFull, true);
      assert.ok(statuses.includes(400), `calls after the stop are refused (${statuses.join(', ')})`);
      const lines = await readGatewayCalls(file);
      assert.ok(lines.length >= 2 && lines.length < 8, `${lines.length} whole lines`);
      assert.ok((await freeBytes(mount))! >= floor, 'the floor held');
      assert.match(summary.recordError ?? '', /not written \(disk nearly full/);
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});
