// The replay matcher on tool results, in the shapes the pinned CLIs send them (copied from their
// recorded calls in the conformance suite): what a tool result reports about the machine — a
// process group id, a wall time, pytest's duration — does not make a replay diverge; what the
// command did — its output, a file's contents, pytest's counts — does, named by its JSON path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WireProtocol } from '../../../src/core/agents/endpoint/endpoint';
import { requestDifference } from '../../../src/core/gateway/replay-match';

const PATHS: Record<WireProtocol, string> = {
  'chat-completions': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'anthropic-messages': '/v1/messages',
  gemini: '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
};

/** A request of `protocol` whose one tool call came back with `result`. */
function withResult(protocol: WireProtocol, result: string): unknown {
  switch (protocol) {
    case 'chat-completions': // qwen: the result as text parts
      return {
        messages: [
          { role: 'system', content: 'You are Qwen Code.' },
          { role: 'user', content: 'Implement the requirement.' },
          { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_shell_command', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: result }] },
        ],
        tools: [{ type: 'function', function: { name: 'run_shell_command' } }],
      };
    case 'openai-responses': // codex
      return {
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Implement the requirement.' }] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'exec_command', arguments: '{}' },
          { type: 'function_call_output', id: 'fco_1', call_id: 'call_1', output: result },
        ],
        tools: [{ type: 'function', name: 'exec_command' }],
      };
    case 'anthropic-messages': // claude-code
      return {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Implement the requirement.' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'Bash', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: result, is_error: false }] },
        ],
        tools: [{ name: 'Bash' }],
      };
    case 'gemini': // gemini-cli
      return {
        contents: [
          { role: 'user', parts: [{ text: 'Implement the requirement.' }] },
          { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: {}, id: 'call_1' } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', id: 'call_1', response: { output: result } } }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
      };
  }
}

/** Where the tool result sits in each protocol's request. */
const RESULT_PATH: Record<WireProtocol, string> = {
  'chat-completions': '$.messages[3].content[0].text',
  'openai-responses': '$.input[2].output',
  'anthropic-messages': '$.messages[2].content[0].content',
  gemini: '$.contents[2].parts[0].functionResponse.response.output',
};

const difference = (protocol: WireProtocol, recorded: string, now: string): string | undefined =>
  requestDifference(
    protocol,
    { method: 'POST', path: PATHS[protocol], stream: true, body: withResult(protocol, recorded) },
    { method: 'POST', path: PATHS[protocol], stream: true, body: withResult(protocol, now) },
  );

const qwenShell = (output: string, pgid: number) =>
  `Command: python3 -c "print(6 * 7)"\nDirectory: /tmp/exp/app/code\nOutput: ${output}\nError: (none)\nExit Code: 0\nSignal: 0\nProcess Group PGID: ${pgid}`;
const geminiShell = (output: string, pids: string, pgid: number) =>
  `<untrusted_context>\nOutput: ${output}\nBackground PIDs: ${pids}\nProcess Group PGID: ${pgid}\n</untrusted_context>`;
const codexExec = (chunk: string, seconds: string, output: string) =>
  `Chunk ID: ${chunk}\nWall time: ${seconds} seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\n${output}\n`;
const pytestRun = (counts: string, seconds: string) =>
  `tests/test_inventory.py ..F.\n\n=================== FAILURES ===================\n___ test_search ___\nE   assert 1 == 2\n============= ${counts} in ${seconds} =============`;

describe('replay matcher: volatile facts in a tool result', () => {
  test('qwen: another process group id matches; another output diverges at the tool result', () => {
    assert.equal(difference('chat-completions', qwenShell('42', 62), qwenShell('42', 63)), undefined);
    assert.equal(
      difference('chat-completions', qwenShell('42', 62), qwenShell('41', 62)),
      `${RESULT_PATH['chat-completions']}: "…p/app/code\\nOutput: 41\\nError: (none)\\nExit Code: 0\\nS…" now, "…p/app/code\\nOutput: 42\\nError: (none)\\nExit Code: 0\\nS…" recorded`,
    );
  });

  test("qwen: the long-run note (only after 60 s) matches with or without it, whatever seconds it says; a changed exit code doesn't", () => {
    const note = (s: number) =>
      `\n\nNote: this foreground command ran for ${s}s. Next time you run a similar long-running process (build watchers, dev servers, soak tests, polling loops), pass \`is_background: true\` so the agent isn't blocked while the command runs.`;
    assert.equal(difference('chat-completions', qwenShell('ok', 7) + note(61), qwenShell('ok', 9)), undefined);
    assert.equal(difference('chat-completions', qwenShell('ok', 7) + note(61), qwenShell('ok', 9) + note(75)), undefined);
    const failed = qwenShell('ok', 7).replace('Exit Code: 0', 'Exit Code: 1');
    assert.match(
      difference('chat-completions', qwenShell('ok', 7), failed) ?? '',
      /^\$\.messages\[3\]\.content\[0\]\.text: ".*Exit Code: 1.*" now, ".*Exit Code: 0.*" recorded$/,
    );
  });

  test('gemini: other background pids and process group match; other file contents diverge', () => {
    assert.equal(difference('gemini', geminiShell('42', '71, 72', 28), geminiShell('42', '80, 81', 31)), undefined);
    assert.match(
      difference('gemini', geminiShell('def low_stock(self):', '71', 28), geminiShell('def low_stock(self, n):', '71', 28)) ?? '',
      /^\$\.contents\[2\]\.parts\[0\]\.functionResponse\.response\.output: "…: def low_stock\(self, n\):\\nBackground PIDs: <pids>\\n…" now, "…: def low_stock\(self\):/,
    );
    // Only the background line's count of pids is volatile, not whether there is one.
    assert.match(
      difference('gemini', geminiShell('42', '71', 28), geminiShell('42', '71', 28).replace('Background PIDs: 71\n', '')) ?? '',
      /^\$\.contents\[2\]/,
    );
  });

  test('codex: another chunk id and wall time match; another output diverges', () => {
    assert.equal(difference('openai-responses', codexExec('58c721', '0.0000', '42'), codexExec('ad021a', '1.2034', '42')), undefined);
    assert.match(
      difference('openai-responses', codexExec('58c721', '0.0000', '42'), codexExec('58c721', '0.0000', '43')) ?? '',
      /^\$\.input\[2\]\.output: ".*43/,
    );
  });

  for (const protocol of ['anthropic-messages', 'openai-responses', 'gemini', 'chat-completions'] as const)
    test(`${protocol}: pytest's duration matches however long it took; other counts diverge, named by the result's path`, () => {
      assert.equal(difference(protocol, pytestRun('1 failed, 3 passed', '0.12s'), pytestRun('1 failed, 3 passed', '1.07s')), undefined);
      assert.equal(difference(protocol, pytestRun('1 failed, 3 passed', '59.80s'), pytestRun('1 failed, 3 passed', '75.32s (0:01:15)')), undefined);
      assert.equal(
        difference(protocol, pytestRun('1 failed, 3 passed', '0.12s'), pytestRun('4 passed', '0.12s')),
        `${RESULT_PATH[protocol]}: "… == 2\\n============= 4 passed in <seconds>s =======…" now, "… == 2\\n============= 1 failed, 3 passed in <seconds…" recorded`,
      );
    });

  test("pytest -q's bare line, warnings and 'no tests ran' match on their duration alone", () => {
    for (const [a, b] of [
      ['3 passed in 0.05s', '3 passed in 0.31s'],
      ['2 passed, 1 warning in 0.40s', '2 passed, 1 warning in 2.00s'],
      ['no tests ran in 0.01s', 'no tests ran in 0.02s'],
      ['Output: 1 error in 0.20s', 'Output: 1 error in 0.90s'],
    ])
      assert.equal(difference('anthropic-messages', a, b), undefined, a);
    assert.ok(difference('anthropic-messages', '3 passed in 0.05s', '2 passed in 0.05s'));
    assert.ok(difference('anthropic-messages', '2 passed, 1 warning in 0.40s', '2 passed in 0.40s'));
  });

  test('only a tool result is masked: the same numbers in a prompt still diverge', () => {
    const prompt = (text: string) => ({ messages: [{ role: 'user', content: [{ type: 'text', text }] }], tools: [] });
    const d = requestDifference(
      'anthropic-messages',
      { method: 'POST', path: '/v1/messages', stream: true, body: prompt('Process Group PGID: 62') },
      { method: 'POST', path: '/v1/messages', stream: true, body: prompt('Process Group PGID: 63') },
    );
    assert.equal(d, '$.messages[0].content[0].text: "…rocess Group PGID: 63" now, "…rocess Group PGID: 62" recorded');
  });

  test('a number that merely looks like one is compared: a PGID inside the output, a duration outside pytest', () => {
    assert.ok(difference('chat-completions', qwenShell('pgid 62', 5), qwenShell('pgid 63', 5)));
    assert.ok(difference('anthropic-messages', 'built in 0.12s', 'built in 0.31s'));
  });
});
