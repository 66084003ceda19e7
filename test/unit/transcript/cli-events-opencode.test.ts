// Transcripts from opencode's `run --format json` events.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lines, shape, transcriptOf, tryLog } from './cli-events-fixture';

const SES = 'ses_de3f';
const T0 = 1795766445000;

const start = (msg: string, at: number) => ({
  type: 'step_start',
  timestamp: T0 + at,
  sessionID: SES,
  part: { id: `prt_s${at}`, messageID: msg, sessionID: SES, type: 'step-start' },
});
const finish = (msg: string, at: number, reason: string, tokens: object, cost: number) => ({
  type: 'step_finish',
  timestamp: T0 + at,
  sessionID: SES,
  part: { id: `prt_f${at}`, reason, messageID: msg, sessionID: SES, type: 'step-finish', tokens, cost },
});
const tool = (msg: string, at: number, name: string, callID: string, state: object) => ({
  type: 'tool_use',
  timestamp: T0 + at,
  sessionID: SES,
  part: { type: 'tool', tool: name, callID, state, id: `prt_t${at}`, sessionID: SES, messageID: msg },
});
const part = (type: 'text' | 'reasoning', msg: string, at: number, text: string) => ({
  type,
  timestamp: T0 + at,
  sessionID: SES,
  part: { id: `prt_x${at}`, messageID: msg, sessionID: SES, type, text, time: { start: T0 + at - 10, end: T0 + at } },
});
const tokens = (input: number, output: number, read: number, reasoning = 0) => ({
  total: input + output + read,
  input,
  output,
  reasoning,
  cache: { write: 0, read },
});

const STREAM = lines(
  start('msg_1', 0),
  part('reasoning', 'msg_1', 100, 'Run it first.'),
  tool('msg_1', 1400, 'bash', 'call_1', {
    status: 'completed',
    input: { command: 'python3 -c "print(6 * 7)"', workdir: '/t/app/code' },
    output: '42\n',
    metadata: { output: '42\n', exit: 0 },
    title: 'python3',
  }),
  finish('msg_1', 1415, 'tool-calls', tokens(1100, 37, 0, 5), 0.002),
  start('msg_2', 1416),
  // Two tools in one step: both are this call's, both results the next one's.
  tool('msg_2', 1600, 'edit', 'call_2', {
    status: 'error',
    input: { filePath: '/t/app/code/a.py', oldString: 'y', newString: 'z' },
    error: 'oldString not found in content',
  }),
  tool('msg_2', 1700, 'write', 'call_3', {
    status: 'completed',
    input: { filePath: '/t/app/code/a.py', content: 'x = 1\n' },
    output: 'Wrote file successfully.',
  }),
  finish('msg_2', 1714, 'tool-calls', tokens(1100, 51, 200), 0.003),
  start('msg_3', 2000),
  part('text', 'msg_3', 2300, 'The requirements are implemented.'),
  finish('msg_3', 2346, 'stop', tokens(1500, 79, 200), 0.001),
);

describe('opencode run --format json', () => {
  const t = transcriptOf(tryLog('opencode', STREAM), 'opencode');

  test('a call per step; tool calls in their step, their results the next step’s input', () => {
    assert.deepEqual(
      t.calls.map((c) => [shape(c.input), shape(c.output)]),
      [
        [[], ['reasoning:Run it first.', 'call:bash']],
        [['result:bash=42\n'], ['call:edit', 'call:write']],
        [['result:edit!=oldString not found in content', 'result:write=Wrote file successfully.'], ['assistant:The requirements are implemented.']],
      ],
    );
    assert.deepEqual(t.calls[1].toolCalls, [
      { id: 'call_2', name: 'edit', input: { filePath: '/t/app/code/a.py', oldString: 'y', newString: 'z' } },
      { id: 'call_3', name: 'write', input: { filePath: '/t/app/code/a.py', content: 'x = 1\n' } },
    ]);
    assert.deepEqual(t.calls[0].toolCalls[0].input, { command: 'python3 -c "print(6 * 7)"', workdir: '/t/app/code' });
  });

  test("each step's tokens (cache in the input, reasoning in the output), cost, reason and time; totals summed", () => {
    assert.deepEqual(t.calls[0].usage, { input: 1100, output: 42, cached: 0, reasoning: 5 });
    assert.deepEqual(t.calls[1].usage, { input: 1300, output: 51, cached: 200, reasoning: 0 });
    assert.deepEqual(
      t.calls.map((c) => [c.stopReason, c.ms, c.costUsd]),
      [
        ['tool-calls', 1415, 0.002],
        ['tool-calls', 298, 0.003],
        ['stop', 346, 0.001],
      ],
    );
    assert.deepEqual(t.totals.usage, { input: 1100 + 1300 + 1700, output: 42 + 51 + 79, cached: 400, reasoning: 5 });
    assert.ok(Math.abs((t.totals.costUsd ?? 0) - 0.006) < 1e-9);
    assert.equal(t.totals.ms, 12500, "the driver's measure of the try");
  });

  test('an error event: on the step under way, and a note', () => {
    const failed = lines(start('m', 0), {
      type: 'error',
      timestamp: T0 + 5,
      sessionID: SES,
      error: { name: 'APIError', data: { message: 'Cannot connect to API' } },
    });
    const t2 = transcriptOf(tryLog('opencode', failed, { ended: { how: 'exit code 1', seconds: 1 } }), 'opencode');
    assert.equal(t2.calls[0].error, 'Cannot connect to API');
    assert.ok(t2.notes.includes('The CLI reported an error: Cannot connect to API'));
    assert.ok(t2.notes.includes('The stream reports no token counts.'));
  });
});
