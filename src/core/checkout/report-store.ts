// Where a task's reports live on disk, and how they are read back. Views render these files.
import * as fs from 'node:fs/promises';
import { z } from 'zod';
import { testReportSchema, type TestReport } from '../pytest/test-report';
import { jsonRecordFile } from '../records/record-file';
import { reportFormatSchema } from '../pytest/pytest-command';
import { writeFileAtomic } from '../util/fs-atomic';
import type { TaskFolder } from '../workspace/task-folder';

/** What the last pytest run of the current code left behind (`.sweci/reports/current.run.json`). */
export const lastRunRecordSchema = z.object({
  kind: z.enum(['ran', 'did-not-run']),
  finishedAt: z.string(),
  exitCode: z.number().nullable(),
  /** Why pytest did not run (timeout, crash, missing report). */
  reason: z.string().optional(),
  /** The command line, for the log and for reproducing by hand. */
  command: z.string(),
  /** Which report pytest wrote: pytest-json-report, our plugin (same format) or JUnit XML (lossy). */
  reportFormat: reportFormatSchema.optional(),
  durationMs: z.number(),
  /** Files of the code that replaced pytest's functions or registered a plugin while it ran (our report plugin's word). */
  integrity: z.array(z.string()).optional(),
  /** What the report stream showed of tampering (stream-verdict.ts): flagged, and never scored as a pass. */
  tampering: z.string().optional(),
});
export type LastRunRecord = z.infer<typeof lastRunRecordSchema>;

const REWRITE = 'Run the tests again to rewrite it.';
// Reports are built by the parsers from pytest's output, already typed: checking them again on
// every write would cost each iteration milliseconds for nothing.
export const reportFile = jsonRecordFile({ schema: testReportSchema, whenDamaged: REWRITE, indent: false, checkOnWrite: false });
export const lastRunFile = jsonRecordFile({ schema: lastRunRecordSchema, whenDamaged: REWRITE });

export async function saveReport(file: string, report: TestReport): Promise<void> {
  await reportFile.write(file, report);
}

/** The current pytest result: what app/code's last run gave, as the views show it. */
export interface CurrentResult {
  run: LastRunRecord;
  /** The report when pytest ran; without one the last report stays (the views say it is older). */
  report?: TestReport;
  /** pytest's terminal output, kept whether or not it ran. */
  output: string;
}

/**
 * The one way the current result is recorded (a Refresh, a checkout, a new run's base, a switch
 * between runs): the output, the report, then the run record, which readers take as the sign
 * that the other two are this run's.
 */
export async function recordCurrentResult(layout: TaskFolder, result: CurrentResult): Promise<void> {
  await fs.mkdir(layout.reportsDir, { recursive: true });
  // The output and the report side by side; the run record only once both are in place.
  await Promise.all([writeFileAtomic(layout.current.output, result.output), result.report ? saveReport(layout.current.report, result.report) : undefined]);
  await lastRunFile.write(layout.current.run, result.run);
}

/** The report in `file`, or undefined when there is none. */
export async function loadReport(file: string): Promise<TestReport | undefined> {
  return reportFile.read(file);
}
