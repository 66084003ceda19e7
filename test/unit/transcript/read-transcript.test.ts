// readTryTranscript on calls records on disk: an archived try, lines out of order, damaged lines,
// a running try whose last line is half written, a missing record and the fallback source.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARCHIVE } from '../../../src/core/loop/run-store';
import { formatGatewayCallLine } from '../../../src/core/records/gateway-call';
import { readTryTranscript } from '../../../src/core/transcript/read-transcript';
import { architectTry } from './wire-fixture';
import { lines, tryLog } from './cli-events-fixture';

let tmp: string;
let n = 0;

async function folder(): Promise<string> {
  const dir = path.join(tmp, `iter-${++n}`);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

const request = (iterDir: string, extra: { pending?: boolean } = {}) => ({ iterDir, role: 'architect' as const, try: 1, iteration: 1, run: 'r', ...extra });

describe('readTryTranscript', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-transcript-read-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('an archived try: lines in the order calls ended are read in the order they began; a damaged line is skipped and said', async () => {
    const dir = await folder();
    const lines = architectTry('openai-responses').calls.map(formatGatewayCallLine);
    await fs.writeFile(path.join(dir, ARCHIVE.agentCalls('architect', 1)), [lines[1], lines[0], 'not json\n', '{"call": 9}\n', lines[3], lines[2]].join(''));
    const t = await readTryTranscript(request(dir));
    assert.ok(t);
    assert.deepEqual(
      t.calls.map((c) => [c.call, c.side === true]),
      [
        [1, false],
        [2, true],
        [3, false],
        [4, false],
      ],
    );
    assert.equal(t.calls[2].input.length, 1, 'call 3 added one tool result');
    assert.equal(t.run, 'r');
    assert.equal(t.notes.length, 1, t.notes.join('\n'));
    assert.match(t.notes[0], /^2 lines of architect-try-1\.calls\.jsonl skipped \(line 3: not JSON; line 4: .*\)\.$/);
  });

  test('a running try: a half-written last line is skipped silently, and read once it is whole', async () => {
    const dir = await folder();
    const file = path.join(dir, ARCHIVE.agentCalls('architect', 1));
    const lines = architectTry('anthropic-messages').calls.map(formatGatewayCallLine);
    const half = Math.floor(lines[2].length / 2);
    await fs.writeFile(file, lines[0] + lines[1] + lines[2].slice(0, half));
    const running = await readTryTranscript(request(dir, { pending: true }));
    assert.ok(running);
    assert.deepEqual(
      running.calls.map((c) => c.call),
      [1, 2],
    );
    assert.deepEqual(running.notes, ['The iteration has not finished (it is running, or stopped before its end): a call shows once it has ended.']);
    // The gateway finishes the line, and the next call ends.
    await fs.appendFile(file, lines[2].slice(half) + lines[3]);
    const later = await readTryTranscript(request(dir));
    assert.ok(later);
    assert.deepEqual(
      later.calls.map((c) => c.call),
      [1, 2, 3, 4],
    );
    assert.deepEqual(later.notes, []);
  });

  test('a call still running while later ones ended: the others are read, in order', async () => {
    const dir = await folder();
    const lines = architectTry('chat-completions').calls.map(formatGatewayCallLine);
    await fs.writeFile(path.join(dir, ARCHIVE.agentCalls('architect', 1)), lines[0] + lines[2] + lines[3]);
    const t = await readTryTranscript(request(dir));
    assert.deepEqual(
      t?.calls.map((c) => c.call),
      [1, 3, 4],
    );
  });

  test("no calls record: the CLI's own event stream in the try's log, else undefined", async () => {
    const dir = await folder();
    assert.equal(await readTryTranscript(request(dir)), undefined, 'neither a record nor a log');
    assert.equal(await readTryTranscript(request(path.join(dir, 'missing'))), undefined);
    const log = path.join(dir, 'architect-try-1.log');
    await fs.writeFile(log, tryLog('custom', 'plain words from a custom agent\n'));
    assert.equal(await readTryTranscript(request(dir)), undefined, 'a log with no event stream');
    const stream = lines(
      { type: 'system', subtype: 'init', session_id: 's', tools: ['Bash'] },
      {
        type: 'assistant',
        message: {
          id: 'm1',
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }],
          usage: { input_tokens: 5, output_tokens: 2 },
        },
        session_id: 's',
        parent_tool_use_id: null,
      },
    );
    await fs.writeFile(log, tryLog('claude-code', stream));
    const fromLog = await readTryTranscript({ ...request(dir), agent: 'claude-code' });
    assert.equal(fromLog?.source, 'cli-events');
    assert.equal(fromLog?.run, 'r');
    assert.deepEqual(fromLog?.calls[0]?.toolCalls, [{ id: 't1', name: 'Bash', input: { command: 'ls' } }]);
  });

  test('an empty record (the first call has not ended): no calls, and not undefined', async () => {
    const dir = await folder();
    await fs.writeFile(path.join(dir, ARCHIVE.agentCalls('architect', 1)), '');
    const t = await readTryTranscript(request(dir));
    assert.deepEqual(t?.calls, []);
    assert.deepEqual(t?.totals.calls, 0);
  });
});
