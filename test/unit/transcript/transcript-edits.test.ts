import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Transcript, TranscriptCall } from '../../../src/core/transcript/transcript-schema';
import { fileChangeAt, fileChanges } from '../../../src/shared/transcript-edits';

function t(toolCalls: TranscriptCall['toolCalls'][]): Transcript {
  return {
    source: 'gateway',
    role: 'programmer',
    iteration: 1,
    attempt: 1,
    tools: [],
    calls: toolCalls.map((tc, i) => ({ call: i + 1, input: [], output: [], toolCalls: tc })),
    totals: { calls: toolCalls.length, usage: { input: 0, output: 0, cached: 0, reasoning: 0 }, ms: 0 },
    notes: [],
  };
}

test("a write is against empty at first, then against the try's previous write of the file", () => {
  const changes = fileChanges(
    t([
      [{ name: 'Write', input: { file_path: '/w/app/code/a.py', content: 'x = 1\n' } }],
      [
        { name: 'Bash', input: { command: 'pytest' } },
        { name: 'Write', input: { file_path: '/w/app/code/a.py', content: 'x = 2\n' } },
      ],
    ]),
  );
  assert.deepEqual(
    changes.map(({ call, tool, before, after, whole }) => ({ call, tool, before, after, whole })),
    [
      { call: 1, tool: 0, before: '', after: 'x = 1\n', whole: true },
      { call: 2, tool: 1, before: 'x = 1\n', after: 'x = 2\n', whole: true },
    ],
  );
  assert.equal(fileChangeAt(changes, 2, 1)?.after, 'x = 2\n');
  assert.equal(fileChangeAt(changes, 2, 0), undefined, 'a shell command is no file change');
});

test('an edit applies to the file as the try wrote it; of a file it never wrote, it shows only the edited parts', () => {
  const changes = fileChanges(
    t([
      [{ name: 'Write', input: { file_path: 'a.py', content: 'def f():\n    return 1\n' } }],
      [{ name: 'Edit', input: { file_path: 'a.py', old_string: 'return 1', new_string: 'return 2' } }],
      [{ name: 'Edit', input: { file_path: 'b.py', old_string: 'old', new_string: 'new' } }],
    ]),
  );
  assert.deepEqual(changes[1], {
    call: 2,
    tool: 0,
    kind: 'edit',
    path: 'a.py',
    before: 'def f():\n    return 1\n',
    after: 'def f():\n    return 2\n',
    whole: true,
  });
  assert.deepEqual(changes[2], { call: 3, tool: 0, kind: 'edit', path: 'b.py', before: 'old', after: 'new', whole: false });
});

test('an edit whose old text is not in the file as written is shown as its parts, and the file is no longer known', () => {
  const changes = fileChanges(
    t([
      [{ name: 'Write', input: { file_path: 'a.py', content: 'a\n' } }],
      [{ name: 'Edit', input: { file_path: 'a.py', old_string: 'zzz', new_string: 'b' } }],
      [{ name: 'Write', input: { file_path: 'a.py', content: 'c\n' } }],
    ]),
  );
  assert.equal(changes[1].whole, false);
  assert.equal(changes[2].before, '', 'after an edit it could not follow, the next write is not diffed against a guess');
});
