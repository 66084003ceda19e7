import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstLongrepr, headLines, lastLine } from '../../../src/core/gap/longrepr';
import type { TestCase } from '../../../src/core/pytest/test-report';

test('lastLine strips what Python str.strip() strips', () => {
  assert.equal(lastLine('\x1c\x85 \t\n x \u3000\x1f'), 'x');
  // Python keeps the BOM; JS trim() would remove it.
  assert.equal(lastLine('\ufeffx\ufeff'), '\ufeffx\ufeff');
});

test('lastLine: the last \\n line of the stripped text', () => {
  assert.equal(lastLine('a\nb\nE   boom\n\n'), 'E   boom');
  assert.equal(lastLine('single'), 'single');
  assert.equal(lastLine(''), '');
  // Only \n splits, as the reference's split('\n').
  assert.equal(lastLine('a\nb\rc'), 'b\rc');
});

test('firstLongrepr: setup, call, teardown order; presence counts even when empty', () => {
  const t: TestCase = {
    nodeid: 'x',
    outcome: 'error',
    phases: { setup: { outcome: 'passed' }, call: { outcome: 'failed', longrepr: 'call' }, teardown: { outcome: 'failed', longrepr: 'td' } },
  };
  assert.deepEqual(firstLongrepr(t), { phase: 'call', longrepr: 'call' });
  t.phases.setup = { outcome: 'failed', longrepr: '' };
  assert.deepEqual(firstLongrepr(t), { phase: 'setup', longrepr: '' });
  assert.equal(firstLongrepr({ nodeid: 'y', outcome: 'failed', phases: {} }), undefined);
});

test('headLines keeps the first lines', () => {
  const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
  assert.equal(headLines(text, 3), 'line 0\nline 1\nline 2');
  assert.equal(headLines('a\nb', 15), 'a\nb');
  assert.equal(headLines(text).split('\n').length, 15);
});
