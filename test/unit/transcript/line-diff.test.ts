import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitLines } from '../../../src/shared/split-lines';
import { diffHunks, diffStat, lineDiff } from '../../../webview-ui/line-diff';

type DiffLine = ReturnType<typeof lineDiff>[number];

/** The diff in the `+x` / `-x` / ` x` notation of a unified diff. */
const show = (lines: DiffLine[]) => lines.map((l) => (l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' ') + l.text);

/** Both sides back from a diff: what a correct diff must give. */
function sides(lines: DiffLine[]): { before: string[]; after: string[] } {
  return { before: lines.filter((l) => l.kind !== 'add').map((l) => l.text), after: lines.filter((l) => l.kind !== 'del').map((l) => l.text) };
}

test('a new file is all added; an emptied one all removed; the same text has no change', () => {
  assert.deepEqual(show(lineDiff('', 'a\nb\n')), ['+a', '+b']);
  assert.deepEqual(show(lineDiff('a\nb', '')), ['-a', '-b']);
  assert.deepEqual(show(lineDiff('a\nb\n', 'a\nb\n')), [' a', ' b']);
});

test('a changed line in the middle is removed and added, the rest unchanged', () => {
  assert.deepEqual(show(lineDiff('a\nb\nc\n', 'a\nB\nc\n')), [' a', '-b', '+B', ' c']);
  assert.deepEqual(show(lineDiff('a\nc\n', 'a\nb\nc\n')), [' a', '+b', ' c']);
});

test('the diff is minimal and gives back both sides, on edits all over a file', () => {
  const before = ['def f():', '    return 1', '', 'def g():', '    pass', '', 'x = f()'];
  const after = ['import os', 'def f():', '    return 2', '', 'def g():', '    pass', 'x = f()', 'print(x)'];
  const d = lineDiff(before.join('\n'), after.join('\n'));
  assert.deepEqual(sides(d), { before, after });
  // One line in, one changed (out and in), one blank out, one line in: 5 edits at the least.
  const { added, removed } = diffStat(d);
  assert.equal(added + removed, 5);
});

test('random edits: the diff always gives back both sides', () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let round = 0; round < 200; round++) {
    const before = Array.from({ length: rand(30) }, () => `line ${rand(8)}`);
    const after = before.flatMap((l) => (rand(5) === 0 ? [] : rand(6) === 0 ? [l, `new ${rand(8)}`] : [rand(7) === 0 ? `changed ${rand(3)}` : l]));
    assert.deepEqual(sides(lineDiff(before.join('\n'), after.join('\n'))), { before, after });
  }
});

test('CRLF files split like LF ones; a final newline starts no empty line', () => {
  assert.deepEqual(splitLines('a\r\nb\r\n'), ['a', 'b']);
  assert.deepEqual(splitLines(''), []);
  assert.deepEqual(splitLines('\n'), ['']);
});

test('hunks keep three lines around each change and fold the long unchanged runs', () => {
  const before = Array.from({ length: 30 }, (_, i) => `l${i}`);
  const after = [...before];
  after[15] = 'changed';
  const hunks = diffHunks(lineDiff(before.join('\n'), after.join('\n')));
  assert.deepEqual(
    hunks.map((h) => (h.kind === 'folded' ? `fold ${h.count}` : h.lines.length)),
    ['fold 12', 8, 'fold 11'],
  );
  assert.deepEqual(diffHunks(lineDiff('a', 'b')).length, 1);
});

test('a large rewrite beyond the search bound is all removed then all added, still both sides', () => {
  // Every other line changed: the shortest diff keeps the unchanged half, and it needs one removal
  // and one addition per changed line. Within the bound (4000 edits) that is what comes out;
  // beyond it the search stops and the whole middle is removed, then added. No clock: the shape
  // says the search was cut off.
  const alternate = (lines: number) => {
    const before = Array.from({ length: lines }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i % 2 ? `new ${i}` : l));
    return lineDiff(before.join('\n'), after.join('\n'));
  };
  const within = alternate(3000);
  assert.deepEqual(diffStat(within), { added: 1500, removed: 1500 }, 'within the bound: the shortest diff');
  assert.deepEqual(sides(within), {
    before: Array.from({ length: 3000 }, (_, i) => `line ${i}`),
    after: Array.from({ length: 3000 }, (_, i) => (i % 2 ? `new ${i}` : `line ${i}`)),
  });
  const beyond = alternate(5000);
  // The first line is common (set aside as the head); the other 4999 differ as a block.
  assert.deepEqual(diffStat(beyond), { added: 4999, removed: 4999 }, 'beyond the bound: all removed, then all added');
  assert.deepEqual(beyond.map((l) => l.kind).join(''), 'same' + 'del'.repeat(4999) + 'add'.repeat(4999));
  assert.deepEqual(sides(beyond).after[4999], 'new 4999');
});
