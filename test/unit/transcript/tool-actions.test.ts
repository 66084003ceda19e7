// toolAction on each CLI's own tool names and argument names (as the project's model server calls
// them, scripts/stand-in-model/tool-kit.ts), and filesWritten over a transcript.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { transcriptFromCalls } from './transcript-from-calls';
import { callsWriting, filesWritten, toolAction } from '../../../src/shared/tool-actions';
import { writeCall, shellCall } from '../../../scripts/stand-in-model/tool-kit';
import type { Conversation } from '../../../scripts/stand-in-model/conversation';
import { PROTOCOLS, architectTry } from './wire-fixture';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: src/new.py',
  '+print(1)',
  '*** Update File: src/old.py',
  '*** Move to: src/renamed.py',
  '@@',
  '-a',
  '+b',
  '*** Delete File: src/gone.py',
  '*** End Patch',
].join('\n');

/** A conversation that offers one tool, to ask the model server's tool kit how it calls it. */
const offering = (name: string): Conversation => ({
  protocol: 'chat-completions',
  model: 'm',
  system: '',
  turns: [],
  tools: [{ name, kind: 'function' }],
  stream: false,
});

describe('toolAction', () => {
  test('shell tools of every CLI, called as the model server calls them', () => {
    for (const name of ['Bash', 'run_shell_command', 'bash', 'exec_command', 'shell_command', 'shell']) {
      const call = shellCall(offering(name), 'python3 -c "print(6 * 7)"', '/task/app/code');
      assert.ok(call, name);
      assert.deepEqual(toolAction({ name: call.name, input: call.args }), { kind: 'shell', command: 'python3 -c "print(6 * 7)"' }, name);
    }
    // codex's local_shell action, an argv that is no shell script, and a command as plain text.
    assert.deepEqual(toolAction({ name: 'local_shell', input: { type: 'exec', command: ['ls', '-la', 'my dir'] } }), {
      kind: 'shell',
      command: "ls -la 'my dir'",
    });
    assert.deepEqual(toolAction({ name: 'shell', input: { command: ['/bin/bash', '-c', 'echo hi'] } }), { kind: 'shell', command: 'echo hi' });
    assert.deepEqual(toolAction({ name: 'Bash', input: 'echo raw' }), { kind: 'shell', command: 'echo raw' });
    assert.equal(toolAction({ name: 'Bash', input: { description: 'no command' } }), undefined);
  });

  test('write tools of every CLI, called as the model server calls them', () => {
    for (const name of ['Write', 'write_file', 'write']) {
      const call = writeCall(offering(name), '/task/app/requirement.xml', '<requirements/>\n');
      assert.ok(call, name);
      assert.deepEqual(
        toolAction({ name: call.name, input: call.args }),
        { kind: 'write', path: '/task/app/requirement.xml', content: '<requirements/>\n' },
        name,
      );
    }
  });

  test('edits: Claude Code’s Edit and MultiEdit, gemini’s replace, qwen’s edit, opencode’s edit and multiedit', () => {
    const one = { kind: 'edit', path: '/a.py', edits: [{ old: 'x = 1', new: 'x = 2' }] };
    assert.deepEqual(toolAction({ name: 'Edit', input: { file_path: '/a.py', old_string: 'x = 1', new_string: 'x = 2', replace_all: false } }), one);
    assert.deepEqual(toolAction({ name: 'replace', input: { file_path: '/a.py', old_string: 'x = 1', new_string: 'x = 2', expected_replacements: 1 } }), one);
    assert.deepEqual(toolAction({ name: 'edit', input: { file_path: '/a.py', old_string: 'x = 1', new_string: 'x = 2' } }), one);
    assert.deepEqual(toolAction({ name: 'edit', input: { filePath: '/a.py', oldString: 'x = 1', newString: 'x = 2', replaceAll: true } }), one);
    const two = {
      kind: 'edit',
      path: '/a.py',
      edits: [
        { old: 'a', new: 'b' },
        { old: 'c', new: '' },
      ],
    };
    assert.deepEqual(
      toolAction({
        name: 'MultiEdit',
        input: {
          file_path: '/a.py',
          edits: [
            { old_string: 'a', new_string: 'b' },
            { old_string: 'c', new_string: '' },
          ],
        },
      }),
      two,
    );
    assert.deepEqual(
      toolAction({
        name: 'multiedit',
        input: {
          filePath: '/a.py',
          edits: [
            { filePath: '/a.py', oldString: 'a', newString: 'b' },
            { oldString: 'c', newString: '' },
          ],
        },
      }),
      two,
    );
  });

  test('patches: codex’s apply_patch (custom tool text, function {input}, argv, heredoc), opencode’s {patchText}', () => {
    const want = { kind: 'patch', paths: ['src/new.py', 'src/old.py', 'src/renamed.py', 'src/gone.py'], patch: PATCH };
    assert.deepEqual(toolAction({ name: 'apply_patch', input: PATCH }), want);
    assert.deepEqual(toolAction({ name: 'apply_patch', input: { input: PATCH } }), want);
    assert.deepEqual(toolAction({ name: 'apply_patch', input: { patchText: PATCH } }), want);
    assert.deepEqual(toolAction({ name: 'shell', input: { command: ['apply_patch', PATCH] } }), want);
    assert.deepEqual(toolAction({ name: 'shell_command', input: { command: `apply_patch <<'EOF'\n${PATCH}\nEOF\n` } }), want);
    assert.deepEqual(toolAction({ name: 'exec_command', input: { cmd: `cd /app && apply_patch <<'EOF'\n${PATCH}\nEOF` } }), want);
    assert.equal(toolAction({ name: 'apply_patch', input: 'not a patch' }), undefined);
  });

  test('reads, searches and unknown tools are no action', () => {
    for (const name of ['Read', 'read_file', 'Grep', 'glob', 'update_plan', 'TodoWrite'])
      assert.equal(toolAction({ name, input: { file_path: '/a.py', content: 'x' } }), undefined, name);
  });
});

describe('filesWritten', () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: requirement.xml is written by the call that wrote it`, () => {
      const t = transcriptFromCalls(architectTry(protocol).calls, { role: 'architect', iteration: 1, try: 1 });
      const files = filesWritten(t);
      assert.deepEqual([...files.entries()], [['/task/app/requirement.xml', [3]]]);
      assert.deepEqual(callsWriting(files, 'requirement.xml'), [3]);
      assert.deepEqual(callsWriting(files, 'app/requirement.xml'), [3]);
      assert.deepEqual(callsWriting(files, 'other.xml'), []);
    });
  }

  test('a file written by several calls lists each once, in order; patch paths relative to the working folder match too', () => {
    const t = transcriptFromCalls([], { role: 'programmer', iteration: 2, try: 1 });
    t.calls = [1, 2, 3].map((call) => ({
      call,
      input: [],
      output: [],
      toolCalls:
        call === 2
          ? [{ name: 'apply_patch', input: PATCH }]
          : [
              { name: 'Write', input: { file_path: '/app/code/src/new.py', content: 'a' } },
              { name: 'Edit', input: { file_path: '/app/code/src/new.py', old_string: 'a', new_string: 'b' } },
            ],
    }));
    const files = filesWritten(t);
    assert.deepEqual(files.get('/app/code/src/new.py'), [1, 3]);
    assert.deepEqual(files.get('src/gone.py'), [2]);
    assert.deepEqual(callsWriting(files, '/app/code/src/new.py'), [1, 2, 3]);
  });
});
