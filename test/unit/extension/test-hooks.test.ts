// The test hooks are on only when the harness says so, with exactly SWECI_TEST_HOOKS=1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_HOOKS_ENV, testHooksEnabled } from '../../../src/extension/test-hooks';

test('the test hooks are on only with SWECI_TEST_HOOKS=1', () => {
  assert.equal(TEST_HOOKS_ENV, 'SWECI_TEST_HOOKS');
  assert.equal(testHooksEnabled({ SWECI_TEST_HOOKS: '1' }), true);
  assert.equal(testHooksEnabled({}), false);
  for (const value of ['', '0', 'true', 'yes', ' 1']) assert.equal(testHooksEnabled({ SWECI_TEST_HOOKS: value }), false, JSON.stringify(value));
});
