import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baselineOf, normalizedChange } from '../../../src/shared/metrics/normalized-change';

test('progress is the share of the distance to the target covered', () => {
  const b = { init: 10, target: 30 };
  assert.equal(normalizedChange(10, b), 0);
  assert.equal(normalizedChange(20, b), 0.5);
  assert.equal(normalizedChange(30, b), 1);
});

test('regress is measured against the base, down to −1', () => {
  assert.equal(normalizedChange(5, { init: 10, target: 30 }), -0.5);
  assert.equal(normalizedChange(0, { init: 10, target: 30 }), -1);
});

test('values are clamped to [0, target] first', () => {
  assert.equal(normalizedChange(45, { init: 10, target: 30 }), 1, 'more passed than the target counts as the target');
  assert.equal(normalizedChange(-3, { init: 10, target: 30 }), -1);
});

test('edge cases: target equal to init, init 0', () => {
  assert.equal(normalizedChange(7, { init: 7, target: 7 }), 0, 'p == init');
  assert.equal(normalizedChange(0, { init: 0, target: 5 }), 0);
  assert.equal(normalizedChange(5, { init: 0, target: 5 }), 1);
});

test('the baseline comes from line 0; none when the base run crashed', () => {
  assert.deepEqual(baselineOf({ gap: 42, pytest: { passed: 18, failed: 35 } }), { init: 18, target: 60 });
  assert.equal(baselineOf({ gap: -1, pytest: {} }), undefined);
  assert.deepEqual(baselineOf({ gap: 3, pytest: {} }), { init: 0, target: 3 }, 'a missing passed count is 0');
});
