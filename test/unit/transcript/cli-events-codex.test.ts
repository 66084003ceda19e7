// Transcripts from Codex CLI's `exec --json` events, and from the `msg` events of older builds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lines, shape, transcriptOf, tryLog } from './cli-events-fixture';

const command = (id: string, cmd: string, output: string, exit: number | null) => ({
  id,
  type: 'command_execution',
  command: cmd,
  aggregated_output: output,
  exit_code: exit,
  status: exit === null ? 'in_progress' : exit === 0 ? 'completed' : 'failed',
});

const STREAM = lines(
  { type: 'thread.started', thread_id: '01a21c04' },
  { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for `gpt-5-codex` not found.' } },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'item_1', type: 'reasoning', text: '**Reading the summary**' } },
  { type: 'item.started', item: command('item_2', "/bin/bash -lc 'cat non-passed/summary.jsonl'", '', null) },
  { type: 'item.completed', item: command('item_2', "/bin/bash -lc 'cat non-passed/summary.jsonl'", '{"outcome":"failed"}\n', 0) },
  { type: 'item.started', item: command('item_3', "/bin/bash -lc 'pytest -q'", '', null) },
  { type: 'item.completed', item: command('item_3', "/bin/bash -lc 'pytest -q'", '1 failed\n', 1) },
  {
    type: 'item.completed',
    item: {
      id: 'item_4',
      type: 'file_change',
      changes: [
        { path: '/t/app/requirement.xml', kind: 'add' },
        { path: '/t/app/code/a.py', kind: 'update' },
      ],
      status: 'completed',
    },
  },
  { type: 'item.completed', item: { id: 'item_5', type: 'agent_message', text: 'Wrote requirement.xml.' } },
  { type: 'turn.completed', usage: { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122, reasoning_output_tokens: 40 } },
);

describe('codex exec --json', () => {
  const t = transcriptOf(tryLog('Codex CLI', STREAM), 'codex');

  test('a model call per answer: a new one after each tool result', () => {
    assert.deepEqual(
      t.calls.map((c) => [shape(c.input), shape(c.output)]),
      [
        [[], ['reasoning:**Reading the summary**', 'call:shell']],
        [['result:shell={"outcome":"failed"}\n'], ['call:shell']],
        [['result:shell!=1 failed\n\n(exit code 1)'], ['call:apply_patch']],
        [['result:apply_patch=add /t/app/requirement.xml\nupdate /t/app/code/a.py'], ['assistant:Wrote requirement.xml.']],
      ],
    );
  });

  test('commands are shell calls with their command; file changes apply_patch calls with the paths', () => {
    assert.deepEqual(t.calls[0].toolCalls, [{ id: 'item_2', name: 'shell', input: { command: "/bin/bash -lc 'cat non-passed/summary.jsonl'" } }]);
    assert.deepEqual(t.calls[2].toolCalls, [
      {
        id: 'item_4',
        name: 'apply_patch',
        input: {
          changes: [
            { path: '/t/app/requirement.xml', kind: 'add' },
            { path: '/t/app/code/a.py', kind: 'update' },
          ],
        },
      },
    ]);
  });

  test("usage is the turn's (cached and reasoning apart), with a note: codex gives none per model call", () => {
    assert.deepEqual(t.totals.usage, { input: 24763, output: 122, cached: 24448, reasoning: 40 });
    assert.ok(t.calls.every((c) => c.usage === undefined));
    assert.ok(t.notes.some((n) => /tokens per turn, not per model call/.test(n)));
    assert.ok(
      t.notes.some((n) => /Model metadata/.test(n)),
      'its error item is a note',
    );
    assert.equal(t.totals.ms, 12500, "the driver's measure");
  });

  test('a one-call turn: its usage is the call’s; a failed turn puts its error on the last call', () => {
    const one = lines(
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'Nothing to do.' } },
      { type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 7 } },
    );
    assert.deepEqual(transcriptOf(tryLog('Codex CLI', one), 'codex').calls[0].usage, { input: 100, output: 7, cached: 0, reasoning: 0 });
    const failed = lines(
      { type: 'turn.started' },
      { type: 'item.started', item: command('c', 'ls', '', null) },
      { type: 'item.completed', item: command('c', 'ls', 'a\n', 0) },
      { type: 'error', message: 'Reconnecting... 1/5' },
      { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } },
    );
    const t2 = transcriptOf(tryLog('Codex CLI', failed), 'codex');
    assert.equal(t2.calls.length, 2, 'the result of ls waits for an answer that never came');
    assert.equal(t2.calls[0].error, 'unexpected status 401 Unauthorized');
    assert.match(t2.calls[1].truncated ?? '', /before the model answered/);
    assert.ok(t2.notes.some((n) => /Reconnecting/.test(n)));
  });

  test('a command still running when the log was read: its call, no result yet', () => {
    const running = lines({ type: 'turn.started' }, { type: 'item.started', item: command('c', 'pytest', '', null) });
    const t2 = transcriptOf(tryLog('Codex CLI', running, { ended: null }), 'codex');
    assert.deepEqual(shape(t2.calls[0].output), ['call:shell']);
    assert.equal(t2.calls.length, 1);
    assert.ok(t2.notes.some((n) => /still running/.test(n)));
  });
});

describe("codex's older msg events", () => {
  test('exec and patch begin/end, messages, and per-call usage from token_count', () => {
    const msg = (m: object) => ({ id: '0', msg: m });
    const old = lines(
      msg({ type: 'task_started' }),
      msg({ type: 'agent_reasoning', text: 'Look first.' }),
      msg({ type: 'exec_command_begin', call_id: 'c1', command: ['bash', '-lc', 'ls'], cwd: '/t/app' }),
      msg({
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: 1000, cached_input_tokens: 200, output_tokens: 50 },
          last_token_usage: { input_tokens: 1000, cached_input_tokens: 200, output_tokens: 50 },
        },
      }),
      msg({ type: 'exec_command_end', call_id: 'c1', stdout: 'code\n', stderr: '', exit_code: 0 }),
      msg({ type: 'patch_apply_begin', call_id: 'p1', auto_approved: true, changes: { '/t/app/code/a.py': { update: { unified_diff: '' } } } }),
      msg({ type: 'patch_apply_end', call_id: 'p1', stdout: 'Success.', stderr: '', success: true }),
      msg({ type: 'agent_message', message: 'Done.' }),
      msg({
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: 3000, cached_input_tokens: 900, output_tokens: 400 },
          last_token_usage: { input_tokens: 2000, cached_input_tokens: 700, output_tokens: 350 },
        },
      }),
    );
    const t = transcriptOf(tryLog('Codex CLI', old), 'codex');
    assert.deepEqual(
      t.calls.map((c) => [shape(c.input), shape(c.output)]),
      [
        [[], ['reasoning:Look first.', 'call:shell']],
        [['result:shell=code\n'], ['call:apply_patch']],
        [['result:apply_patch=Success.'], ['assistant:Done.']],
      ],
    );
    assert.deepEqual(t.calls[0].toolCalls[0].input, { command: ['bash', '-lc', 'ls'] });
    assert.deepEqual(t.calls[0].usage, { input: 1000, output: 50, cached: 200, reasoning: 0 });
    assert.deepEqual(t.totals.usage, { input: 3000, output: 400, cached: 900, reasoning: 0 });
  });
});
