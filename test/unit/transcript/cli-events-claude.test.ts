// Transcripts from Claude Code's and Qwen Code's stream-json (the same shape), and from the
// single-JSON output their logs held before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { transcriptFromCliEvents } from '../../../src/core/transcript/cli-events-transcript';
import { lines, META, shape, transcriptOf, tryLog } from './cli-events-fixture';

const SESSION = { session_id: '7dd3a5ee', parent_tool_use_id: null };

/** An assistant event as Claude Code prints one: one content block, the whole message's id and usage so far. */
function assistant(id: string, block: object, usage: object, parent: string | null = null) {
  return {
    type: 'assistant',
    message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [block], stop_reason: null, usage },
    ...SESSION,
    parent_tool_use_id: parent,
  };
}

function toolResult(id: string, content: unknown, isError = false, parent: string | null = null) {
  return {
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, is_error: isError }] },
    ...SESSION,
    parent_tool_use_id: parent,
    timestamp: '2026-01-01T00:00:01.000Z',
  };
}

const u = (input: number, read: number, output = 0) => ({
  input_tokens: input,
  cache_creation_input_tokens: 5,
  cache_read_input_tokens: read,
  output_tokens: output,
});

const CLAUDE = lines(
  { type: 'system', subtype: 'init', cwd: '/t/app', tools: ['Task', 'Bash', 'Edit', 'Read', 'Write'], model: 'claude-sonnet-4-5', ...SESSION },
  // One message in three events: its thinking, its text, its tool call.
  assistant('msg_1', { type: 'thinking', thinking: 'The summary first.', signature: 'x' }, u(1100, 0)),
  assistant('msg_1', { type: 'text', text: 'Reading the summary.' }, u(1100, 0)),
  assistant(
    'msg_1',
    { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: "cat 'non-passed/summary.jsonl'", description: 'read' } },
    u(1100, 0, 12),
  ),
  toolResult('toolu_1', '{"test":"tests/test_inventory.py::t","outcome":"failed"}'),
  assistant(
    'msg_2',
    { type: 'tool_use', id: 'toolu_2', name: 'Write', input: { file_path: '/t/app/requirement.xml', content: '<requirements/>\n' } },
    u(1300, 200),
  ),
  toolResult('toolu_2', [{ type: 'text', text: 'File created successfully at: /t/app/requirement.xml' }]),
  assistant('msg_3', { type: 'tool_use', id: 'toolu_3', name: 'Edit', input: { file_path: '/t/app/x.py', old_string: 'a', new_string: 'b' } }, u(1400, 200)),
  toolResult('toolu_3', '<tool_use_error>String to replace not found in file.</tool_use_error>', true),
  // A sub-agent: its messages name the Task call that started it.
  assistant('msg_4', { type: 'tool_use', id: 'toolu_4', name: 'Task', input: { description: 'look', prompt: 'Find x.py' } }, u(1500, 200)),
  assistant('msg_s1', { type: 'tool_use', id: 'toolu_s1', name: 'Read', input: { file_path: '/t/app/x.py' } }, u(300, 0), 'toolu_4'),
  toolResult('toolu_s1', '1\tb = 1', false, 'toolu_4'),
  assistant('msg_s2', { type: 'text', text: 'x.py holds b.' }, u(350, 0), 'toolu_4'),
  toolResult('toolu_4', [{ type: 'text', text: 'x.py holds b.' }]),
  assistant('msg_5', { type: 'text', text: 'requirement.xml is written.' }, u(1600, 200)),
  {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 9000,
    num_turns: 5,
    result: 'requirement.xml is written.',
    total_cost_usd: 0.0129,
    usage: { input_tokens: 7250, cache_creation_input_tokens: 35, cache_read_input_tokens: 800, output_tokens: 153 },
    ...SESSION,
  },
);

describe('Claude Code stream-json', () => {
  const t = transcriptOf(tryLog('Claude Code', CLAUDE, { stderr: 'some warning on stderr\n' }), 'claude-code');

  test('one call per message: the blocks of one message id are one turn; a sub-agent is side calls', () => {
    assert.equal(t.calls.length, 7);
    assert.deepEqual(shape(t.calls[0].output), ['reasoning:The summary first.', 'assistant:Reading the summary.', 'call:Bash']);
    assert.deepEqual(
      t.calls.map((c) => c.side === true),
      [false, false, false, false, true, true, false],
    );
    assert.deepEqual(shape(t.calls[5].input), ['result:Read=1\tb = 1']);
    assert.deepEqual(shape(t.calls[6].input), ['result:Task=x.py holds b.']);
    assert.deepEqual(shape(t.calls[6].output), ['assistant:requirement.xml is written.']);
  });

  test("tool calls with the CLI's names and parsed inputs; results matched to them, errors marked", () => {
    assert.deepEqual(
      t.calls.flatMap((c) => c.toolCalls.map((tc) => tc.name)),
      ['Bash', 'Write', 'Edit', 'Task', 'Read'],
    );
    assert.deepEqual(t.calls[0].toolCalls, [{ id: 'toolu_1', name: 'Bash', input: { command: "cat 'non-passed/summary.jsonl'", description: 'read' } }]);
    assert.deepEqual(t.calls[1].toolCalls[0].input, { file_path: '/t/app/requirement.xml', content: '<requirements/>\n' });
    assert.deepEqual(shape(t.calls[1].input), ['result:Bash={"test":"tests/test_inventory.py::t","outcome":"failed"}']);
    assert.deepEqual(shape(t.calls[2].input), ['result:Write=File created successfully at: /t/app/requirement.xml']);
    assert.deepEqual(shape(t.calls[3].input), ['result:Edit!=<tool_use_error>String to replace not found in file.</tool_use_error>']);
  });

  test('usage per message (cache reads and writes in the input), the totals and cost from the result', () => {
    assert.deepEqual(t.calls[0].usage, { input: 1100 + 5, output: 12, cached: 0, reasoning: 0 });
    assert.deepEqual(t.calls[1].usage, { input: 1300 + 5 + 200, output: 0, cached: 200, reasoning: 0 });
    assert.equal(t.calls[0].model, 'claude-sonnet-4-5');
    assert.deepEqual(t.totals, { calls: 7, usage: { input: 7250 + 35 + 800, output: 153, cached: 800, reasoning: 0 }, costUsd: 0.0129, ms: 9000 });
    assert.deepEqual(
      t.tools.map((x) => x.name),
      ['Task', 'Bash', 'Edit', 'Read', 'Write'],
    );
    assert.equal(t.agent, 'claude-code');
    assert.equal(t.iteration, META.iteration);
    assert.match(t.notes.join('\n'), /output tokens as they stood/);
  });
});

describe('Qwen Code stream-json', () => {
  const qwenTurn = (id: string, block: object, input: number, output: number) => ({
    type: 'assistant',
    uuid: id,
    session_id: 'q',
    parent_tool_use_id: null,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'qwen3-coder-plus',
      content: [block],
      stop_reason: 'tool_use',
      usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 200, total_tokens: input + output },
    },
  });
  const result = (id: string, content: string) => ({
    type: 'user',
    session_id: 'q',
    parent_tool_use_id: null,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: false, content }] },
  });
  const stream = lines(
    {
      type: 'system',
      subtype: 'init',
      session_id: 'q',
      tools: ['read_file', 'write_file', 'run_shell_command'],
      model: 'qwen3-coder-plus',
      qwen_code_version: '0.15.10',
    },
    qwenTurn(
      'a1',
      { type: 'tool_use', id: 'call_1', name: 'run_shell_command', input: { command: 'python3 -c "print(6 * 7)"', directory: '/t/app/code' } },
      1300,
      51,
    ),
    result('call_1', '42'),
    qwenTurn('a2', { type: 'tool_use', id: 'call_2', name: 'write_file', input: { file_path: '/t/app/code/a.py', content: 'x = 1\n' } }, 1500, 65),
    result('call_2', 'Successfully overwrote file: /t/app/code/a.py.'),
    qwenTurn('a3', { type: 'text', text: 'The requirements are implemented.' }, 1700, 79),
    {
      type: 'result',
      subtype: 'success',
      session_id: 'q',
      is_error: false,
      duration_ms: 3412,
      num_turns: 3,
      result: 'done',
      usage: { input_tokens: 4500, output_tokens: 195, cache_read_input_tokens: 600 },
    },
  );

  test('turns, tool calls and results; its input count already holds the cached tokens (not added again)', () => {
    const t = transcriptOf(tryLog('Qwen Code', stream), 'qwen');
    assert.deepEqual(
      t.calls.map((c) => [shape(c.input), shape(c.output)]),
      [
        [[], ['call:run_shell_command']],
        [['result:run_shell_command=42'], ['call:write_file']],
        [['result:write_file=Successfully overwrote file: /t/app/code/a.py.'], ['assistant:The requirements are implemented.']],
      ],
    );
    assert.deepEqual(t.calls[1].toolCalls, [{ id: 'call_2', name: 'write_file', input: { file_path: '/t/app/code/a.py', content: 'x = 1\n' } }]);
    assert.deepEqual(t.calls[0].usage, { input: 1300, output: 51, cached: 200, reasoning: 0 });
    assert.equal(t.calls[0].stopReason, 'tool_use');
    assert.deepEqual(t.totals.usage, { input: 4500, output: 195, cached: 600, reasoning: 0 });
    assert.equal(t.totals.ms, 3412);
    assert.deepEqual(t.notes, []);
    // The same stream read without knowing the agent (a custom command): Qwen Code by its init event.
    assert.deepEqual(transcriptOf(tryLog('custom: agent', stream), 'custom').calls[0].usage, t.calls[0].usage);
  });

  test('its single-JSON array (logs recorded before): the same turns', () => {
    const array = JSON.stringify(
      stream
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    );
    const t = transcriptOf(tryLog('Qwen Code', `${array}\n`), 'qwen');
    assert.equal(t.calls.length, 3);
    assert.deepEqual(t.calls[2].toolCalls, []);
    assert.deepEqual(shape(t.calls[1].input), ['result:run_shell_command=42']);
  });
});

describe("Claude Code's single JSON result (logs recorded before)", () => {
  test('the final answer as the one call, the totals from the result, and a note that the turns are not in it', () => {
    const result = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: 42000,
      num_turns: 6,
      result: 'Wrote requirement.xml.',
      total_cost_usd: 0.42,
      usage: { input_tokens: 38, cache_creation_input_tokens: 12040, cache_read_input_tokens: 160233, output_tokens: 2911 },
    };
    const t = transcriptOf(tryLog('Claude Code', `${JSON.stringify(result)}\n`), 'claude-code');
    assert.equal(t.calls.length, 1);
    assert.deepEqual(shape(t.calls[0].output), ['assistant:Wrote requirement.xml.']);
    assert.deepEqual(t.totals.usage, { input: 38 + 12040 + 160233, output: 2911, cached: 160233, reasoning: 0 });
    assert.equal(t.totals.costUsd, 0.42);
    assert.match(t.notes.join('\n'), /only the CLI's final answer .*the 6 turns before it are not in it/);
  });

  test('pretty-printed after a line of stderr, it is still read', () => {
    const result = { type: 'result', subtype: 'success', is_error: false, result: 'ok', usage: { input_tokens: 1, output_tokens: 2 } };
    const t = transcriptOf(tryLog('Claude Code', `${JSON.stringify(result, null, 2)}\n`, { stderr: 'npm warn something\n' }), 'claude-code');
    assert.deepEqual(shape(t.calls[0].output), ['assistant:ok']);
    assert.deepEqual(
      t.notes.filter((n) => /could not be read/.test(n)),
      [],
    );
  });
});

describe('what the CLI and the driver said of the try', () => {
  test("a try that ended with an error: the driver's error line and how it ended are notes", () => {
    const failed = lines(assistant('m', { type: 'text', text: 'API Error: 529 overloaded' }, u(10, 0)), {
      type: 'result',
      subtype: 'success',
      is_error: true,
      result: 'API Error: 529 overloaded',
    });
    const t = transcriptOf(
      tryLog('Claude Code', failed, { ended: { how: 'exit code 1', seconds: 2 }, error: 'the CLI reported an error (success): API Error: 529 overloaded' }),
      'claude-code',
    );
    assert.ok(t.notes.includes('The try ended: exit code 1.'), t.notes.join('\n'));
    assert.ok(t.notes.some((n) => /API Error: 529 overloaded/.test(n)));
    assert.equal(t.totals.ms, 2000, 'no duration in the result: the driver measured it');
  });

  test('tool results after the last message (the try was stopped): a last call with no answer, marked cut', () => {
    const stopped = CLAUDE.split('\n').slice(0, 5).join('\n') + '\n';
    const t = transcriptOf(tryLog('Claude Code', stopped, { ended: { how: 'timed out (process tree killed)', seconds: 1800 } }), 'claude-code');
    assert.equal(t.calls.length, 2);
    assert.deepEqual(t.calls[1].output, []);
    assert.match(t.calls[1].truncated ?? '', /before the model answered/);
    assert.ok(t.notes.includes('The try ended: timed out (process tree killed).'));
    assert.equal(transcriptFromCliEvents(tryLog('Claude Code', stopped), { ...META, agent: 'claude-code' })?.calls.length, 2);
  });
});
