import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HeatmapData } from '../../../src/shared/chart-types';
import { heatmapHit, heatmapLayout, heatmapOrder } from '../../../webview-ui/heatmap-layout';

// Rows: t0 always passes, t1 always fails, t2 gets fixed, t3 regresses at iteration 2.
const h: HeatmapData = {
  run: 'r',
  tests: ['t0', 't1', 't2', 't3'],
  columns: [0, 1, 2].map((iteration) => ({ iteration, ran: true })),
  cells: '111' + '222' + '211' + '112',
  regressions: [{ iteration: 2, comparedWith: 1, tests: [3] }],
};

test('tests that regressed come first, then those that changed, then failing, then passing', () => {
  assert.deepEqual(
    heatmapOrder(h).map((t) => h.tests[t]),
    ['t3', 't2', 't1', 't0'],
  );
});

test('few tests get tall rows; many tests share a pixel row and the worst status shows', () => {
  const small = heatmapLayout(h, 300);
  assert.equal(small.testsPerRow, 1);
  assert.ok(small.rowHeight > 1);
  assert.equal(small.width, small.cellWidth * 3);

  const n = 5000;
  const big: HeatmapData = {
    run: 'b',
    tests: Array.from({ length: n }, (_, i) => `t${i}`),
    columns: [{ iteration: 0, ran: true }],
    cells: '1'.repeat(n - 1) + '3',
    regressions: [],
  };
  const layout = heatmapLayout(big, 300);
  assert.equal(layout.rowHeight, 1);
  assert.ok(layout.height <= 480, `fits the height budget (${layout.height})`);
  assert.ok(layout.testsPerRow * layout.height >= n, 'every test has a row');
  // Where the one errored test landed in the drawing order:
  const row = layout.order.indexOf(n - 1);
  const hit = heatmapHit(big, layout, 0, Math.floor(row / layout.testsPerRow));
  assert.equal(hit?.status, 'error', 'a shared row shows its worst status');
});

test('hit-testing names the test and iteration under the pointer', () => {
  const layout = heatmapLayout(h, 300);
  const hit = heatmapHit(h, layout, layout.cellWidth * 2 + 1, 0);
  assert.deepEqual(hit, { tests: ['t3'], iteration: 2, status: 'failed' });
  assert.equal(heatmapHit(h, layout, layout.width + 5, 0), undefined);
});
