// The reference's `summarize` (notes/sweci-reference.md "Scores") on worked examples.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evoScore } from '../../../src/shared/metrics/evo-score';
import { averageRow, summarize, type ReferenceLine } from '../../../src/shared/metrics/reference-summary';

const close = (actual: number, expected: number, msg?: string): void => assert.ok(Math.abs(actual - expected) < 1e-12, `${msg ?? ''} ${actual} ≠ ${expected}`);

/** Line 0 with `init` passed and gap `gap`, then lines with these pytest.passed (null = crashed). */
function lines(init: number, gap: number, seq: Array<number | null>): ReferenceLine[] {
  return [
    { gap, pytest: { passed: init, total: init + gap } },
    ...seq.map((p): ReferenceLine => (p === null ? { gap: -1, pytest: {} } : { gap: 0, pytest: { passed: p } })),
  ];
}

interface Row {
  name: string;
  init: number;
  gap: number;
  seq: Array<number | null>;
  maxEpoch: number;
  values: number[];
  a: number[];
  evo: number;
  solved: 0 | 1;
  zr: 0 | 1;
}

// Each row computed by hand from the reference rules.
const TABLE: Row[] = [
  // target = 10 + 10 = 20; clamp: unchanged; pad to 5 with 20 → [12,15,20,20,20]
  // a = (12−10)/10, (15−10)/10, 1, 1, 1 = [0.2, 0.5, 1, 1, 1]; sum 3.7; /5 = 0.74
  // max = 20 = target → solved; never decreasing → zero regression
  {
    name: 'progress to the target',
    init: 10,
    gap: 10,
    seq: [12, 15, 20],
    maxEpoch: 5,
    values: [12, 15, 20, 20, 20],
    a: [0.2, 0.5, 1, 1, 1],
    evo: 0.74,
    solved: 1,
    zr: 1,
  },
  // target 20; clamp 25 → 20 → [20, 8, 0], pad with 0 → [20, 8, 0, 0]
  // a = 1, (8−10)/10 = −0.2, (0−10)/10 = −1, −1; sum −1.2; /4 = −0.3
  // max 20 = target → solved (the reference's solved ignores the later fall); 8 < 20 → regression
  {
    name: 'above the target is clamped; reached then broke',
    init: 10,
    gap: 10,
    seq: [25, 8, 0],
    maxEpoch: 4,
    values: [20, 8, 0, 0],
    a: [1, -0.2, -1, -1],
    evo: -0.3,
    solved: 1,
    zr: 0,
  },
  // gap 0 at line 0: target = init = 7; clamp 9 → 7 → [7, 7, 5]
  // a = 0 (p == init), 0, (5−7)/7 = −2/7; sum −2/7; /3 = −2/21
  // max 7 = target → solved; 5 < 7 → regression
  {
    name: 'gap 0 at line 0 (target == init), the equality case',
    init: 7,
    gap: 0,
    seq: [7, 9, 5],
    maxEpoch: 3,
    values: [7, 7, 5],
    a: [0, 0, -2 / 7],
    evo: -2 / 21,
    solved: 1,
    zr: 0,
  },
  // init 0, target 4: [2, 4] padded → [2, 4, 4]; a = 2/4, 1, 1; sum 2.5; /3 = 5/6
  { name: 'init 0', init: 0, gap: 4, seq: [2, 4], maxEpoch: 3, values: [2, 4, 4], a: [0.5, 1, 1], evo: 5 / 6, solved: 1, zr: 1 },
  // init 0, gap 0: target 0; clamp 3 → 0; a = 0 (p == init); max 0 = target → solved
  { name: 'init 0 and gap 0', init: 0, gap: 0, seq: [3], maxEpoch: 2, values: [0, 0], a: [0, 0], evo: 0, solved: 1, zr: 1 },
  // init 0, target 5, a crash: passed missing → 0 = init → a 0; 3 → 3/5
  // [0, 3] padded → [0, 3, 3]; sum 1.2; /3 = 0.4; max 3 ≠ 5; no decrease
  { name: 'init 0 with a crashed line', init: 0, gap: 5, seq: [null, 3], maxEpoch: 3, values: [0, 3, 3], a: [0, 0.6, 0.6], evo: 0.4, solved: 0, zr: 1 },
  // empty sequence: pad with init → [5, 5, 5, 5]; a all 0; max 5 ≠ 10 → not solved; no decrease
  { name: 'empty sequence', init: 5, gap: 5, seq: [], maxEpoch: 4, values: [5, 5, 5, 5], a: [0, 0, 0, 0], evo: 0, solved: 0, zr: 1 },
  // empty sequence with gap 0: max 5 = target 5 → solved
  { name: 'empty sequence, gap 0', init: 5, gap: 0, seq: [], maxEpoch: 2, values: [5, 5], a: [0, 0], evo: 0, solved: 1, zr: 1 },
  // longer than max_epoch: [3,4,5,6,1] truncated to [3,4,5]; target 6
  // a = 1/4, 2/4, 3/4; sum 1.5; /3 = 0.5; max 5 ≠ 6; the fall to 1 is cut off → zero regression
  {
    name: 'sequence longer than max_epoch is truncated',
    init: 2,
    gap: 4,
    seq: [3, 4, 5, 6, 1],
    maxEpoch: 3,
    values: [3, 4, 5],
    a: [0.25, 0.5, 0.75],
    evo: 0.5,
    solved: 0,
    zr: 1,
  },
  // crashed line counts as 0 passed: [6, 0, 8] padded → [6, 0, 8, 8]; target 8
  // a = 2/4, (0−4)/4 = −1, 1, 1; sum 1.5; /4 = 0.375; max 8 → solved; 0 < 6 → regression
  {
    name: 'a crashed line is 0 passed',
    init: 4,
    gap: 4,
    seq: [6, null, 8],
    maxEpoch: 4,
    values: [6, 0, 8, 8],
    a: [0.5, -1, 1, 1],
    evo: 0.375,
    solved: 1,
    zr: 0,
  },
  // exactly max_epoch values, a regression below init: target 30; [5, 20] ; a = (5−10)/10 = −0.5, 0.5
  // sum 0; /2 = 0; max 20 ≠ 30; 5 < 10 → regression
  { name: 'below init, exactly max_epoch values', init: 10, gap: 20, seq: [5, 20], maxEpoch: 2, values: [5, 20], a: [-0.5, 0.5], evo: 0, solved: 0, zr: 0 },
  // max_epoch 1: [8] of [8, 10]; target 10, init 6 → a = 2/4 = 0.5; max 8 ≠ 10
  { name: 'max_epoch 1', init: 6, gap: 4, seq: [8, 10], maxEpoch: 1, values: [8], a: [0.5], evo: 0.5, solved: 0, zr: 1 },
];

for (const row of TABLE) {
  test(`summarize: ${row.name}`, () => {
    const s = summarize(lines(row.init, row.gap, row.seq), row.maxEpoch)!;
    assert.ok(s);
    assert.equal(s.init, row.init);
    assert.equal(s.target, row.init + row.gap);
    assert.equal(s.maxEpoch, row.maxEpoch);
    assert.deepEqual(s.values, row.values);
    assert.equal(s.a.length, row.maxEpoch);
    s.a.forEach((v, i) => close(v, row.a[i], `a[${i}]`));
    close(s.evoScore, row.evo, 'EvoScore');
    close(evoScore(s.a, 1), row.evo, "the paper's formula at γ = 1 equals the reference");
    assert.equal(s.solved, row.solved, 'solved');
    assert.equal(s.zeroRegression, row.zr, 'zero regression');
  });
}

test('summarize: a missing pytest.passed is 0, at line 0 and after', () => {
  const s = summarize(
    [
      { gap: 3, pytest: { failed: 3 } },
      { gap: 2, pytest: { failed: 2, passed: 1 } },
      { gap: 3, pytest: { failed: 3 } },
    ],
    2,
  )!;
  assert.equal(s.init, 0);
  assert.equal(s.target, 3);
  assert.deepEqual(s.raw, [1, 0]);
  assert.deepEqual(s.values, [1, 0]);
  assert.equal(s.zeroRegression, 0);
});

test('summarize: no baseline when there is no line 0 or the base run crashed', () => {
  assert.equal(summarize([], 20), undefined);
  assert.equal(
    summarize(
      [
        { gap: -1, pytest: {} },
        { gap: 0, pytest: { passed: 3 } },
      ],
      20,
    ),
    undefined,
  );
});

test('summarize: max_epoch must be a whole number ≥ 1', () => {
  for (const n of [0, -1, 1.5, NaN]) assert.throws(() => summarize(lines(1, 1, []), n), /max_epoch/);
});

test('the average row is the mean of each column; tasks without a summary are left out', () => {
  const a = summarize(lines(10, 10, [12, 15, 20]), 5); // 0.74, solved, zero regression
  const b = summarize(lines(10, 10, [25, 8, 0]), 4); // −0.3, solved, regression
  const avg = averageRow([a, b, undefined]);
  assert.equal(avg.count, 2);
  close(avg.evoScore, (0.74 - 0.3) / 2);
  assert.equal(avg.solved, 1);
  assert.equal(avg.zeroRegression, 0.5);
  assert.deepEqual(averageRow([]), { count: 0, evoScore: 0, solved: 0, zeroRegression: 0 });
});
