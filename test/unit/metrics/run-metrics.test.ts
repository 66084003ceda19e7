import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evoScore } from '../../../src/shared/metrics/evo-score';
import { summarize } from '../../../src/shared/metrics/reference-summary';
import { averageMetrics, runMetrics, type RunLine } from '../../../src/shared/metrics/run-metrics';
import { scoredLines } from '../../../src/shared/metrics/scored-line';

const close = (actual: number | null, expected: number, msg?: string): void =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${msg ?? ''} ${actual} ≠ ${expected}`);

const agent = (inTok: number, outTok: number, sec: number) => ({ input_tokens: inTok, output_tokens: outTok, execution_time: sec });

// init 4, gap 4 (target 8); then 6, a crash, 8 → reference values [6, 0, 8, 8] with N = 4.
const LINES: RunLine[] = [
  { iteration: 0, gap: 4, pytest: { passed: 4, failed: 4 }, pytest_time: 100, regressions: [] },
  { iteration: 1, gap: 2, pytest: { passed: 6, failed: 2 }, architect: agent(100, 10, 5), programmer: agent(1000, 200, 20), pytest_time: 2, regressions: [] },
  { iteration: 2, gap: -1, pytest: {}, architect: agent(50, 5, 3), programmer: { input_tokens: 7 }, regressions: [] },
  { iteration: 3, gap: 0, pytest: { passed: 8 }, architect: agent(1, 1, 1), programmer: agent(2, 2, 2), pytest_time: 1.5, regressions: ['t::x'] },
];

test('the comparison row of a run', () => {
  const row = runMetrics(LINES, { maxIterations: 4, gamma: 1.2 });
  // a = [0.5, −1, 1, 1] → reference EvoScore 1.5 / 4
  close(row.evoScoreReference, 0.375);
  const w = [1.2, 1.2 ** 2, 1.2 ** 3, 1.2 ** 4];
  close(row.evoScore, (0.5 * w[0] - w[1] + w[2] + w[3]) / (w[0] + w[1] + w[2] + w[3]));
  assert.equal(row.gamma, 1.2);
  assert.equal(row.solved, true);
  assert.equal(row.zeroRegression, false, 'the reference reads the crash as 0 passed');
  assert.equal(row.regressions, 0, 'the later framework does not compare a crashed iteration');
  assert.equal(row.finalA, 1);
  assert.equal(row.iterations, 3);
  assert.equal(row.crashed, 1);
  assert.equal(row.maxIterations, 4);
  assert.equal(row.tokensIn, 100 + 1000 + 50 + 7 + 1 + 2);
  assert.equal(row.tokensOut, 10 + 200 + 5 + 1 + 2);
  assert.equal(row.timeSec, 5 + 20 + 2 + 3 + 1 + 2 + 1.5, "the base run's pytest time is left out");
});

test("γ defaults to 1, where both EvoScores agree; another γ is the paper's formula over the padded a values", () => {
  const row = runMetrics(LINES, { maxIterations: 4 });
  close(row.evoScore, 0.375);
  close(runMetrics(LINES, { maxIterations: 4, gamma: 1 }).evoScore, 0.375);
  const { a } = summarize(LINES, 4)!;
  close(runMetrics(LINES, { maxIterations: 4, gamma: 1.2 }).evoScore, evoScore(a, 1.2));
  assert.notEqual(evoScore(a, 1.2), 0.375, 'γ 1.2 weighs the iterations differently');
  assert.throws(() => runMetrics(LINES, { maxIterations: 4, gamma: 0 }), /γ/);
  assert.throws(() => runMetrics(LINES, { maxIterations: 4, gamma: -2 }), /γ/);
});

test('final a is the last iteration whose pytest ran; regressions', () => {
  const lines: RunLine[] = [
    { gap: 10, pytest: { passed: 10 } },
    { gap: 5, pytest: { passed: 15 } },
    { gap: 8, pytest: { passed: 12 } },
    { gap: -1, pytest: {} },
  ];
  const row = runMetrics(lines, { maxIterations: 20 });
  close(row.finalA, 0.2, '(12 − 10) / 10');
  assert.equal(row.regressions, 1);
  assert.equal(row.solved, false);
  // reference: [15, 12, 0] padded with 0 to 20 → a = 0.5, 0.2, then 18 × −1 → (0.7 − 18) / 20
  close(row.evoScoreReference, (0.7 - 18) / 20);
});

test('only the base: 0 iterations, a 0; a base that crashed: no scores', () => {
  const only = runMetrics([{ gap: 3, pytest: { passed: 1 } }], { maxIterations: 5 });
  assert.equal(only.iterations, 0);
  assert.equal(only.finalA, 0);
  assert.equal(only.evoScore, 0);
  assert.equal(only.zeroRegression, true);
  const none = runMetrics(
    [
      { gap: -1, pytest: {} },
      { gap: 1, pytest: { passed: 2 } },
    ],
    { maxIterations: 5 },
  );
  assert.equal(none.evoScore, null);
  assert.equal(none.evoScoreReference, null);
  assert.equal(none.finalA, null);
  assert.equal(none.solved, false);
  assert.equal(none.zeroRegression, false);
  assert.equal(none.iterations, 1);
  assert.deepEqual(runMetrics([], { maxIterations: 5 }).iterations, 0);
});

test('the average row: means of the columns, booleans as rates, nulls left out', () => {
  const a = runMetrics(LINES, { maxIterations: 4 }); // 0.375, solved, not zero-regression, 3 iterations
  const b = runMetrics([{ gap: 2, pytest: { passed: 2 } }], { maxIterations: 4 }); // 0, not solved, zero-regression, 0 iterations
  const c = runMetrics([{ gap: -1, pytest: {} }], { maxIterations: 4 }); // no baseline
  const avg = averageMetrics([a, b, c]);
  assert.equal(avg.count, 3);
  close(avg.evoScore, 0.375 / 2, 'mean over the two rows with a score');
  close(avg.evoScoreReference, 0.375 / 2);
  close(avg.finalA, 1 / 2);
  close(avg.solved, 1 / 3);
  close(avg.zeroRegression, 1 / 3);
  close(avg.iterations, 1);
  const none = averageMetrics([]);
  assert.equal(none.evoScore, null);
  assert.equal(none.solved, 0);
});

test('with keepFlagged, a solved run whose score rests on a flag carries it into its row, its average and the solved count; the strict rules take out what they exclude', () => {
  // The solving line changes how pytest reports (harness tampering) and passes tests the target never had.
  const flagged: RunLine[] = LINES.map((l, i) => (i === 3 ? { ...l, harness_tampering: ['conftest.py'], inflated: ['t::fake'], tampered: ['tests/t.py'] } : l));
  const keep = { keepFlagged: true };
  const row = runMetrics(flagged, { maxIterations: 4, scoring: keep });
  assert.deepEqual(row.scoreFlags, ['inflated', 'harness-tampering'], 'what the score rests on; restored test files are not');
  assert.deepEqual(runMetrics(flagged, { maxIterations: 4, scoring: { ...keep, excludeHarnessTampering: true } }).scoreFlags, ['inflated']);
  assert.deepEqual(runMetrics(flagged, { maxIterations: 4, scoring: { ...keep, scoreTargetTestsOnly: true } }).scoreFlags, ['harness-tampering']);
  const open = runMetrics(
    LINES.map((l) => ({ ...l, isolation: 'none' })),
    { maxIterations: 4, scoring: { excludeHarnessTampering: true, scoreTargetTestsOnly: true } },
  );
  assert.deepEqual(open.scoreFlags, ['not-isolated'], 'no rule takes a run without isolation out');
  const honest = runMetrics(LINES, { maxIterations: 4 });
  assert.deepEqual(honest.scoreFlags, []);
  const unsolved = runMetrics(
    LINES.slice(0, 2).map((l) => ({ ...l, inflated: ['t::fake'] })),
    { maxIterations: 4, scoring: keep },
  );
  const avg = averageMetrics([row, honest, unsolved]);
  assert.deepEqual(avg.flagged, { runs: 2, flags: ['inflated', 'harness-tampering'] });
  assert.deepEqual(avg.solvedFlagged, { runs: 1, flags: ['inflated', 'harness-tampering'] });
  assert.deepEqual(averageMetrics([honest]).flagged, { runs: 0, flags: [] });
});

test('by default a flagged line scores its honest figure: an inflated one without the passes the target never had, a tampering one at the last honest measurement; never solved by them', () => {
  // init 4, target 8. Iteration 1 reaches 6 honestly; 2 crashes; 3 "passes" 8 through its own conftest (and 20 made-up tests).
  const tampered: RunLine[] = LINES.map((l, i) =>
    i === 3 ? { ...l, pytest: { passed: 28 }, harness_tampering: ['conftest.py'], inflated: ['t::fake'], inflated_count: 20 } : l,
  );
  const raw = runMetrics(scoredLines(tampered, { keepFlagged: true }), { maxIterations: 4, scoring: { keepFlagged: true } });
  assert.equal(raw.solved, true, "the raw figure: the reference's");
  assert.deepEqual(raw.scoreFlags, ['inflated', 'harness-tampering']);
  const honestLines = scoredLines(tampered);
  // The tampering line takes the crash before it: 0 passed, as the reference counts a crash.
  assert.deepEqual(
    honestLines.map((l) => l.pytest.passed),
    [4, 6, undefined, 0],
  );
  const row = runMetrics(honestLines, { maxIterations: 4 });
  assert.equal(row.solved, false);
  assert.deepEqual(row.scoreFlags, [], 'kept out of the score, so the score rests on neither');
  close(row.evoScoreReference, (0.5 - 1 - 1 - 1) / 4);

  // Inflated alone: the reference's count less the made-up passes (passed 78 against a target of 60: 58 is honest).
  const base = { iteration: 0, gap: 42, pytest: { passed: 18 }, regressions: [] };
  const inflated: RunLine[] = [base, { iteration: 1, gap: 2, pytest: { passed: 78 }, inflated: ['t::u[fake0]'], inflated_count: 20, regressions: [] }];
  const keptRaw = runMetrics(scoredLines(inflated, { keepFlagged: true }), { maxIterations: 1, scoring: { keepFlagged: true } });
  assert.equal(keptRaw.solved, true);
  assert.equal(keptRaw.evoScore, 1);
  const honestInflated = runMetrics(scoredLines(inflated), { maxIterations: 1 });
  assert.equal(honestInflated.solved, false);
  close(honestInflated.evoScore, (58 - 18) / 42);
  // The strict option stays stricter: the paper's n(c) over T.
  const strict = scoredLines(
    inflated.map((l, i) => ({ ...l, passed: i === 0 ? 18 : 40 })),
    { scoreTargetTestsOnly: true },
  );
  assert.equal(strict[1].pytest.passed, 40);
});
