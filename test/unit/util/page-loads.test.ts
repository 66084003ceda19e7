// PageLoads (src/core/util/page-loads.ts): loads that end in one page, finishing in any order.
// Each case is an order of finishing that the Iteration view met or could meet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PageLoads } from '../../../src/core/util/page-loads';

test('two requests: the later one wins whichever ends first', () => {
  const loads = new PageLoads<string>();
  const first = loads.request();
  const second = loads.request();
  assert.equal(second.current(), true);
  assert.equal(first.current(), false, 'the earlier request, ending last, is dropped');
  assert.equal(loads.request().current(), true);
});

test('a reload that ends after the user stepped is dropped; one that ends before is kept', () => {
  const loads = new PageLoads<string>();
  // The view shows #2; a run changed, so #2 is read again; meanwhile the user steps to #3.
  const reload = loads.reload('#2');
  const step = loads.request();
  assert.equal(step.current(), true, 'the step is shown when it ends');
  assert.equal(reload.current('#3'), false, 'the reload ending after it would put back #2 (the integration failure seen)');
  // The step began first but the reload ends first: the reload may refresh #2, then the step shows #3.
  const step2 = loads.request();
  const reload2 = loads.reload('#3');
  assert.equal(reload2.current('#3'), true);
  assert.equal(step2.current(), true);
  // The step ended before the reload (the page moved on): the reload is dropped.
  const step3 = loads.request();
  const reload3 = loads.reload('#3');
  assert.equal(step3.current(), true);
  assert.equal(reload3.current('#4'), false);
});
