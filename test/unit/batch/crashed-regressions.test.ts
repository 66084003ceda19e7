// A run whose pytest crashed (gap −1) lost every test that passed before it: `sweci summarize`
// must never show it as `regressions 0` beside `zero_regression 0` (issue 34). The summary's
// own cells and its text formats are checked on rows runMetrics builds from such lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExperimentSummary } from '../../../src/core/batch/experiment-summary';
import { formatSummary, summaryCells, summaryHeader } from '../../../src/core/batch/summary-format';
import { averageMetrics, runMetrics, type RunLine } from '../../../src/shared/metrics/run-metrics';

/** The base passes 3 tests; the Programmer leaves every module raising on import from iteration 1 on. */
const crashed: RunLine[] = [
  { gap: 2, pytest: { passed: 3 } },
  { gap: -1, pytest: {} },
  { gap: -1, pytest: {} },
];

function summaryOf(lines: RunLine[]): ExperimentSummary {
  const metrics = runMetrics(lines, { maxIterations: 2 });
  return {
    experiment: '/exp',
    run: 'r',
    gammas: [1],
    maxEpoch: 2,
    groups: [
      {
        run: 'r',
        kind: 'agent',
        rows: [{ task: 't1', metrics, evo: [metrics.evoScore], flags: [] }],
        average: averageMetrics([metrics]),
        averageEvo: [metrics.evoScore],
      },
    ],
    unscored: [],
    stopped: [],
  };
}

test('a crashed run shows the crash in the regressions column, never 0', () => {
  const s = summaryOf(crashed);
  const row = s.groups[0].rows[0];
  assert.equal(row.metrics.zeroRegression, false, 'the reference counts the crash as a regression');
  const head = summaryHeader(s);
  const cell = summaryCells(row)[head.indexOf('regressions') - 1];
  assert.notEqual(cell, '0');
  assert.equal(cell, '2 crashed');
  assert.match(formatSummary(s, 'table'), /^t1 .* 2 crashed /m);
  const md = formatSummary(s, 'markdown');
  assert.match(md, /\| 2 crashed \|/);
});

test('a run that regressed and crashed shows both; a run with no crash keeps its plain count', () => {
  const both = summaryOf([
    { gap: 2, pytest: { passed: 3 } },
    { gap: 2, pytest: { passed: 2 } },
    { gap: -1, pytest: {} },
  ]);
  const head = summaryHeader(both);
  assert.equal(summaryCells(both.groups[0].rows[0])[head.indexOf('regressions') - 1], '1 + 1 crashed');
  const plain = summaryOf([
    { gap: 2, pytest: { passed: 3 } },
    { gap: 1, pytest: { passed: 4 } },
  ]);
  assert.equal(summaryCells(plain.groups[0].rows[0])[head.indexOf('regressions') - 1], '0');
});
