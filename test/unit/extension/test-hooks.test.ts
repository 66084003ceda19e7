// The webviews' test hooks are the test harness's only: off unless SWECI_TEST_HOOKS is exactly 1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_HOOKS_ENV, testHooksEnabled } from '../../../src/extension/webview/test-hooks';

test('test hooks are off in normal use and on only with SWECI_TEST_HOOKS=1', () => {
  assert.equal(TEST_HOOKS_ENV, 'SWECI_TEST_HOOKS');
  assert.equal(testHooksEnabled({}), false);
  for (const v of ['', '0', 'true', 'yes', ' 1']) assert.equal(testHooksEnabled({ SWECI_TEST_HOOKS: v }), false, JSON.stringify(v));
  assert.equal(testHooksEnabled({ SWECI_TEST_HOOKS: '1' }), true);
});
