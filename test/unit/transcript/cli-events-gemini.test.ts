// Transcripts from Gemini CLI's stream-json, and from the single JSON object its logs held before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lines, shape, transcriptOf, tryLog } from './cli-events-fixture';

const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
const flat = { total_tokens: 5832, input_tokens: 5600, output_tokens: 232, cached: 600, input: 5000 };
const PROMPT = '# Role: Programmer\n\nImplement the requirements in `/t/app/code`.\n';

const STREAM = lines(
  { type: 'init', timestamp: at(0), session_id: '54a32900', model: 'gemini-2.5-pro' },
  { type: 'message', timestamp: at(0), role: 'user', content: PROMPT },
  { type: 'message', timestamp: at(1), role: 'assistant', content: 'I will run ', delta: true },
  { type: 'message', timestamp: at(1), role: 'assistant', content: 'a command.', delta: true },
  {
    type: 'tool_use',
    timestamp: at(1),
    tool_name: 'run_shell_command',
    tool_id: 'run_shell_command__call_1',
    parameters: { command: 'python3 -c "print(6 * 7)"', dir_path: '/t/app/code' },
  },
  { type: 'tool_result', timestamp: at(2), tool_id: 'run_shell_command__call_1', status: 'success', output: '42' },
  {
    type: 'tool_use',
    timestamp: at(2),
    tool_name: 'replace',
    tool_id: 'replace__call_2',
    parameters: { file_path: '/t/app/code/a.py', old_string: 'y', new_string: 'z' },
  },
  {
    type: 'tool_result',
    timestamp: at(3),
    tool_id: 'replace__call_2',
    status: 'error',
    error: { type: 'edit_no_occurrence_found', message: 'Failed to edit, 0 occurrences found' },
  },
  { type: 'error', timestamp: at(3), severity: 'warning', message: 'Loop detection is off' },
  {
    type: 'tool_use',
    timestamp: at(3),
    tool_name: 'write_file',
    tool_id: 'write_file__call_3',
    parameters: { file_path: '/t/app/code/a.py', content: 'x = 1\n' },
  },
  { type: 'tool_result', timestamp: at(4), tool_id: 'write_file__call_3', status: 'success' },
  { type: 'message', timestamp: at(4), role: 'assistant', content: 'The requirements are implemented.', delta: true },
  { type: 'result', timestamp: at(5), status: 'success', stats: { ...flat, duration_ms: 707, tool_calls: 3, models: { 'gemini-2.5-pro': flat } } },
);

describe('Gemini CLI stream-json', () => {
  const t = transcriptOf(
    tryLog('Gemini CLI', STREAM, { stderr: 'YOLO mode is enabled. All tool calls will be automatically approved.\n[STARTUP] Phase was started\n' }),
    'gemini',
  );

  test('the prompt is the first call’s input; streamed text joins; a new call after each tool result', () => {
    assert.deepEqual(
      t.calls.map((c) => [shape(c.input), shape(c.output)]),
      [
        [[`user:${PROMPT}`], ['assistant:I will run a command.', 'call:run_shell_command']],
        [['result:run_shell_command=42'], ['call:replace']],
        [['result:replace!=Failed to edit, 0 occurrences found'], ['call:write_file']],
        [['result:write_file='], ['assistant:The requirements are implemented.']],
      ],
    );
    assert.ok(t.calls.every((c) => c.model === 'gemini-2.5-pro'));
  });

  test('tool calls with their parameters; usage and time from the result; warnings are notes', () => {
    assert.deepEqual(t.calls[1].toolCalls, [
      { id: 'replace__call_2', name: 'replace', input: { file_path: '/t/app/code/a.py', old_string: 'y', new_string: 'z' } },
    ]);
    assert.deepEqual(t.calls[0].toolCalls[0].input, { command: 'python3 -c "print(6 * 7)"', dir_path: '/t/app/code' });
    assert.deepEqual(t.totals, { calls: 4, usage: { input: 5600, output: 232, cached: 600, reasoning: 0 }, ms: 707 });
    assert.deepEqual(t.notes, ['Warning from the CLI: Loop detection is off']);
  });

  test('a failing result: its error on the last call', () => {
    const failed = lines(
      { type: 'init', session_id: 's', model: 'gemini-2.5-pro' },
      { type: 'message', role: 'user', content: 'go' },
      { type: 'message', role: 'assistant', content: 'Working', delta: true },
      { type: 'result', status: 'error', error: { type: 'Error', message: '[API Error: 500 boom]' }, stats: { ...flat, duration_ms: 0, models: {} } },
    );
    const t2 = transcriptOf(tryLog('Gemini CLI', failed, { ended: { how: 'exit code 1', seconds: 1 } }), 'gemini');
    assert.equal(t2.calls.length, 1);
    assert.equal(t2.calls[0].error, '[API Error: 500 boom]');
  });
});

describe("Gemini CLI's single JSON object (logs recorded before)", () => {
  test('the response as the one call; usage summed over models, thoughts as output and reasoning', () => {
    const old = {
      response: 'Wrote requirement.xml.',
      stats: {
        models: {
          'gemini-2.5-pro': { api: { totalRequests: 3 }, tokens: { prompt: 20000, candidates: 320, total: 20474, cached: 8000, thoughts: 154, tool: 0 } },
          'gemini-2.5-flash': { tokens: { prompt: 5939, candidates: 30, cached: 0, thoughts: 0 } },
        },
        tools: { totalCalls: 2 },
      },
    };
    // Pretty-printed, after a line on stderr that opens with a bracket.
    const t = transcriptOf(tryLog('Gemini CLI', `${JSON.stringify(old, null, 2)}\n`, { stderr: '[Routing] Selected model gemini-2.5-pro\n' }), 'gemini');
    assert.deepEqual(shape(t.calls[0].output), ['assistant:Wrote requirement.xml.']);
    assert.deepEqual(t.totals.usage, { input: 25939, output: 320 + 154 + 30, cached: 8000, reasoning: 154 });
    assert.match(t.notes.join('\n'), /only the CLI's final answer/);
  });
});
