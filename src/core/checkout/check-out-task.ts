// Check out a task: materialise the folder, run the target's tests on the target (the
// oracle) and on the base, and write app/non-passed. Each step reports progress and
// honours cancellation.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { machineSeedStore } from '../pytest/bytecode-seed';
import { prepareBytecodeSeed, runPytest } from '../pytest/run-pytest';
import type { Runtime } from '../runtime/runtime';
import type { TaskSpec } from '../task/task-spec';
import { instanceTargetReport } from './instance-target';
import { AbortError, UserError } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { oracleLayout, rawReportFileIn, type TaskRecord } from '../workspace/layout';
import { materializeTask, oracleTestPaths } from '../workspace/materialize';
import { pytestSelection } from './pytest-targets';
import { pytestNetwork } from '../runtime/task-confinement';
import { writeEnvironmentRecord, type EnvironmentRecord } from '../workspace/environment-record';
import { loadReport, saveReport } from './report-store';
import { runCurrentTests, type RunCurrentTestsResult } from './run-current-tests';
import type { PytestSettings } from '../pytest/pytest-settings';
import type { TaskFolder } from '../workspace/task-folder';

interface CheckOutOptions extends PytestSettings {
  task: TaskFolder;
  oracleDir: string;
  /** Where the tests run; needed only when `runTests` is true. */
  runtime?: Runtime;
  /** Where the tests run, recorded in `.sweci/environment.json` (default: this machine, `python`). */
  environment?: EnvironmentRecord;
  /** false: only materialise (e.g. in an untrusted window, where no task code may run). */
  runTests: boolean;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  onOutput?: (chunk: string) => void;
}

export interface CheckOutResult {
  record: TaskRecord;
  /** The base run, when tests ran. */
  current?: RunCurrentTestsResult;
  /** Set when the dataset's test_gap disagrees with the gap measured here (only a warning). */
  gapMismatch?: { expected: number; measured: number };
}

export async function checkOutTask(spec: TaskSpec, opts: CheckOutOptions): Promise<CheckOutResult> {
  const progress = opts.onProgress ?? (() => undefined);
  progress('Materialising the task folder');
  // An instance's test lists are checked against pytest before the task folder is written.
  const runtime = opts.runtime;
  // The bytecode seed (once per interpreter on this machine) is built while the task is
  // materialised, not in front of the first pytest run; the runs that need it wait for this build.
  const seeding =
    opts.runTests && runtime
      ? prepareBytecodeSeed(runtime, {
          python: opts.python,
          env: opts.env,
          confine: { hide: [path.resolve(opts.task.root), path.resolve(opts.oracleDir)], network: { kind: 'none' } },
          bytecodeSeedDir: machineSeedStore(),
          signal: opts.signal,
        }).catch(() => undefined)
      : undefined;
  const instance = spec.source.kind === 'swe-bench';
  const checkOracle = instance && opts.runTests && runtime ? () => ensureTargetReport(spec, opts.oracleDir, { ...opts, runtime }, progress) : undefined;
  // A task's target runs while its task folder is made (the target is in the oracle by then);
  // settled here, so a failure is reported after the task folder is complete, as before.
  let target: Promise<{ ok: true } | { ok: false; error: unknown }> | undefined;
  const alongside =
    !instance && opts.runTests && runtime
      ? (stop: AbortSignal) => {
          const signal = opts.signal ? AbortSignal.any([opts.signal, stop]) : stop;
          target = ensureTargetReport(spec, opts.oracleDir, { ...opts, runtime, signal }, progress).then(
            () => ({ ok: true as const }),
            (error: unknown) => ({ ok: false as const, error }),
          );
          return target;
        }
      : undefined;
  const record = await materializeTask(spec, {
    task: opts.task,
    oracleDir: opts.oracleDir,
    signal: opts.signal,
    onProgress: progress,
    checkOracle,
    alongside,
  });
  await writeEnvironmentRecord(opts.task, opts.environment ?? { schema: 1, runtime: 'local', python: opts.python, recordedAt: new Date().toISOString() });
  if (!opts.runTests) return { record };
  if (!opts.runtime) throw new Error('checkOutTask was asked to run the tests without a runtime to run them in.');

  const withRuntime = { ...opts, runtime: opts.runtime };
  const targetRun = await target;
  if (targetRun && !targetRun.ok) throw targetRun.error;
  // A task folder that was already there (or an instance, checked before it) runs it now if needed.
  await ensureTargetReport(record.task, record.oracleDir, withRuntime, progress);
  progress("Running the target's tests on the base");
  const current = await runCurrentTests({ ...withRuntime, record });
  await seeding;
  const expected = record.task.expectedGap;
  const measured = current.gap;
  const gapMismatch = expected !== undefined && measured !== undefined && expected !== measured ? { expected, measured } : undefined;
  return { record, current, gapMismatch };
}

/**
 * Runs pytest on the target once and keeps its report in the oracle. The reference harness
 * refuses a task whose target run crashes; so do we, keeping pytest's output for the user.
 */
async function ensureTargetReport(
  spec: TaskSpec,
  oracleDir: string,
  opts: CheckOutOptions & { runtime: Runtime },
  progress: (message: string) => void,
): Promise<void> {
  const oracle = oracleLayout(oracleDir);
  if (await loadReport(oracle.targetReportFile)) return;
  const instance = spec.source.kind === 'swe-bench' ? spec.source : undefined;
  const target = instance ? 'the base with the test patch' : 'the target';
  progress(instance ? 'Running the tests on the base with the test patch (to check the instance)' : "Running the target's tests on the target (the oracle)");
  const selection = instance ? await pytestSelection(await oracleTestPaths(oracleDir), oracle.targetCodeDir) : {};
  const outcome = await runPytest(opts.runtime, {
    ...selection,
    python: opts.python,
    codeDir: oracle.targetCodeDir,
    reportFile: rawReportFileIn(oracle.root),
    bytecodeSeedDir: machineSeedStore(),
    timeoutMs: opts.timeoutMs,
    format: opts.format,
    env: opts.env,
    // Confined as every run of the task's code is: the target's code is the project's, not ours.
    confine: { hide: [path.resolve(opts.task.root)], addressSpaceLimit: true, network: pytestNetwork(opts.network) },
    signal: opts.signal,
    onOutput: opts.onOutput,
  });
  if (outcome.kind === 'did-not-run' && outcome.cancelled) throw new AbortError();
  // Tests that failed on the target for want of a network are left out of its passed set: say so.
  if (outcome.kind === 'ran' && outcome.networkNote) progress(outcome.networkNote);
  const outputFile = path.join(oracle.root, 'target.pytest-output.txt');
  await fs.mkdir(oracle.root, { recursive: true });
  await writeFileAtomic(outputFile, outcome.output);
  if (outcome.kind === 'did-not-run' && outcome.engineFailure) {
    throw new UserError(`pytest could not run on ${target}: ${outcome.reason} Nothing was lost; check the task out again once the engine answers.`);
  }
  if (outcome.kind === 'did-not-run') {
    const hint =
      opts.runtime.isolation === 'container'
        ? `check that the image (${opts.runtime.description}) has the packages the project needs and that sweci.docker.python (${opts.python}) names its interpreter.`
        : `check the Python interpreter setting (sweci.python = ${opts.python}) has the packages the project needs.`;
    throw new TargetDidNotRunError(
      `pytest did not run on ${target}: ${outcome.reason} The task cannot be initialised: ${hint} pytest's output is in ${outputFile}.`,
    );
  }
  const report = instance
    ? instanceTargetReport(outcome.report, instance.instance, `${instance.instancesFile} (${spec.id})`, oracle.targetCodeDir)
    : outcome.report;
  await saveReport(oracle.targetReportFile, report);
}

/** The target's tests (an instance's: the base with its test patch) cannot run: the task cannot be initialised, as the reference drops it. */
export class TargetDidNotRunError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'TargetDidNotRunError';
  }
}
