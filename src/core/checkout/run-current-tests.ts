// One pytest run of the current code: restore the target's tests, run, store the report,
// regenerate app/non-passed. Used by checkout, by Refresh, and later by the loop.
import * as fs from 'node:fs/promises';
import { nonPassedIds } from '../gap/non-passed';
import { writeNonPassed } from '../gap/write-non-passed';
import { runPytest, type PytestFormat } from '../pytest/run-pytest';
import type { TestReport } from '../pytest/test-report';
import type { Runtime } from '../runtime/runtime';
import { AbortError } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { oracleLayout, taskLayout, type TaskRecord } from '../workspace/layout';
import { restoreTargetTests } from '../workspace/materialize';
import {
  currentOutputFile,
  currentRawReportFile,
  currentReportFile,
  currentRunFile,
  loadReport,
  saveReport,
  type LastRunRecord,
} from './report-store';

export interface PytestSettings {
  python: string;
  timeoutMs: number;
  format: PytestFormat;
}

export interface RunCurrentTestsOptions extends PytestSettings {
  taskDir: string;
  record: TaskRecord;
  runtime: Runtime;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
}

export interface RunCurrentTestsResult {
  run: LastRunRecord;
  /** The new report, or undefined when pytest did not run (the previous report is kept). */
  report?: TestReport;
  /** Files under tests/ that differed from the target's and were put back. */
  restoredTests: string[];
  /** Size of the non-passed set after this run (undefined when pytest did not run). */
  gap?: number;
}

export async function runCurrentTests(opts: RunCurrentTestsOptions): Promise<RunCurrentTestsResult> {
  const layout = taskLayout(opts.taskDir);
  const oracle = oracleLayout(opts.record.oracleDir);
  const target = await loadReport(oracle.targetReportFile);
  if (!target) {
    throw new Error(
      `The target's report is missing (${oracle.targetReportFile}). Check the task out again to rebuild its oracle.`,
    );
  }
  const restoredTests = await restoreTargetTests(opts.record, opts.taskDir);
  await fs.mkdir(layout.reportsDir, { recursive: true });

  const started = Date.now();
  const outcome = await runPytest(opts.runtime, {
    python: opts.python,
    codeDir: layout.codeDir,
    reportFile: currentRawReportFile(layout),
    timeoutMs: opts.timeoutMs,
    format: opts.format,
    signal: opts.signal,
    onOutput: opts.onOutput && ((chunk) => opts.onOutput!(chunk)),
  });
  // A cancelled run says nothing about the code: keep the previous run's record and files.
  if (outcome.kind === 'did-not-run' && outcome.cancelled) throw new AbortError();
  await writeFileAtomic(currentOutputFile(layout), outcome.output);

  const run: LastRunRecord = {
    kind: outcome.kind,
    finishedAt: new Date().toISOString(),
    exitCode: outcome.exitCode,
    command: outcome.command,
    durationMs: Date.now() - started,
    ...(outcome.kind === 'did-not-run' ? { reason: outcome.reason } : {}),
  };
  let gap: number | undefined;
  if (outcome.kind === 'ran') {
    await saveReport(currentReportFile(layout), outcome.report);
    await writeNonPassed(layout.nonPassedDir, outcome.report, target);
    gap = nonPassedIds(outcome.report, target).length;
  }
  await writeFileAtomic(currentRunFile(layout), JSON.stringify(run, null, 2));
  return { run, report: outcome.kind === 'ran' ? outcome.report : undefined, restoredTests, gap };
}
