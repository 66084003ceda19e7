// One report model for every pytest output format (pytest-json-report, JUnit XML).

import { z } from 'zod';

/** Final outcome of one test, as pytest-json-report names it. */
export const testOutcomeSchema = z.enum(['passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed']);
export type TestOutcome = z.infer<typeof testOutcomeSchema>;

export type TestPhase = 'setup' | 'call' | 'teardown';
export const TEST_PHASES: readonly TestPhase[] = ['setup', 'call', 'teardown'];

const phaseResultSchema = z.object({
  outcome: z.string(),
  /** pytest's long representation of the failure (the `--tb=short` text), when the phase failed. */
  longrepr: z.string().optional(),
  /** Where the failure surfaced, when the report tells. */
  crash: z.object({ path: z.string().optional(), lineno: z.number().optional(), message: z.string().optional() }).optional(),
});
export type PhaseResult = z.infer<typeof phaseResultSchema>;

const testCaseSchema = z.object({
  /** pytest node id, e.g. `tests/test_ops.py::TestDiv::test_div[a/b]`. */
  nodeid: z.string(),
  outcome: testOutcomeSchema,
  /** File of the test relative to the rootdir (posix separators), when known. */
  file: z.string().optional(),
  /** 0-based line of the test definition, as pytest reports it. */
  lineno: z.number().optional(),
  phases: z.object({ setup: phaseResultSchema.optional(), call: phaseResultSchema.optional(), teardown: phaseResultSchema.optional() }),
  /** Seconds the test took, its phases together, when the report tells (reports written before it was kept have none). */
  durationSec: z.number().optional(),
  /**
   * Tests that did not pass: json-report's entry for the test, as JSON text the way the report
   * held it (numbers and key order as Python wrote them). The detail file is made from it.
   */
  source: z.string().optional(),
});
export type TestCase = z.infer<typeof testCaseSchema>;

/** Counts in pytest-json-report's `summary` shape (only non-zero keys present, plus total/collected). */
const reportSummarySchema = z.record(z.string(), z.number());
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** One report model for every pytest output format; kept as `report.json` and `.sweci/reports/*.report.json`. */
export const testReportSchema = z.object({
  format: z.enum(['json-report', 'junit']),
  /** pytest's exit code, when the report records it. */
  exitCode: z.number().optional(),
  summary: reportSummarySchema,
  tests: z.array(testCaseSchema),
  durationSec: z.number().optional(),
});
export type TestReport = z.infer<typeof testReportSchema>;

/** Node ids of the tests whose outcome is `passed`. */
export function passedIds(report: TestReport): Set<string> {
  const ids = new Set<string>();
  for (const t of report.tests) if (t.outcome === 'passed') ids.add(t.nodeid);
  return ids;
}
