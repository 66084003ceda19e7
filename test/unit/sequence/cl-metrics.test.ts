// SWE-Bench-CL's §7 metrics on worked examples computed by hand from the paper's formulas, the
// edge cases (N = 1, empty rows, missing baselines), and a property test against the definitions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accuracy,
  accuracyCurve,
  learningCurve,
  backwardTransfer,
  clMetrics,
  DEFAULT_CL_WEIGHTS,
  fBeta,
  forgetting,
  median,
} from '../../../src/core/sequence/cl-metrics';

const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null, `${what} is null`);
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);
};

// Task 1 solved, then half broken by task 2 and fully by task 3; task 2 solved and kept; task 3 half.
const WORKED = [[1], [0.5, 1], [0, 1, 0.5]];

describe('continual-learning metrics: a worked example (N = 3)', () => {
  const m = clMetrics({
    matrix: WORKED,
    zeroShot: [1, 0.5, 0.5],
    runs: [
      { seconds: 10, resolved: true },
      { seconds: 30, resolved: false },
      { seconds: 20, resolved: true },
    ],
  });
  test('ACC = (0 + 1 + 0.5) / 3', () => close(m.acc, 0.5, 'ACC'));
  test('F = ((1 − 0) + (1 − 1)) / 2', () => close(m.forgetting, 0.5, 'F'));
  test('BWT = ((0 − 1) + (1 − 1)) / 2', () => close(m.bwt, -0.5, 'BWT'));
  test('FT = ((1 − 0.5) + (0.5 − 0.5)) / 2', () => close(m.fwt, 0.25, 'FT'));
  test('AULC = (1 + 1 + 2.5/3) / 3', () => close(m.aulc, (1 + 1 + 2.5 / 3) / 3, 'AULC'));
  test('TUE = median(10, 20) / median(10, 20, 30)', () => close(m.tue, 15 / 20, 'TUE'));
  test('CL-P = (1 + 1 + 0.5) / 3, CL-S = 1 − F', () => {
    close(m.plasticity, 2.5 / 3, 'CL-P');
    close(m.stability, 0.5, 'CL-S');
  });
  test('CL-F1 is the harmonic mean; CL-Fβ weighs stability for β > 1', () => {
    const p = 2.5 / 3;
    close(m.f1, (2 * p * 0.5) / (p + 0.5), 'CL-F1');
    close(fBeta(p, 0.5, 2), (5 * p * 0.5) / (4 * p + 0.5), 'CL-F2');
    assert.ok(fBeta(0.9, 0.1, 2) < fBeta(0.9, 0.1, 0.5), 'low stability costs more at β = 2');
  });
  test('CL-Score = ACC − F + FT + BWT + AULC + CL-F1 with unit weights', () => {
    const p = 2.5 / 3;
    close(m.score, 0.5 - 0.5 + 0.25 - 0.5 + (1 + 1 + 2.5 / 3) / 3 + (2 * p * 0.5) / (p + 0.5), 'CL-Score');
  });
  test('the weights are options: λF = 2, λTUE = 1, β = 2', () => {
    const w = clMetrics(
      {
        matrix: WORKED,
        zeroShot: [1, 0.5, 0.5],
        runs: [
          { seconds: 10, resolved: true },
          { seconds: 30, resolved: false },
          { seconds: 20, resolved: true },
        ],
      },
      { ...DEFAULT_CL_WEIGHTS, forgetting: 2, toolUseEfficiency: 1, beta: 2 },
    );
    const p = 2.5 / 3;
    close(w.score, 0.5 - 2 * 0.5 + 0.25 - 0.5 + (1 + 1 + 2.5 / 3) / 3 + (5 * p * 0.5) / (4 * p + 0.5) + 0.75, 'CL-Score');
  });
  test("with only earlier tasks re-run, the paper's F is −BWT", () => close(m.forgetting, -(m.bwt as number), 'F'));
});

describe('continual-learning metrics: edge cases', () => {
  test('N = 1: ACC, AULC and CL-P are the one result; F, BWT, FT, CL-S and the score are null, with why', () => {
    const m = clMetrics({ matrix: [[0.75]], zeroShot: [0] });
    close(m.acc, 0.75, 'ACC');
    close(m.aulc, 0.75, 'AULC');
    close(m.plasticity, 0.75, 'CL-P');
    for (const k of ['forgetting', 'bwt', 'fwt', 'stability', 'f1', 'score'] as const) assert.equal(m[k], null, k);
    assert.match(m.missing.forgetting ?? '', /at least 2 tasks/);
    assert.match(m.missing.score ?? '', /F, FT, BWT, CL-Fβ unknown/);
  });

  test('no tasks at all: every metric null', () => {
    const m = clMetrics({ matrix: [] });
    assert.equal(m.n, 0);
    for (const k of ['acc', 'forgetting', 'bwt', 'fwt', 'aulc', 'tue', 'plasticity', 'stability', 'f1', 'fBeta', 'score'] as const) assert.equal(m[k], null, k);
  });

  test('an empty row (a task whose run recorded nothing) is skipped, not read as 0', () => {
    const m = clMetrics({ matrix: [[1], [], [1, null, 0]] });
    close(m.acc, 0.5, 'ACC over the two measured');
    close(m.plasticity, 0.5, 'CL-P over a00 and a22');
    close(m.bwt, 0, 'BWT: only task 1 has both ends');
    close(m.forgetting, 0, 'F: task 2 was never measured');
    assert.deepEqual(learningCurve([[1], [], [1, null, 0]]), [1, null, 0.5], 'no point after the empty row');
    close(m.aulc, (1 + 0.5) / 2, "AULC: the mean of the curve's points, none carried over the gap");
  });

  test('an empty last row: ACC, F and BWT are null', () => {
    const m = clMetrics({ matrix: [[1], [0, 1], []] });
    assert.equal(m.acc, null);
    assert.equal(m.forgetting, null);
    assert.equal(m.bwt, null);
  });

  test('no zero-shot baseline: FT is null and the score needs λFT = 0', () => {
    const m = clMetrics({ matrix: WORKED });
    assert.equal(m.fwt, null);
    assert.match(m.missing.fwt ?? '', /zero-shot/);
    assert.equal(m.score, null);
    const w = clMetrics({ matrix: WORKED }, { ...DEFAULT_CL_WEIGHTS, forwardTransfer: 0 });
    assert.ok(w.score !== null);
  });

  test('TUE: null without a resolved task; the median of an even count is the mean of the middle two', () => {
    assert.equal(clMetrics({ matrix: WORKED, runs: [{ seconds: 5, resolved: false }] }).tue, null);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([]), null);
  });

  test('CL-Fβ refuses β ≤ 0; P = S = 0 gives 0, not NaN', () => {
    assert.throws(() => fBeta(0.5, 0.5, 0), /β greater than 0/);
    assert.equal(fBeta(0, 0, 1), 0);
  });
});

describe('continual-learning metrics: properties on random matrices', () => {
  function rand(seed: number): () => number {
    return () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
  }
  test('ACC, BWT and forgetting equal their definitions written out directly', () => {
    const r = rand(42);
    for (let trial = 0; trial < 500; trial++) {
      const n = 2 + Math.floor(r() * 8);
      const a = Array.from({ length: n }, (_, i) => Array.from({ length: i + 1 }, () => Math.round(r() * 4) / 4));
      let acc = 0;
      for (let j = 0; j < n; j++) acc += a[n - 1][j];
      acc /= n;
      let bwt = 0;
      for (let i = 0; i < n - 1; i++) bwt += a[n - 1][i] - a[i][i];
      bwt /= n - 1;
      let f = 0;
      for (let j = 0; j < n - 1; j++) {
        let best = -Infinity;
        for (let k = 0; k <= j; k++) best = Math.max(best, a[k][j] ?? -Infinity);
        f += best - a[n - 1][j];
      }
      f /= n - 1;
      close(accuracy(a), acc, `ACC, trial ${trial}`);
      close(backwardTransfer(a), bwt, `BWT, trial ${trial}`);
      close(forgetting(a), f, `F, trial ${trial}`);
      const m = clMetrics({ matrix: a });
      assert.ok(m.plasticity! >= 0 && m.plasticity! <= 1 && m.f1! >= 0 && m.f1! <= 1 + 1e-12, `bounds, trial ${trial}`);
    }
  });

  test('forgetting uses measured earlier entries too (an upper-triangle result counts in the max)', () => {
    // Task 2 was measured at 1 before it was processed (row 0), then 0.5 at its turn, 0 at the end.
    close(
      forgetting([
        [0, 1],
        [0, 0.5],
        [0, 0, 1],
      ]),
      (0 - 0 + (1 - 0)) / 2,
      'F',
    );
  });

  test("the learning curve and the accuracy curve, point by point; AULC is the learning curve's mean", () => {
    const a = [[1], [0, 0.5], [null, 1, 0]];
    // Learning curve: running mean of the diagonal 1, 0.5, 0.
    assert.deepEqual(learningCurve(a), [1, 0.75, 0.5]);
    // Accuracy after each task: its row's mean over the tasks so far (unmeasured left out).
    assert.deepEqual(accuracyCurve(a), [1, 0.25, 0.5]);
    close(clMetrics({ matrix: a }).aulc, (1 + 0.75 + 0.5) / 3, 'AULC');
    assert.equal(accuracyCurve(a).at(-1), accuracy(a), 'ACC is the last point');
    assert.deepEqual(learningCurve([[null], [null, null]]), [null, null], 'nothing measured: no point is made up');
    assert.deepEqual(learningCurve([]), []);
  });
});
