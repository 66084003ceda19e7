import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HeatmapData } from '../../../src/shared/chart-types';
import { diffHeatmaps, differingTests } from '../../../webview-ui/heatmap-diff';
import { diffOutcomeText } from '../../../webview-ui/outcome-text';

const h = (run: string, tests: string[], iterations: number[], rows: string[], notRan: number[] = []): HeatmapData => ({
  run,
  tests,
  columns: iterations.map((iteration) => ({ iteration, ran: !notRan.includes(iteration) })),
  cells: rows.join(''),
  regressions: [],
});

test('cells say which run passes, over the iterations both recorded', () => {
  // Tests t1..t3; run A has iterations 0..3, run B 0..2.
  const a = h('agent', ['t1', 't2', 't3'], [0, 1, 2, 3], ['1111', '2211', '2222']);
  const b = h('human-history', ['t1', 't2', 't3'], [0, 1, 2], ['111', '211', '231']);
  const d = diffHeatmaps(a, b);
  assert.equal(d.run, 'agent vs human-history');
  assert.deepEqual(
    d.columns.map((c) => c.iteration),
    [0, 1, 2],
  );
  assert.deepEqual(d.tests, ['t1', 't2', 't3']);
  // t1: both pass throughout. t2: neither at the base, only B at 1, both at 2. t3: neither, neither (B errors), only B at 2.
  assert.equal(d.cells, ['111', '031', '003'].join(''));
  assert.equal(differingTests(d), 2);
  assert.equal(diffOutcomeText('3', 'the first', 'the second'), 'only the second passes');
});

test('a column where either pytest did not run compares nothing; a test only one run scores counts as not passed by the other', () => {
  const a = h('a', ['t1', 't2'], [0, 1], ['11', '11'], [1]);
  const b = h('b', ['t1', 't3'], [0, 1], ['12', '11']);
  const d = diffHeatmaps(a, b);
  assert.deepEqual(d.tests, ['t1', 't2', 't3']);
  assert.deepEqual(d.columns, [
    { iteration: 0, ran: true },
    { iteration: 1, ran: false },
  ]);
  assert.equal(d.cells, ['10', '20', '30'].join(''));
  assert.equal(differingTests(d), 2);
});
