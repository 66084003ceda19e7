// Each test's result as Test Explorer shows it, from a report (and the target's, for the tests
// the current code does not collect).
import { passedIds, type TestReport } from '../pytest/test-report';
import { failureLocation, type FailureLocation } from './failure-location';
import { firstLongrepr, type PhaseFailure } from './longrepr';

export type TestResultState = 'passed' | 'failed' | 'errored' | 'skipped';

export interface TestResult {
  nodeid: string;
  state: TestResultState;
  /**
   * The error on its first line (what an editor shows inline), then pytest's --tb=short text; or
   * why the test has no result.
   */
  message?: string;
  /** Where it failed, when the traceback points inside the code. */
  location?: FailureLocation;
}

/**
 * xfailed counts as skipped and xpassed as passed, as pytest's own summary colours them (the
 * gap still counts only `passed`: the Non-passed view says so).
 */
function stateOf(outcome: string): TestResultState {
  switch (outcome) {
    case 'passed':
    case 'xpassed':
      return 'passed';
    case 'failed':
      return 'failed';
    case 'error':
      return 'errored';
    default:
      return 'skipped';
  }
}

/**
 * The error first, then the traceback. --tb=short text starts with the failing file and line, which
 * an inline note would show instead of the error; the report's crash message (json-report) or the
 * traceback's first `E` line is the error.
 */
function failureMessage(failure: PhaseFailure, crash: string | undefined): string {
  const eLine = failure.longrepr.split('\n').find((l) => l.startsWith('E '));
  const error = (crash?.split('\n')[0] ?? eLine?.replace(/^E\s+/, '') ?? '').trim();
  const phase = failure.phase === 'call' ? '' : `Error at ${failure.phase}: `;
  if (!error) return phase ? `${phase.trimEnd()}\n${failure.longrepr}` : failure.longrepr;
  return `${phase}${error}\n\n${failure.longrepr}`;
}

export interface TestResultsOptions {
  /** The target's report: the tests it passes that `report` lacks are reported as errored. */
  target?: TestReport;
  /** The code folder, to recognise absolute paths in tracebacks. */
  codeDir?: string;
}

export function testResults(report: TestReport, options: TestResultsOptions = {}): TestResult[] {
  const out: TestResult[] = [];
  const seen = new Set<string>();
  for (const test of report.tests) {
    seen.add(test.nodeid);
    const state = stateOf(test.outcome);
    const result: TestResult = { nodeid: test.nodeid, state };
    if (state === 'failed' || state === 'errored') {
      const failure = firstLongrepr(test);
      result.message = failure ? failureMessage(failure, test.phases[failure.phase]?.crash?.message) : `pytest says ${test.outcome}.`;
      const location = failureLocation(test, options.codeDir);
      if (location) result.location = location;
    } else if (state === 'skipped') {
      const longrepr = firstLongrepr(test)?.longrepr;
      if (longrepr) result.message = longrepr;
    }
    out.push(result);
  }
  if (options.target) {
    for (const id of passedIds(options.target)) {
      if (!seen.has(id)) out.push({ nodeid: id, state: 'errored', message: 'The target passes this test, but the current code does not collect it.' });
    }
  }
  return out;
}
