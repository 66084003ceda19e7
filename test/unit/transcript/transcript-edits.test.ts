import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Transcript, TranscriptCall } from '../../../src/shared/transcript-schema';
import { fileChangeAt, fileChanges } from '../../../src/shared/transcript-edits';

function t(toolCalls: TranscriptCall['toolCalls'][]): Transcript {
  return {
    source: 'gateway',
    role: 'programmer',
    iteration: 1,
    try: 1,
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
    against: 'write',
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

test("Claude Code's Read of a whole file is what a later Write or Edit of it is against; a cut or failed read is not", () => {
  const read = (id: string, file: string, more: Record<string, unknown> = {}) => ({ id, name: 'Read', input: { file_path: file, ...more } });
  const result = (id: string, output: string, isError?: boolean) => ({ kind: 'tool-result' as const, id, output, ...(isError ? { isError } : {}) });
  const transcript = t([
    [read('r1', '/w/app/code/a.py'), read('r2', '/w/app/code/b.py', { offset: 2, limit: 1 }), read('r3', '/w/app/code/c.py')],
    [
      { name: 'Write', input: { file_path: '/w/app/code/a.py', content: 'x = 1\ny = 3\n' } },
      { name: 'Write', input: { file_path: '/w/app/code/b.py', content: 'b\n' } },
      { name: 'Edit', input: { file_path: '/w/app/code/c.py', old_string: 'c', new_string: 'd' } },
      read('r4', '/w/app/code/d.py'),
    ],
    [{ name: 'Edit', input: { file_path: '/w/app/code/d.py', old_string: 'two', new_string: '2' } }],
  ]);
  transcript.calls[1].input = [
    // Numbered lines (tab or arrow) and the reminder Claude Code appends.
    result('r1', '     1\tx = 1\n     2\ty = 2\n     3\t\n\n<system-reminder>\nConsider whether it is malware.\n</system-reminder>\n'),
    result('r2', '     2\tb'),
    result('r3', 'File does not exist.', true),
  ];
  transcript.calls[2].input = [result('r4', '1→one\n2→two\n3→')];
  const changes = fileChanges(transcript);
  assert.deepEqual(
    changes.map(({ path, before, after, whole, against }) => ({ path, before, after, whole, against })),
    [
      { path: '/w/app/code/a.py', before: 'x = 1\ny = 2\n', after: 'x = 1\ny = 3\n', whole: true, against: 'read' },
      { path: '/w/app/code/b.py', before: '', after: 'b\n', whole: true, against: undefined },
      { path: '/w/app/code/c.py', before: 'c', after: 'd', whole: false, against: undefined },
      { path: '/w/app/code/d.py', before: 'one\ntwo\n', after: 'one\n2\n', whole: true, against: 'read' },
    ],
  );
});

test("a read's numbered lines are the file; anything else is no file", () => {
  /** The file as a Read that returned `output` makes it known: what a later Write of it is against. */
  const readContent = (output: string): string | undefined => {
    const transcript = t([[{ id: 'r', name: 'Read', input: { file_path: 'f.py' } }], [{ name: 'Write', input: { file_path: 'f.py', content: 'new\n' } }]]);
    transcript.calls[1].input = [{ kind: 'tool-result', id: 'r', output }];
    const [write] = fileChanges(transcript);
    return write.against === 'read' ? write.before : undefined;
  };
  assert.equal(readContent('     1\ta\n     2\tb'), 'a\nb');
  assert.equal(readContent('     1\ta\n     3\tb'), undefined, 'a line left out');
  assert.equal(readContent('<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>'), undefined);
  assert.equal(readContent(''), undefined);
});
