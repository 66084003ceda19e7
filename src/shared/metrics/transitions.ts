// Per-test status across a run's iterations, for the heatmap (tests × iterations) and for
// "which tests regressed when". Rows are the tests the target passes (the scored tests);
// columns are the run's iteration.jsonl lines in order (column 0 = the base, iteration 0).
//
// Compact representation: `cells` is a Uint8Array, row-major — the status of test t in column c
// is cells[t * columns.length + c], a STATUS code (0 missing, 1 passed, 2 failed, 3 error).
// 5,000 tests × 20 iterations is 100 kB. For postMessage/JSON, encodeCells turns it into a
// string of one digit per cell ('0'..'3', same order) and decodeCells back.
// Pure: no node imports (bundled into the chart webview).

export type TestStatus = 'missing' | 'passed' | 'failed' | 'error';

/** Status codes stored in `cells`. */
const STATUS = { missing: 0, passed: 1, failed: 2, error: 3 } as const satisfies Record<TestStatus, number>;
/** STATUS_NAMES[code] is the status of a code. */
const STATUS_NAMES: readonly TestStatus[] = ['missing', 'passed', 'failed', 'error'];

/** What a column needs from a TestReport. */
export interface ReportTests {
  tests: ReadonlyArray<{ nodeid: string; outcome: string }>;
}

export interface TransitionColumn {
  iteration: number;
  /** false when pytest did not run (gap −1) or its report is missing: every cell is 'missing'. */
  ran: boolean;
}

export interface TransitionMatrix {
  /** The target's passed node ids, sorted: row t is tests[t]. */
  tests: string[];
  columns: TransitionColumn[];
  /** Row-major status codes: cells[t * columns.length + c]. */
  cells: Uint8Array;
}

/**
 * A test's status from its outcome. 'passed' is passed; 'error' is error; failed, skipped,
 * xfailed and xpassed are 'failed' (not passed: the gap counts them as non-passed). A test
 * absent from the report is 'missing'. With several entries for one node id, any passed
 * entry makes it passed (as passedIds does), else any error makes it error.
 */
export function outcomeStatus(outcome: string): TestStatus {
  if (outcome === 'passed') return 'passed';
  if (outcome === 'error') return 'error';
  return 'failed';
}

/**
 * The matrix for the tests `targetPassed` (any order; duplicates ignored) over `columns`, one per
 * iteration.jsonl line in order; a column's report is undefined when pytest did not run.
 */
export function buildTransitionMatrix(
  targetPassed: Iterable<string>,
  columns: ReadonlyArray<{ iteration: number; report: ReportTests | undefined }>,
): TransitionMatrix {
  const tests = [...new Set(targetPassed)].sort();
  const row = new Map(tests.map((id, i) => [id, i]));
  const width = columns.length;
  const cells = new Uint8Array(tests.length * width); // all STATUS.missing
  columns.forEach((col, c) => {
    if (!col.report) return;
    for (const t of col.report.tests) {
      const r = row.get(t.nodeid);
      if (r === undefined) continue;
      const at = r * width + c;
      const code = STATUS[outcomeStatus(t.outcome)];
      const prev = cells[at];
      // Several entries for one id: passed wins, then error, then failed.
      if (prev === STATUS.missing || code === STATUS.passed || (code === STATUS.error && prev === STATUS.failed)) cells[at] = code;
    }
  });
  return { tests, columns: columns.map((c) => ({ iteration: c.iteration, ran: c.report !== undefined })), cells };
}

export interface TestRegressions {
  iteration: number;
  /** The last iteration before it whose pytest ran. */
  comparedWith: number;
  /** Rows (into `tests`) passed at `comparedWith` and not passed at `iteration`. */
  tests: number[];
}

/**
 * Which tests regressed when: one entry per ran column with at least one regressed test. The
 * rows are the scored tests, so a cell test is regressions.ts's `regressedIds` read off the
 * matrix (a test suite checks the two agree).
 */
export function regressedTests(m: TransitionMatrix): TestRegressions[] {
  const out: TestRegressions[] = [];
  const width = m.columns.length;
  let prev = -1;
  for (let c = 0; c < width; c++) {
    if (!m.columns[c].ran) continue;
    if (prev >= 0) {
      const tests: number[] = [];
      for (let t = 0; t < m.tests.length; t++) {
        if (m.cells[t * width + prev] === STATUS.passed && m.cells[t * width + c] !== STATUS.passed) tests.push(t);
      }
      if (tests.length) out.push({ iteration: m.columns[c].iteration, comparedWith: m.columns[prev].iteration, tests });
    }
    prev = c;
  }
  return out;
}

/** cells as one digit per cell ('0'..'3'), for JSON. */
export function encodeCells(cells: Uint8Array): string {
  let s = '';
  const chunk = 8192;
  for (let i = 0; i < cells.length; i += chunk) {
    const part = cells.subarray(i, i + chunk);
    s += String.fromCharCode(...Array.from(part, (v) => 48 + v));
  }
  return s;
}

/** The inverse of encodeCells; throws on a character that is not a status code. */
export function decodeCells(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const v = text.charCodeAt(i) - 48;
    if (v < 0 || v >= STATUS_NAMES.length) throw new RangeError(`Not a test status code at ${i}: ${JSON.stringify(text[i])}.`);
    out[i] = v;
  }
  return out;
}
