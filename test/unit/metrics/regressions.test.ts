import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineRegressions } from '../../../src/shared/metrics/regressions';
import type { ReferenceLine } from '../../../src/shared/metrics/reference-summary';

const ran = (passed: number, gap = 1): ReferenceLine => ({ gap, pytest: { passed } });
const crashed: ReferenceLine = { gap: -1, pytest: {} };
/** Regressions of lines with these pytest.passed counts (null: pytest did not run), numbered 0, 1, …. */
const regressionsOf = (values: ReadonlyArray<number | null>) => lineRegressions(values.map((v) => (v === null ? crashed : ran(v))));

test('a regression is a drop below the previous value; amplitude = drop / previous', () => {
  // 10 → 8: drop 2, 2/10; 8 → (crash) → 6: compared with 8, drop 2, 2/8; 6 → 9 fine; 9 → 3: drop 6, 6/9
  const r = regressionsOf([10, 8, null, 6, 9, 3]);
  assert.equal(r.count, 3);
  assert.deepEqual(r.amplitudes, [0.2, 0.25, 6 / 9]);
  assert.deepEqual(r.events[1], { iteration: 3, comparedWith: 1, from: 8, to: 6, drop: 2, amplitude: 0.25 });
  assert.deepEqual(
    r.events.map((e) => [e.comparedWith, e.iteration]),
    [
      [0, 1],
      [1, 3],
      [4, 5],
    ],
  );
});

test('a crashed iteration is not compared, and the next ran one compares with the one before it', () => {
  const lines = [ran(4), ran(6), crashed, ran(8)];
  assert.equal(lineRegressions(lines).count, 0, 'the crash is not a drop to 0, 8 ≥ 6');
  const down = lineRegressions([ran(4), ran(6), crashed, crashed, ran(5)]);
  assert.deepEqual(down.events, [{ iteration: 4, comparedWith: 1, from: 6, to: 5, drop: 1, amplitude: 1 / 6 }]);
});

test('iteration numbers come from the lines (human-history positions are sparse)', () => {
  const r = lineRegressions([
    { ...ran(5), iteration: 0 },
    { ...ran(4), iteration: 7 },
    { ...crashed, iteration: 14 },
    { ...ran(2), iteration: 21 },
  ]);
  assert.deepEqual(
    r.events.map((e) => [e.comparedWith, e.iteration]),
    [
      [0, 7],
      [7, 21],
    ],
  );
});

test('equal values and a base that crashed are no regressions', () => {
  assert.equal(regressionsOf([3, 3, 3]).count, 0);
  assert.equal(regressionsOf([null, 3, 2]).count, 1);
  assert.equal(regressionsOf([]).count, 0);
});
