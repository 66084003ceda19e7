import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTransitionMatrix, decodeCells, encodeCells, regressedTests, type ReportTests } from '../../../src/shared/metrics/transitions';
import { regressedIds } from '../../../src/shared/metrics/regressions';

type Matrix = ReturnType<typeof buildTransitionMatrix>;

// The cell codes as the heatmap reads them: the status of test t in column c is cells[t * columns + c].
const NAMES = ['missing', 'passed', 'failed', 'error'] as const;
const statusAt = (mx: Matrix, t: number, c: number): string => NAMES[mx.cells[t * mx.columns.length + c]];
const testRow = (mx: Matrix, t: number): string[] => mx.columns.map((_, c) => statusAt(mx, t, c));

const report = (entries: Record<string, string>): ReportTests => ({ tests: Object.entries(entries).map(([nodeid, outcome]) => ({ nodeid, outcome })) });

// Target passes a, b, c (d is not scored). Columns: base, 1, 2 (crashed), 3.
const columns = [
  { iteration: 0, report: report({ 't::a': 'passed', 't::b': 'failed', 't::d': 'passed' }) }, // c missing
  { iteration: 1, report: report({ 't::a': 'passed', 't::b': 'passed', 't::c': 'error' }) },
  { iteration: 2, report: undefined },
  { iteration: 3, report: report({ 't::a': 'failed', 't::b': 'passed', 't::c': 'passed' }) },
];
const m = buildTransitionMatrix(['t::c', 't::a', 't::b', 't::a'], columns);

test("rows are the target's passed tests, sorted; columns the lines; cells row-major", () => {
  assert.deepEqual(m.tests, ['t::a', 't::b', 't::c']);
  assert.deepEqual(m.columns, [
    { iteration: 0, ran: true },
    { iteration: 1, ran: true },
    { iteration: 2, ran: false },
    { iteration: 3, ran: true },
  ]);
  assert.equal(m.cells.length, 3 * 4);
  assert.deepEqual(testRow(m, 0), ['passed', 'passed', 'missing', 'failed']);
  assert.deepEqual(testRow(m, 1), ['failed', 'passed', 'missing', 'passed']);
  assert.deepEqual(testRow(m, 2), ['missing', 'error', 'missing', 'passed']);
  assert.equal(m.cells[1 * 4 + 0], 2, 'cells[t * columns + c], failed is 2');
  assert.equal(m.cells[2 * 4 + 1], 3, 'error is 3');
});

test('which tests regressed when: passed at the last ran iteration, not passed now', () => {
  assert.deepEqual(regressedTests(m), [{ iteration: 3, comparedWith: 1, tests: [0] }]);
  const missing = buildTransitionMatrix(
    ['x'],
    [
      { iteration: 0, report: report({ x: 'passed' }) },
      { iteration: 1, report: report({}) },
    ],
  );
  assert.deepEqual(regressedTests(missing), [{ iteration: 1, comparedWith: 0, tests: [0] }], 'disappearing from a report is a regression');
});

test('outcomes: skipped, xfailed, xpassed count as failed; duplicates: passed, then error, wins', () => {
  const o = buildTransitionMatrix(
    ['s', 'xf', 'xp', 'dup', 'dup2'],
    [
      {
        iteration: 0,
        report: {
          tests: [
            { nodeid: 's', outcome: 'skipped' },
            { nodeid: 'xf', outcome: 'xfailed' },
            { nodeid: 'xp', outcome: 'xpassed' },
            { nodeid: 'dup', outcome: 'failed' },
            { nodeid: 'dup', outcome: 'passed' },
            { nodeid: 'dup', outcome: 'error' },
            { nodeid: 'dup2', outcome: 'failed' },
            { nodeid: 'dup2', outcome: 'error' },
          ],
        },
      },
    ],
  );
  assert.deepEqual(
    o.tests.map((_, t) => statusAt(o, t, 0)),
    ['passed', 'error', 'failed', 'failed', 'failed'],
  );
  assert.deepEqual(o.tests, ['dup', 'dup2', 's', 'xf', 'xp']);
});

test('cells round-trip through the JSON string form', () => {
  const text = encodeCells(m.cells);
  assert.equal(text, '1102' + '2101' + '0301');
  assert.deepEqual(decodeCells(text), m.cells);
  assert.throws(() => decodeCells('12x'), /Not a test status code at 2/);
});

// How fast this is at scale is bench:chart's to measure; here, that it is right at that scale.
test('5,000 tests × 20 iterations build, encode and decode', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => `tests/test_m.py::test_${i}`);
  const cols = Array.from({ length: 21 }, (_, c) => ({
    iteration: c,
    report: c === 7 ? undefined : { tests: ids.map((nodeid, i) => ({ nodeid, outcome: (i + c) % 5 === 0 ? 'failed' : 'passed' })) },
  }));
  const big = buildTransitionMatrix(ids, cols);
  const text = encodeCells(big.cells);
  const back = decodeCells(text);
  const regressed = regressedTests(big);
  assert.equal(big.cells.length, 5000 * 21);
  assert.equal(text.length, 5000 * 21);
  assert.deepEqual(back, big.cells);
  assert.ok(regressed.length > 0);
});

test('the heatmap and the iteration records share one definition of a regressed test', () => {
  // A seeded generator: the same random runs every time.
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const outcomes = ['passed', 'failed', 'error', 'skipped'];
  for (let round = 0; round < 50; round++) {
    const ids = Array.from({ length: 12 }, (_, i) => `t::${i}`);
    const scored = new Set(ids.filter(() => rand() < 0.7));
    const cols = Array.from({ length: 6 }, (_, c) => ({
      iteration: c,
      // Some columns did not run; some tests are absent from a report.
      report:
        c > 0 && rand() < 0.2 ? undefined : report(Object.fromEntries(ids.filter(() => rand() < 0.9).map((id) => [id, outcomes[Math.floor(rand() * 4)]]))),
    }));
    const m = buildTransitionMatrix(scored, cols);
    const fromMatrix = regressedTests(m).map((r) => ({ iteration: r.iteration, tests: r.tests.map((t) => m.tests[t]) }));
    const fromRecords: { iteration: number; tests: string[] }[] = [];
    let lastRan: Set<string> | undefined;
    for (const col of cols) {
      if (!col.report) continue;
      const now = new Set(col.report.tests.filter((t) => t.outcome === 'passed').map((t) => t.nodeid));
      const ids = lastRan ? regressedIds(lastRan, now, scored) : [];
      if (ids.length) fromRecords.push({ iteration: col.iteration, tests: ids });
      lastRan = now;
    }
    assert.deepEqual(fromMatrix, fromRecords, `round ${round}`);
  }
});

test('regressedIds counts only the scored tests', () => {
  assert.deepEqual(regressedIds(new Set(['a', 'b', 'x']), new Set(['a']), new Set(['a', 'b'])), ['b']);
});
