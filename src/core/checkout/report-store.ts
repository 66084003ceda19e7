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
