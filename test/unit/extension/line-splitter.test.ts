import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineSplitter } from '../../../src/extension/loop/line-splitter';

test('agent output in arbitrary chunks comes out as whole lines', () => {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l));
  s.push('first li');
  s.push('ne\r\nsecond\nthi');
  assert.deepEqual(lines, ['first line', 'second']);
  s.push('rd');
  s.flush();
  assert.deepEqual(lines, ['first line', 'second', 'third']);
  s.flush();
  assert.equal(lines.length, 3, 'a second flush emits nothing');
});
