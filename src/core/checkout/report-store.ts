// Where a task's reports live on disk, and how they are read back. Views render these files.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { TestReport } from '../pytest/test-report';
import type { ReportFormat } from '../pytest/pytest-command';
import { writeFileAtomic } from '../util/fs-atomic';
import type { TaskLayout } from '../workspace/layout';

/** What the last pytest run of the current code left behind (`.sweci/reports/current.run.json`). */
export interface LastRunRecord {
  kind: 'ran' | 'did-not-run';
  finishedAt: string;
  exitCode: number | null;
  /** Why pytest did not run (timeout, crash, missing report). */
  reason?: string;
  /** The command line, for the log and for reproducing by hand. */
  command: string;
  /** Which report pytest wrote: pytest-json-report, our plugin (same format) or JUnit XML (lossy). */
  reportFormat?: ReportFormat;
  durationMs: number;
  /** Files of the code that replaced pytest's functions or registered a plugin while it ran (our report plugin's word). */
  integrity?: string[];
}

export function currentReportFile(layout: TaskLayout): string {
  return path.join(layout.reportsDir, 'current.report.json');
}
export function currentRunFile(layout: TaskLayout): string {
  return path.join(layout.reportsDir, 'current.run.json');
}
/** pytest's own terminal output of the last run, kept whether or not it ran. */
export function currentOutputFile(layout: TaskLayout): string {
  return path.join(layout.reportsDir, 'current.pytest-output.txt');
}
/**
 * The raw report file pytest wrote (json-report JSON or JUnit XML, whichever ran). Its folder
 * holds nothing else: it is the one folder besides the code that a pytest container sees.
 */
export function currentRawReportFile(layout: TaskLayout): string {
  return path.join(layout.reportsDir, 'pytest-out', 'raw-report');
}

export async function saveReport(file: string, report: TestReport): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(report));
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
export async function recordCurrentResult(layout: TaskLayout, result: CurrentResult): Promise<void> {
  await fs.mkdir(layout.reportsDir, { recursive: true });
  // The output and the report side by side; the run record only once both are in place.
  await Promise.all([
    writeFileAtomic(currentOutputFile(layout), result.output),
    result.report ? saveReport(currentReportFile(layout), result.report) : undefined,
  ]);
  await writeFileAtomic(currentRunFile(layout), JSON.stringify(result.run, null, 2));
}

export async function loadReport(file: string): Promise<TestReport | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = JSON.parse(text) as TestReport;
  if (!parsed || !Array.isArray(parsed.tests)) {
    throw new Error(`${file} is not a SWE-CI test report. Run the tests again to rewrite it.`);
  }
  return parsed;
}

export async function loadJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
