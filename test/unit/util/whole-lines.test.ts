import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WholeLines } from '../../../src/core/util/whole-lines';
import { splitLines } from '../../../src/shared/split-lines';

test('output in arbitrary chunks comes out as whole lines, each with its newline; flush ends the last', () => {
  const out: string[] = [];
  const w = new WholeLines((t) => out.push(t));
  w.push('first li');
  assert.deepEqual(out, [], 'half a line is held');
  w.push('ne\r\nsecond\nthi');
  assert.deepEqual(out, ['first line\r\nsecond\n']);
  w.push('rd');
  w.flush();
  assert.deepEqual(out, ['first line\r\nsecond\n', 'third\n']);
  w.flush();
  assert.equal(out.length, 2, 'a second flush hands on nothing');
  assert.deepEqual(splitLines(out.join('')), ['first line', 'second', 'third']);
});

test('a line longer than the bound is handed on unfinished instead of held', () => {
  const out: string[] = [];
  const w = new WholeLines((t) => out.push(t), 8);
  w.push('0123');
  w.push('456789');
  assert.deepEqual(out, ['0123456789']);
  w.push('ab\n');
  assert.deepEqual(out, ['0123456789', 'ab\n']);
});

test('splitLines keeps empty lines and drops only the final line end', () => {
  assert.deepEqual(splitLines('a\n\nb\r\n'), ['a', '', 'b']);
  assert.deepEqual(splitLines('\n'), ['']);
  assert.deepEqual(splitLines(''), []);
});
