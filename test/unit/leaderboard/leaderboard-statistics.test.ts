// The leaderboard's statistics, each checked by hand: the seeded generator's numbers, a clustered
// bootstrap over three repositories resampled by hand, the ranking with ties, groups, the paired
// intervals and the cost frontier.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterBootstrap, clusterBootstraps, percentile, type ClusteredTask } from '../../../src/core/leaderboard/cluster-bootstrap';
import { pairedDifference, pairedDifferences } from '../../../src/core/leaderboard/paired-difference';
import { costFrontier, groupsInOrder, rankEntries } from '../../../src/core/leaderboard/ranking';
import { seededRandom } from '../../../src/core/leaderboard/seeded-random';

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);

describe('seeded generator', () => {
  test('mulberry32 from seed 0 gives the same numbers every time, in [0, 1)', () => {
    const r = seededRandom(0);
    assert.deepEqual([r(), r(), r()], [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
    const again = seededRandom(0);
    assert.equal(again(), 0.26642920868471265);
    const other = seededRandom(1);
    assert.notEqual(other(), 0.26642920868471265);
  });
});

describe('clustered percentile bootstrap', () => {
  test('lists bootstrapped together give each list its own intervals, bit for bit (same tasks, other clusters, other widths, empty)', () => {
    const random = seededRandom(7);
    const clusters = Array.from({ length: 40 }, () => `repo${Math.floor(random() * 12)}`);
    const list = (width: number, of = clusters): ClusteredTask[] =>
      of.map((cluster) => ({ cluster, values: Array.from({ length: width }, () => random() - 0.4) }));
    const lists = [list(1), list(3), list(1), list(1, clusters.slice(5)), list(3), [], list(1, [...clusters].reverse()), list(1)];
    const opts = { resamples: 500, seed: 3 };
    assert.deepStrictEqual(
      clusterBootstraps(lists, opts),
      lists.map((l) => clusterBootstrap(l, opts)),
    );
    const scores = (of: ClusteredTask[]) => of.map((t, i) => ({ task: `t${i}`, cluster: t.cluster, score: t.values[0] }));
    const pairs = [
      [scores(lists[0]), scores(lists[2])],
      [scores(lists[0]), scores(lists[7])],
      [scores(lists[3]), scores(lists[0])],
      [[], scores(lists[0])],
    ] as const;
    assert.deepStrictEqual(
      pairedDifferences(pairs, opts),
      pairs.map(([a, b]) => pairedDifference(a, b, opts)),
    );
  });

  test('three repositories, four resamples with seed 7, resampled by hand', () => {
    // Seed 7 draws cluster indices (⌊3·u⌋): [0,0,2] [2,1,1] [1,0,1] [2,0,0].
    const r = seededRandom(7);
    const draws = Array.from({ length: 4 }, () => Array.from({ length: 3 }, () => Math.floor(r() * 3)));
    assert.deepEqual(draws, [
      [0, 0, 2],
      [2, 1, 1],
      [1, 0, 1],
      [2, 0, 0],
    ]);
    // Repository A: two tasks (1, 0); B: one (0.5); C: three (0, 0, 1). Each resample's mean is
    // the drawn clusters' sum over their task count:
    //   A A C: (1+1+1)/(2+2+3) = 3/7;  C B B: (1+.5+.5)/(3+1+1) = 0.4;  B A B: (.5+1+.5)/(1+2+1) = 0.5;  C A A: 3/7
    // sorted 0.4, 3/7, 3/7, 0.5; the 2.5% point is 0.075 of the way from 0.4 to 3/7, the 97.5% point 0.925 from 3/7 to 0.5.
    const tasks = [
      { cluster: 'A', values: [1] },
      { cluster: 'B', values: [0.5] },
      { cluster: 'A', values: [0] },
      { cluster: 'C', values: [0] },
      { cluster: 'C', values: [0] },
      { cluster: 'C', values: [1] },
    ];
    const [[lo, hi]] = clusterBootstrap(tasks, { resamples: 4, seed: 7 });
    close(lo, 0.4 + 0.075 * (3 / 7 - 0.4), 'low');
    close(hi, 3 / 7 + 0.925 * (0.5 - 3 / 7), 'high');
  });

  test('every statistic shares the draws; one cluster gives a zero-width interval at its mean; 0 resamples are refused', () => {
    const tasks = [
      { cluster: 'x', values: [0.2, 1] },
      { cluster: 'x', values: [0.6, 0] },
    ];
    const [evo, solved] = clusterBootstrap(tasks, { resamples: 50, seed: 3 });
    close(evo[0], 0.4, 'evo low');
    close(evo[1], 0.4, 'evo high');
    assert.deepEqual(solved, [0.5, 0.5]);
    assert.throws(() => clusterBootstrap(tasks, { resamples: 0, seed: 0 }), RangeError);
  });

  test('the intervals are those of every resample mean sorted, for any count of resamples, with ties and lone clusters', () => {
    // Written out plainly: draw the clusters, take each resample's mean, sort them all, read the percentiles.
    const byHand = (tasks: { cluster: string; values: number[] }[], resamples: number, seed: number) => {
      const clusters = [...new Set(tasks.map((t) => t.cluster))];
      const r = seededRandom(seed);
      const means = Array.from({ length: tasks[0].values.length }, () => [] as number[]);
      for (let b = 0; b < resamples; b++) {
        const drawn = clusters.map(() => clusters[Math.floor(r() * clusters.length)]);
        const picked = drawn.flatMap((c) => tasks.filter((t) => t.cluster === c));
        means.forEach((m, s) => m.push(picked.reduce((sum, t) => sum + t.values[s], 0) / picked.length));
      }
      return means.map((m) => m.sort((a, b) => a - b)).map((m) => [percentile(m, 0.025), percentile(m, 0.975)]);
    };
    const r = seededRandom(99);
    for (const [n, repos, resamples] of [
      [1, 1, 1],
      [3, 2, 2],
      [7, 3, 3],
      [12, 5, 40],
      [30, 20, 1000],
      [100, 68, 2001],
    ]) {
      // Scores with many ties (steps of 0.25) and solved-like 0/1 values.
      const tasks = Array.from({ length: n }, (_, i) => ({ cluster: `repo${i % repos}`, values: [Math.floor(r() * 5) / 4, r() < 0.5 ? 1 : 0, r() - 0.5] }));
      const got = clusterBootstrap(tasks, { resamples, seed: n });
      const want = byHand(tasks, resamples, n);
      got.forEach(([lo, hi], s) => {
        close(lo, want[s][0], `${n} tasks, ${resamples} resamples, statistic ${s}, low`);
        close(hi, want[s][1], `${n} tasks, ${resamples} resamples, statistic ${s}, high`);
      });
    }
  });

  test('percentile interpolates between the nearest two', () => {
    assert.equal(percentile([1, 2, 3, 4, 5], 0.5), 3);
    assert.equal(percentile([0, 10], 0.25), 2.5);
  });
});

describe('ranking, groups, pairs, frontier', () => {
  test('ties share a rank and the next one skips (1, 1, 3); tied entries are listed by label', () => {
    const ranked = rankEntries([
      { label: 'c', score: 0.2 },
      { label: 'b', score: 0.5 },
      { label: 'a', score: 0.5 },
      { label: 'd', score: 0.1 },
    ]);
    assert.deepEqual(
      ranked.map((r) => [r.label, r.rank]),
      [
        ['a', 1],
        ['b', 1],
        ['c', 3],
        ['d', 4],
      ],
    );
  });

  test('groups: an entry not distinguishable from the one above shares its group', () => {
    const above = [true, false, true, true];
    assert.deepEqual(
      groupsInOrder(4, (i) => above[i]),
      [1, 1, 2, 3],
    );
    assert.deepEqual(
      groupsInOrder(3, () => false),
      [1, 1, 1],
    );
  });

  test('paired difference: a constant gap is distinguishable with a zero-width interval; equal scores are not', () => {
    const a = [
      { task: 't1', cluster: 'r1', score: 0.9 },
      { task: 't2', cluster: 'r1', score: 0.5 },
      { task: 't3', cluster: 'r2', score: 0.7 },
      { task: 'only-a', cluster: 'r3', score: 1 },
    ];
    const b = a.filter((t) => t.task !== 'only-a').map((t) => ({ ...t, score: t.score - 0.25 }));
    const d = pairedDifference(a, b, { resamples: 200, seed: 0 });
    assert.equal(d.tasks, 3, 'only the tasks both scored');
    close(d.meanDiff, 0.25, 'mean');
    close(d.ci95[0], 0.25, 'low');
    close(d.ci95[1], 0.25, 'high');
    assert.equal(d.distinguishable, true);
    const same = pairedDifference(a, a, { resamples: 200, seed: 0 });
    assert.deepEqual([same.meanDiff, same.ci95, same.distinguishable], [0, [0, 0], false]);
  });

  test('paired difference: gaps of both signs over three repositories give an interval that holds 0', () => {
    const a = [0.9, 0.1, 0.6].map((score, i) => ({ task: `t${i}`, cluster: `r${i}`, score }));
    const b = [0.5, 0.6, 0.5].map((score, i) => ({ task: `t${i}`, cluster: `r${i}`, score }));
    const d = pairedDifference(a, b, { resamples: 1000, seed: 0 });
    close(d.meanDiff, (0.4 - 0.5 + 0.1) / 3, 'mean');
    assert.ok(d.ci95[0] < 0 && d.ci95[1] > 0, `the interval holds 0: ${d.ci95.join(', ')}`);
    assert.equal(d.distinguishable, false);
    // Each resample's mean is one of the means of three draws from {0.4, −0.5, 0.1}: the extremes bound the interval.
    assert.ok(d.ci95[0] >= -0.5 - 1e-12 && d.ci95[1] <= 0.4 + 1e-12);
  });

  test('cost frontier: no other entry at least as good and as cheap, better on one; unknown cost is never on it', () => {
    const onIt = costFrontier([
      { score: 0.8, cost: 2 }, // best score: on it
      { score: 0.6, cost: 1 }, // cheaper: on it
      { score: 0.5, cost: 1.5 }, // beaten by the second on both
      { score: 0.6, cost: 1 }, // equal to the second: neither beats the other
      { score: 0.9, cost: null },
    ]);
    assert.deepEqual(onIt, [true, true, false, true, false]);
  });
});
