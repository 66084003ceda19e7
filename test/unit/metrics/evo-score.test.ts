import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evoScore } from '../../../src/shared/metrics/evo-score';

const close = (actual: number, expected: number, msg?: string): void => assert.ok(Math.abs(actual - expected) < 1e-12, `${msg ?? ''} ${actual} ≠ ${expected}`);

test('γ = 1 is the mean of a_1..a_N', () => {
  close(evoScore([1, 0, 0], 1), 1 / 3);
  close(evoScore([0.2, 0.5, 1, 1, 1], 1), 0.74);
});

test("γ weighs iteration i by γ^i (the paper's formula)", () => {
  // γ = 2: (2·0.5 + 4·1) / (2 + 4) = 5/6
  close(evoScore([0.5, 1], 2), 5 / 6);
  // γ = 0.5: (0.5·0.5 + 0.25·1) / (0.5 + 0.25) = 0.5 / 0.75 = 2/3
  close(evoScore([0.5, 1], 0.5), 2 / 3);
  // γ = 1.1 over three values, directly from the definition.
  const a = [-0.2, 0.4, 0.9];
  const w = [1.1, 1.1 ** 2, 1.1 ** 3];
  close(evoScore(a, 1.1), (w[0] * a[0] + w[1] * a[1] + w[2] * a[2]) / (w[0] + w[1] + w[2]));
});

test('γ > 1 favours runs that improve late, γ < 1 runs that improve early', () => {
  const late = [0, 0, 1];
  const early = [1, 0, 0];
  assert.ok(evoScore(late, 1.2) > evoScore(early, 1.2));
  assert.ok(evoScore(late, 0.8) < evoScore(early, 0.8));
  close(evoScore(late, 1), evoScore(early, 1));
});

test('a constant sequence scores its constant for any γ, even for a long sequence', () => {
  const ones = new Array(2000).fill(1);
  for (const g of [0.5, 1, 2, 10]) close(evoScore(ones, g), 1, `γ=${g}`);
  assert.ok(Number.isFinite(evoScore([...new Array<number>(1999).fill(0), 1], 2)));
});

test('an empty sequence scores 0', () => {
  assert.equal(evoScore([], 1.1), 0);
});

test('γ ≤ 0 or not finite is refused with a clear error', () => {
  for (const g of [0, -1, NaN, Infinity, -Infinity]) {
    assert.throws(() => evoScore([1], g), /EvoScore needs a finite γ greater than 0/, `γ=${g}`);
  }
});
