// A run's lifecycle, under the task's lock: create it (create-run.ts), open it to continue
// (open-run.ts), hand it to the loop driver (loop-driver.ts), and finish it — the loop-finished
// event, the result, app/code back on the run's branch — however the call ends. Also discarding
// a pending iteration and removing a run that holds nothing. All state is in files, so a later
// call (after a cancel, a crash or a window reload) continues where this one stopped.
import { promises as fs } from 'node:fs';
import { AbortError, UserError, isAbortError, errorMessage } from '../util/errors';
import { BudgetExhaustedError } from '../gateway/budget';
import { withTaskLock } from '../workspace/lock';
import { CodeRepo } from './code-repo';
import { createRunLocked, type CreateRunOptions } from './create-run';
import { readIterationRecords, type IterationRecord } from './iteration-record';
import { readJournal } from './journal';
import { driveLoop } from './loop-driver';
import { loopEmitter } from './loop-emitter';
import type { LoopOptions, LoopStopReason } from './loop-types';
import { prepareRun, readLoopRun } from './open-run';
import { resolveRoles } from './role-setup';
import { runBranch } from './run-name';
import { refuseExposingPaths, refuseMissingModels, requireTask } from './run-preconditions';
import { recoverArchived } from './run-iteration';
import { listRuns, readRunInfo, type RunInfo, type RunSummary } from './run-store';
import type { TaskFolder } from '../workspace/task-folder';
import { tracedListener } from './loop-spans';

export type { CreateRunOptions } from './create-run';

export interface LoopResult {
  run: string;
  reason: LoopStopReason;
  /** Completed iterations of the run (not only of this call). */
  iterations: number;
  lastGap?: number;
  /** Lines recorded by this call. */
  recorded: IterationRecord[];
}

export type StartRunOptions = LoopOptions & { maxIterations?: number };

const LOOP_PURPOSE = 'the loop';

/** Creates run `opts.run` (branch sweci/<run> at the base, line 0 = the base run) under the task's lock. */
export async function createRun(opts: CreateRunOptions): Promise<RunInfo> {
  return withTaskLock(opts.task, LOOP_PURPOSE, `run "${opts.run}"`, () => createRunLocked(opts)).catch((err: unknown) => {
    // simple-git reports a kill by the signal as its own error; callers test for AbortError.
    throw opts.signal?.aborted && !isAbortError(err) ? new AbortError() : err;
  });
}

/** Creates the run and runs the loop, under one lock. */
export async function startRun(options: StartRunOptions): Promise<LoopResult> {
  const opts = traced(options);
  return withTaskLock(opts.task, LOOP_PURPOSE, `run "${opts.run}"`, async () => {
    try {
      await createRunLocked(opts);
    } catch (err) {
      const cancelled = opts.signal?.aborted || isAbortError(err);
      loopEmitter(opts.onEvent)({
        type: 'loop-finished',
        run: opts.run,
        reason: cancelled ? 'cancelled' : 'failed',
        iterations: 0,
        ...(cancelled ? {} : { error: errorMessage(err) }),
      });
      throw cancelled && !isAbortError(err) ? new AbortError() : err;
    }
    return runLoopLocked(opts);
  });
}

/**
 * Runs the loop on an existing run (also to resume it after a crash, a reload or a cancel): a
 * pending iteration is continued from its last completed step, then iterations follow until
 * gap 0, the run's maximum, `opts.iterations`, or cancel.
 * Throws a UserError when a step fails every try (the iteration stays pending), an AbortError
 * when cancelled (nothing partial is recorded).
 */
export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  const opts = traced(options);
  return withTaskLock(opts.task, LOOP_PURPOSE, `run "${opts.run}"`, () => runLoopLocked(opts));
}

/** The call's listener with the run's spans before it, when telemetry is on (one task span per call). */
function traced<T extends LoopOptions>(opts: T): T {
  const onEvent = tracedListener({ taskDir: opts.task.root, run: opts.run, ...(opts.traceParent ? { parent: opts.traceParent } : {}) }, opts.onEvent);
  return onEvent === opts.onEvent ? opts : { ...opts, ...(onEvent ? { onEvent } : {}) };
}

async function runLoopLocked(options: LoopOptions): Promise<LoopResult> {
  const opts = { ...options, roles: resolveRoles(options.roles, options) };
  const emit = loopEmitter(opts.onEvent);
  const { task, run } = opts;
  const recorded: IterationRecord[] = [];
  let records: IterationRecord[] = [];
  const finish = (reason: LoopStopReason, error?: string): LoopResult => {
    const last = records[records.length - 1];
    const result: LoopResult = { run, reason, iterations: Math.max(0, records.length - 1), lastGap: last?.gap, recorded };
    emit({ type: 'loop-finished', run, reason, iterations: result.iterations, lastGap: result.lastGap, ...(error ? { error } : {}) });
    return result;
  };
  const signal = opts.signal ?? new AbortController().signal;
  let repo: CodeRepo | undefined;
  try {
    refuseExposingPaths(opts, await requireTask(task));
    refuseMissingModels(opts);
    const opened = await readLoopRun(task, run);
    records = opened.records;
    // An iteration archived but not appended (a crash between the two) is recorded now.
    const again = await recoverArchived(opened.layout, records.length);
    if (again) records.push(again);
    repo = await CodeRepo.open(task, signal);
    await prepareRun(opened, task, repo);
    return finish(await driveLoop({ opts, run: opened, repo, signal, emit, recorded }));
  } catch (err) {
    if (signal.aborted || isAbortError(err)) {
      finish('cancelled');
      throw isAbortError(err) ? err : new AbortError();
    }
    finish(err instanceof BudgetExhaustedError ? 'budget-exhausted' : 'failed', errorMessage(err));
    throw err;
  } finally {
    // However the call ended, app/code/.git is the run's branch at its last commit again (it may
    // have been deleted or tampered with since the last agent step, or before this call).
    if (repo && !signal.aborted) await repo.syncWorkingRepo().catch(() => undefined);
  }
}

/** Runs with an iteration in progress (after a cancel, a crash or a reload): offer to resume them. */
export async function findPendingRuns(task: TaskFolder): Promise<RunSummary[]> {
  return (await listRuns(task)).filter((r) => r.pending !== undefined);
}

/**
 * Throws away the iteration in progress and any uncommitted change in app/code: the run's
 * branch is checked out at its last iteration's commit. The next loop call starts the
 * iteration afresh.
 */
export async function discardPendingIteration(task: TaskFolder, run: string): Promise<void> {
  await withTaskLock(task, LOOP_PURPOSE, `run "${run}"`, async () => {
    const info = await readRunInfo(task, run);
    if (!info || info.kind !== 'loop') throw new UserError(`This task has no loop run named "${run}".`);
    const layout = task.run(run);
    const records = await readIterationRecords(layout.iterationsFile);
    const last = records[records.length - 1];
    if (!last) throw new UserError(`${layout.iterationsFile} has no line 0. Delete the run's folder and start it again.`);
    await fs.rm(layout.pendingDir, { recursive: true, force: true });
    const repo = await CodeRepo.open(task);
    await repo.resetTo(info.branch ?? runBranch(run), last.commit);
    await repo.syncWorkingRepo();
  });
}

/**
 * Removes run `run` when nothing of it is worth keeping: only its line 0 (the base), no
 * completed step of iteration 1 and no agent log (e.g. the first agent was not found). app/code is reset to
 * the base on the run's branch, which createRun reuses. Returns whether it removed the run;
 * a run with a recorded iteration or a completed step is always kept.
 */
export async function removeRunWithoutIterations(task: TaskFolder, run: string): Promise<boolean> {
  return withTaskLock(task, LOOP_PURPOSE, `run "${run}"`, async () => {
    const info = await readRunInfo(task, run);
    if (!info || info.kind !== 'loop') return false;
    const layout = task.run(run);
    const records = await readIterationRecords(layout.iterationsFile);
    if (records.length > 1) return false;
    const journal = await readJournal(layout.pendingDir).catch(() => undefined);
    if (journal?.lastCompletedStep) return false;
    // A try that ran left its log there, and the failure message sends the user to it.
    const left = await fs.readdir(layout.pendingDir).catch(() => [] as string[]);
    if (left.some((f) => f.endsWith('.log'))) return false;
    const repo = await CodeRepo.open(task);
    await repo.resetTo(info.branch ?? runBranch(run), info.baseCommit);
    await repo.syncWorkingRepo();
    await fs.rm(layout.dir, { recursive: true, force: true });
    return true;
  });
}
