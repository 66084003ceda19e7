// One pytest run of the current code: restore the target's tests, run, store the report,
// regenerate app/non-passed. `runPytestStep` is that step, shared by checkout, Refresh and the
// loop; `runCurrentTests` is the stand-alone version (Refresh, CLI `test`, checkout), which takes
// the task's lock and remembers the base's result.
import * as fs from 'node:fs/promises';
import { nonPassedIds } from '../gap/non-passed';
import { writeNonPassed } from '../gap/write-non-passed';
import { codeIsAtBase, saveBaseRun } from './base-report';
import { acquireLock } from '../records/process-lock';
import { runPytest } from '../pytest/run-pytest';
import { machineSeedStore } from '../pytest/bytecode-seed';
import type { PytestSettings } from '../pytest/pytest-settings';
import type { TestReport } from '../pytest/test-report';
import type { Runtime } from '../runtime/runtime';
import { AbortError } from '../util/errors';
import { oracleLayout, type TaskRecord } from '../workspace/layout';
import { pytestConfinement } from '../runtime/task-confinement';
import { restoreTargetTests } from '../workspace/materialize';
import { pytestSelection } from './pytest-targets';
import { loadReport, recordCurrentResult, type LastRunRecord } from './report-store';
import type { TaskFolder } from '../workspace/task-folder';

export interface RunCurrentTestsOptions extends PytestSettings {
  task: TaskFolder;
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

export interface PytestStepOptions extends RunCurrentTestsOptions {
  /**
   * What app/non-passed shows when pytest did not run. 'keep' (Refresh): the previous run's list.
   * 'all' (the loop): every test the target passes, described as not collected, so the next
   * architect sees that nothing ran rather than an outdated list.
   */
  nonPassedWhenNotRun?: 'keep' | 'all';
  /** The target's report when the caller has it already (the loop loads it once). */
  target?: TestReport;
  /** Called after tests/ is restored and before pytest starts. */
  onTestsRestored?: () => Promise<void>;
  /**
   * The folder pytest runs on, instead of app/code: the loop's clean checkout of the iteration's
   * commit. Its tests/ are put back as well.
   */
  codeDir?: string;
}

export interface PytestStepResult extends RunCurrentTestsResult {
  target: TestReport;
  /** pytest's terminal output (stdout then stderr). */
  output: string;
}

export async function loadTargetReport(record: TaskRecord): Promise<TestReport> {
  const oracle = oracleLayout(record.oracleDir);
  const target = await loadReport(oracle.targetReportFile);
  if (!target) {
    throw new Error(`The target's report is missing (${oracle.targetReportFile}). Check the task out again to rebuild its oracle.`);
  }
  return target;
}

/** The pytest step without locking: the caller (the loop) holds the task's lock. */
export async function runPytestStep(opts: PytestStepOptions): Promise<PytestStepResult> {
  const layout = opts.task;
  const target = opts.target ?? (await loadTargetReport(opts.record));
  const codeDir = opts.codeDir ?? layout.codeDir;
  const restoredTests = await restoreTargetTests(opts.record, opts.task, codeDir);
  const selection = await pytestSelection(opts.record.testPaths, codeDir);
  await opts.onTestsRestored?.();
  await fs.mkdir(layout.reportsDir, { recursive: true });

  const started = Date.now();
  const outcome = await runPytest(opts.runtime, {
    python: opts.python,
    codeDir,
    reportFile: layout.currentRawReportFile,
    timeoutMs: opts.timeoutMs,
    format: opts.format,
    env: opts.env,
    confine: pytestConfinement(opts.task, opts.record, opts.network),
    discardDir: layout.discardDir,
    bytecodeSeedDir: machineSeedStore(),
    ...selection,
    signal: opts.signal,
    onOutput: opts.onOutput && ((chunk) => opts.onOutput!(chunk)),
  });
  // A cancelled run says nothing about the code: keep the previous run's record and files.
  if (outcome.kind === 'did-not-run' && outcome.cancelled) throw new AbortError();

  const run: LastRunRecord = {
    kind: outcome.kind,
    finishedAt: new Date().toISOString(),
    exitCode: outcome.exitCode,
    command: outcome.command,
    reportFormat: outcome.format,
    durationMs: Date.now() - started,
    ...(outcome.kind === 'did-not-run' ? { reason: outcome.reason } : {}),
    ...(outcome.kind === 'ran' && outcome.integrity?.length ? { integrity: outcome.integrity } : {}),
    ...(outcome.tampering ? { tampering: outcome.tampering } : {}),
  };
  let gap: number | undefined;
  if (outcome.kind === 'ran') {
    await writeNonPassed(layout.nonPassedDir, outcome.report, target, { discardDir: layout.discardDir });
    gap = nonPassedIds(outcome.report, target).length;
  } else if (opts.nonPassedWhenNotRun === 'all') {
    await writeNonPassed(layout.nonPassedDir, undefined, target, { discardDir: layout.discardDir });
  }
  await recordCurrentResult(layout, { run, ...(outcome.kind === 'ran' ? { report: outcome.report } : {}), output: outcome.output });
  return {
    run,
    report: outcome.kind === 'ran' ? outcome.report : undefined,
    restoredTests,
    gap,
    target,
    output: outcome.output,
  };
}

/**
 * Runs the tests of the code as it is (Refresh, CLI, checkout). Holds the task's lock, so it
 * cannot interleave with a loop; when app/code is exactly the base, the result is also kept as
 * the base's (a run's iteration 0).
 */
export async function runCurrentTests(opts: RunCurrentTestsOptions): Promise<RunCurrentTestsResult> {
  const lock = await acquireLock(opts.task.lockFile, 'pytest');
  try {
    let atBase = false;
    const result = await runPytestStep({
      ...opts,
      onTestsRestored: async () => {
        atBase = await codeIsAtBase(opts.task, opts.record);
      },
    });
    if (atBase && result.report) await saveBaseRun(opts.task, { report: result.report, run: result.run }, result.output);
    return { run: result.run, report: result.report, restoredTests: result.restoredTests, gap: result.gap };
  } finally {
    await lock.release();
  }
}
