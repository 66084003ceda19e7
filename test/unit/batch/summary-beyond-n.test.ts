// A run recorded past N is scored over its first N iterations: the developers' replay of ten
// commits scored under N = 3 shows "iterations 10, solved 0" (the commit that solves it is the
// tenth), and `sweci summarize` must say why beside it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExperimentSummary } from '../../../src/core/batch/experiment-summary';
import { formatSummary } from '../../../src/core/batch/summary-format';
import { averageMetrics, runMetrics, type RunLine } from '../../../src/shared/metrics/run-metrics';

/** The base has gap 10; each commit closes one more; the tenth closes the last. */
const tenCommits: RunLine[] = Array.from({ length: 11 }, (_, i) => ({ gap: 10 - i, pytest: { passed: 5 + i } }));

function summaryOf(maxEpoch: number): ExperimentSummary {
  const metrics = runMetrics(tenCommits, { maxIterations: maxEpoch });
  return {
    experiment: '/exp',
    run: 'scripted',
    gammas: [1],
    maxEpoch,
    groups: [
      {
        run: 'human-history',
        kind: 'human-history',
        rows: [{ task: 't1', metrics, evo: [metrics.evoScore], flags: [] }],
        average: averageMetrics([metrics]),
        averageEvo: [metrics.evoScore],
      },
    ],
    unscored: [],
    stopped: [],
  };
}

test('a replay of ten commits under N = 3: its row says 10 iterations and not solved, and a note says why', () => {
  const s = summaryOf(3);
  assert.equal(s.groups[0].rows[0].metrics.iterations, 10);
  assert.equal(s.groups[0].rows[0].metrics.solved, false);
  const table = formatSummary(s, 'table');
  assert.match(
    table,
    /note: run human-history recorded up to 10 developer commits on a task, and is scored over the first N = 3: .*solved .* count those 3 only.*--max-epoch 10/,
  );
  assert.match(formatSummary(s, 'markdown'), /\*\*Note:\*\* run human-history recorded up to 10 developer commits/);
});

test('scored over all of them, there is nothing to explain', () => {
  const s = summaryOf(10);
  assert.equal(s.groups[0].rows[0].metrics.solved, true);
  assert.doesNotMatch(formatSummary(s, 'table'), /note: run human-history/);
});
