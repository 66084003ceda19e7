// The Non-passed view's text (no VS Code API involved).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NonPassedEntry } from '../../../src/core/gap/non-passed';
import { kindLabel, testDescription, testLabel } from '../../../src/extension/views/non-passed-labels';

const entry = (e: Partial<NonPassedEntry>): NonPassedEntry => ({ nodeid: 'tests/t.py::C::test_x[a/b]', kind: 'failed', file: 'tests/t.py', ...e });

test('the label drops the file part of the node id, keeping classes and parameters', () => {
  assert.equal(testLabel(entry({})), 'C::test_x[a/b]');
  assert.equal(testLabel(entry({ nodeid: 'tests/t.py', file: 'tests/t.py' })), 'tests/t.py');
});

test('each kind is named, errors with their stage', () => {
  assert.equal(kindLabel(entry({ kind: 'failed', stage: 'call' })), 'Failed');
  assert.equal(kindLabel(entry({ kind: 'error', stage: 'setup' })), 'Error at setup');
  assert.equal(kindLabel(entry({ kind: 'error', stage: 'teardown' })), 'Error at teardown');
  assert.equal(kindLabel(entry({ kind: 'not-collected' })), 'Not collected');
  assert.equal(kindLabel(entry({ kind: 'skipped', outcome: 'xfailed' })), 'Not run (xfailed)');
});

test('the description is the headline without the E gutter, errors prefixed by their stage', () => {
  assert.equal(testDescription(entry({ headline: 'assert 1 == 2', reason: 'E  + where 1 = f()' })), 'assert 1 == 2');
  assert.equal(testDescription(entry({ reason: 'E   ValueError: bad' })), 'ValueError: bad', 'falls back to the reason');
  assert.equal(testDescription(entry({ kind: 'error', stage: 'setup', headline: 'ImportError: x' })), 'setup: ImportError: x');
  assert.equal(testDescription(entry({ kind: 'not-collected' })), 'not collected in the current run');
});
