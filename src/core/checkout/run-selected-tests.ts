// A partial pytest run (Test Explorer's Run on some tests): the same command, environment and
// lock as a full run, on the given node ids only. Its report is returned and never recorded:
// a partial run is not the task's state, so the current report, the gap and app/non-passed
// stay what the last full run made them.
import { runPytest, type PytestRun } from '../pytest/run-pytest';
import { plural } from '../util/plural';
import { machineSeedStore } from '../pytest/bytecode-seed';
import type { PytestSettings } from '../pytest/pytest-settings';
import type { Runtime } from '../runtime/runtime';
import { pytestConfinement } from '../runtime/task-confinement';
import { withTaskLock } from '../workspace/lock';
import { restoreTargetTests } from '../workspace/materialize';
import { type TaskRecord } from '../workspace/layout';
import type { TaskFolder } from '../workspace/task-folder';

export interface RunSelectedTestsOptions extends PytestSettings {
  task: TaskFolder;
  record: TaskRecord;
  runtime: Runtime;
  nodeIds: readonly string[];
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
}

export interface RunSelectedTestsResult {
  run: PytestRun;
  /** Files under tests/ that differed from the target's and were put back (as a full run does). */
  restoredTests: string[];
}

export async function runSelectedTests(opts: RunSelectedTestsOptions): Promise<RunSelectedTestsResult> {
  if (opts.nodeIds.length === 0) throw new Error('runSelectedTests needs at least one node id.');
  return withTaskLock(opts.task, 'pytest', plural(opts.nodeIds.length, 'selected test'), async () => {
    const layout = opts.task;
    // The tests that run are the target's, as in every full run.
    const restoredTests = await restoreTargetTests(opts.record, opts.task, layout.codeDir);
    const run = await runPytest(opts.runtime, {
      python: opts.python,
      codeDir: layout.codeDir,
      reportFile: opts.task.selectedRawReportFile,
      bytecodeSeedDir: machineSeedStore(),
      timeoutMs: opts.timeoutMs,
      format: opts.format,
      env: opts.env,
      confine: pytestConfinement(opts.task, opts.record, opts.network),
      signal: opts.signal,
      nodeIds: opts.nodeIds,
      onOutput: opts.onOutput && ((chunk) => opts.onOutput!(chunk)),
    });
    return { run, restoredTests };
  });
}
