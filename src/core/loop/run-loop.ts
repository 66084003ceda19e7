// The CI loop over one run: create it (branch sweci/<run> at the base, line 0 = the base run),
// then iterate until gap 0, the run's maximum, a requested pause, or cancellation. One lock
// is held for the whole call; all state is in files, so a later call (after a cancel, a crash
// or a window reload) continues where this one stopped.
import { assertEndpointsAnswer } from '../agents/endpoint/endpoint-check';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadReport, recordCurrentResult, saveReport, type LastRunRecord } from '../checkout/report-store';
import { createDriver, type AgentRuntimes } from '../agents/cli-driver';
import { Redactor } from '../agents/redact';
import { LocalRuntime } from '../runtime/local-runtime';
import type { AgentRole } from '../agents/agent-driver';
import { loadTargetReport, runPytestStep } from '../checkout/run-current-tests';
import { nonPassedIds } from '../gap/non-passed';
import { writeNonPassed } from '../gap/write-non-passed';
import { passedIds, type TestReport } from '../pytest/test-report';
import { AbortError, UserError, isAbortError, errorMessage } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { restoreTargetTests, readTaskRecord } from '../workspace/materialize';
import { taskLayout, type TaskRecord } from '../workspace/layout';
import { baseOutputFile, loadBaseRun, saveBaseRun, type BaseRun } from '../checkout/base-report';
import { CodeRepo } from './code-repo';
import { renderDefaultPrompt } from './default-prompt';
import { appendIterationRecord, readIterationRecords, type IterationRecord } from './iteration-record';
import { readJournal } from './journal';
import { withTaskLock } from '../workspace/lock';
import type { LoopEvent, LoopOptions, LoopStopReason, RoleSetup } from './loop-types';
import { HUMAN_HISTORY_RUN, assertRunName, runBranch } from './run-name';
import { recoverArchived, runIteration, type IterationContext } from './run-iteration';
import {
  ARCHIVE,
  DEFAULT_MAX_ITERATIONS,
  iterDir,
  listRuns,
  readRunInfo,
  roleInfo,
  runLayout,
  writeRunInfo,
  type RunInfo,
  type RunLayout,
  type RunSummary,
} from './run-store';
export interface LoopResult {
  run: string;
  reason: LoopStopReason;
  /** Completed iterations of the run (not only of this call). */
  iterations: number;
  lastGap?: number;
  /** Lines recorded by this call. */
  recorded: IterationRecord[];
}

export type CreateRunOptions = Pick<LoopOptions, 'taskDir' | 'run' | 'roles' | 'runtime' | 'agentRuntimes' | 'pytest' | 'signal' | 'onEvent'> & {
  /** Default 20, as the reference. */
  maxIterations?: number;
};

export type StartRunOptions = LoopOptions & { maxIterations?: number };

const LOOP_PURPOSE = 'the loop';

function emitter(listener: ((e: LoopEvent) => void) | undefined): (e: LoopEvent) => void {
  return (e) => {
    try {
      listener?.(e);
    } catch {
      // A view's bug must not stop the loop.
    }
  };
}

async function requireTask(taskDir: string): Promise<TaskRecord> {
  const record = await readTaskRecord(taskDir);
  if (!record) throw new UserError(`${taskDir} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
  return record;
}

/**
 * Agent roles without a driver get the CLI driver for their settings, on this machine or in a
 * container (runIn). Without runtimes for agents, host agents use the tests' runtime when that
 * is local.
 */
function resolveRoles(roles: Record<AgentRole, RoleSetup>, opts: Pick<LoopOptions, 'runtime' | 'agentRuntimes'>): Record<AgentRole, RoleSetup> {
  const runtimes: AgentRuntimes = opts.agentRuntimes ?? { host: opts.runtime.kind === 'local' ? opts.runtime : new LocalRuntime() };
  const resolve = (setup: RoleSetup, role: AgentRole): RoleSetup =>
    setup.settings.kind === 'human' || setup.driver ? setup : { ...setup, driver: createDriver(setup.settings, runtimes, role) };
  return { architect: resolve(roles.architect, 'architect'), programmer: resolve(roles.programmer, 'programmer') };
}

function roleLabel(setup: RoleSetup): string {
  return setup.settings.kind === 'human' ? 'human' : (setup.driver?.label ?? setup.settings.kind);
}

/** Values run.json must never hold: the role's environment and API keys. */
function roleSecrets(setup: RoleSetup): string[] {
  const env = setup.settings.kind === 'human' ? {} : (setup.settings.env ?? {});
  return [...Object.values(env), ...Object.values(setup.secretEnv ?? {})];
}

function listPaths(paths: string[]): string {
  return paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
}

/** Creates run `opts.run` (see module comment) under the task's lock. */
export async function createRun(opts: CreateRunOptions): Promise<RunInfo> {
  return withTaskLock(opts.taskDir, LOOP_PURPOSE, `run "${opts.run}"`, () => createRunLocked(opts)).catch((err: unknown) => {
    // simple-git reports a kill by the signal as its own error; callers test for AbortError.
    throw opts.signal?.aborted && !isAbortError(err) ? new AbortError() : err;
  });
}

/** Creates the run and runs the loop, under one lock. */
export async function startRun(opts: StartRunOptions): Promise<LoopResult> {
  return withTaskLock(opts.taskDir, LOOP_PURPOSE, `run "${opts.run}"`, async () => {
    try {
      await createRunLocked(opts);
    } catch (err) {
      const cancelled = opts.signal?.aborted || isAbortError(err);
      emitter(opts.onEvent)({
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
 * Runs the loop on an existing run: a pending iteration is continued from its last completed
 * step, then iterations follow until gap 0, the run's maximum, `opts.iterations`, or cancel.
 * Throws a UserError when a step fails every try (the iteration stays pending), an AbortError
 * when cancelled (nothing partial is recorded).
 */
/** The endpoint check for the roles agents play in this call (humans and custom agents have none). */
async function assertRolesEndpoints(roles: LoopOptions['roles'], signal: AbortSignal): Promise<void> {
  const secrets = { ...(roles.architect.secretEnv ?? {}), ...(roles.programmer.secretEnv ?? {}) };
  await assertEndpointsAnswer({ architect: roles.architect.settings, programmer: roles.programmer.settings }, secrets, signal);
}

export async function runLoop(opts: LoopOptions): Promise<LoopResult> {
  return withTaskLock(opts.taskDir, LOOP_PURPOSE, `run "${opts.run}"`, () => runLoopLocked(opts));
}

/** After a crash, a reload or a cancel: continues the run (same as runLoop). */
export const resumeRun = runLoop;

async function createRunLocked(options: CreateRunOptions): Promise<RunInfo> {
  const opts = { ...options, roles: resolveRoles(options.roles, options) };
  const { taskDir, run } = opts;
  assertRunName(run);
  if (run === HUMAN_HISTORY_RUN) throw new UserError(`"${HUMAN_HISTORY_RUN}" is the name of the human-history replay. Choose another run name.`);
  const record = await requireTask(taskDir);
  if (await readRunInfo(taskDir, run)) throw new UserError(`Run "${run}" already exists on this task. Resume it, or choose another name.`);
  const layout = runLayout(taskDir, run);
  const signal = opts.signal ?? new AbortController().signal;
  const task = taskLayout(taskDir);
  const target = await loadTargetReport(record);
  const repo = await CodeRepo.open(taskDir, signal);

  // Every run starts from the base; uncommitted work in app/code would be lost or carried over.
  await restoreTargetTests(record, taskDir);
  const dirty = await repo.changedPaths();
  if (dirty.length > 0) {
    throw new UserError(`app/code has uncommitted changes (${listPaths(dirty)}). A new run starts from the base commit: commit or discard them first.`);
  }
  const branch = runBranch(run);
  const existing = await repo.branchSha(branch);
  if (existing && existing !== record.baseCommit) {
    throw new UserError(`app/code already has a branch ${branch} (from a deleted run?). Choose another run name, or delete that branch.`);
  }
  if (!existing) await repo.createBranch(branch, record.baseCommit);
  await repo.checkout(branch);
  await repo.syncWorkingRepo();
  await fs.rm(layout.dir, { recursive: true, force: true });

  const base = await baseRun(opts, record, target);
  // The current report, app/non-passed and the views now show the base, which is what app/code holds.
  const output = await fs.readFile(baseOutputFile(taskDir), 'utf8').catch(() => '');
  await writeNonPassed(task.nonPassedDir, base.report, target);
  await recordCurrentResult(task, { run: base.run, report: base.report, output });

  const archive = iterDir(layout, 0);
  await fs.mkdir(archive, { recursive: true });
  await saveReport(path.join(archive, ARCHIVE.report), base.report);
  await fs.copyFile(task.summaryFile, path.join(archive, ARCHIVE.summary));
  await writeFileAtomic(path.join(archive, ARCHIVE.pytestOutput), output);

  const gap = nonPassedIds(base.report, target).length;
  const targetPassed = passedIds(target).size;
  const finished = new Date(base.run.finishedAt);
  await appendIterationRecord(layout.iterationsFile, {
    gap,
    pytest: { ...base.report.summary },
    iteration: 0,
    run,
    started_at: new Date(finished.getTime() - base.run.durationMs).toISOString(),
    finished_at: base.run.finishedAt,
    commit: record.baseCommit,
    passed: targetPassed - gap,
    target_passed: targetPassed,
    regressions: [],
    tampered: [],
    outside_changes: [],
    pytest_time: Math.round(base.run.durationMs) / 1000,
  });
  const info: RunInfo = {
    schema: 1,
    name: run,
    created: new Date().toISOString(),
    kind: 'loop',
    roles: {
      architect: roleInfo(opts.roles.architect.settings, roleLabel(opts.roles.architect), roleSecrets(opts.roles.architect)),
      programmer: roleInfo(opts.roles.programmer.settings, roleLabel(opts.roles.programmer), roleSecrets(opts.roles.programmer)),
    },
    maxIterations: opts.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    baseCommit: record.baseCommit,
    branch,
  };
  // Last: a folder without run.json is an unfinished creation, redone by the next createRun.
  await writeRunInfo(taskDir, info);
  return info;
}

/** The base's result: kept from the checkout (or a Refresh at the base), else measured now. */
async function baseRun(opts: CreateRunOptions, record: TaskRecord, target: TestReport): Promise<BaseRun> {
  const kept = await loadBaseRun(opts.taskDir);
  if (kept) return kept;
  const emit = emitter(opts.onEvent);
  emit({ type: 'step-started', run: opts.run, iteration: 0, step: 'pytest', attempt: 1 });
  const result = await runPytestStep({
    ...opts.pytest,
    taskDir: opts.taskDir,
    record,
    runtime: opts.runtime,
    signal: opts.signal,
    target,
    onOutput: (chunk) => emit({ type: 'pytest-output', run: opts.run, iteration: 0, chunk }),
  });
  emit({
    type: 'step-finished',
    run: opts.run,
    iteration: 0,
    step: 'pytest',
    attempt: 1,
    ok: !!result.report,
    durationMs: result.run.durationMs,
    message: result.run.reason,
  });
  if (!result.report) {
    throw new UserError(
      `pytest did not run on the base: ${result.run.reason ?? 'no report'} A run needs the base's result as its iteration 0 (the reference refuses such a task too). ` +
        `Check the Python interpreter setting, then try again.`,
    );
  }
  const base = { report: result.report, run: result.run };
  await saveBaseRun(opts.taskDir, base, result.output);
  return base;
}

async function runLoopLocked(options: LoopOptions): Promise<LoopResult> {
  const opts = { ...options, roles: resolveRoles(options.roles, options) };
  const emit = emitter(opts.onEvent);
  const { taskDir, run } = opts;
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
    const info = await readRunInfo(taskDir, run);
    if (!info) throw new UserError(`This task has no run named "${run}". Start a new run instead.`);
    if (info.kind !== 'loop') throw new UserError(`"${run}" is a human-history replay, not a loop run.`);
    const record = await requireTask(taskDir);
    const target = await loadTargetReport(record);
    const layout = runLayout(taskDir, run);
    records = await readIterationRecords(layout.iterationsFile);
    if (records.length === 0) throw new UserError(`${layout.iterationsFile} has no line 0. Delete the run's folder and start it again.`);
    const again = await recoverArchived(layout, records.length);
    if (again) records.push(again);

    const branch = info.branch ?? runBranch(run);
    repo = await CodeRepo.open(taskDir, signal);
    const switched = await prepareCode(layout.pendingDir, records, record, taskDir, repo, branch);
    await syncWithRun(layout, records[records.length - 1], target, taskDir, switched);

    const ctx: IterationContext = {
      opts,
      record,
      layout,
      target,
      repo,
      branch,
      signal,
      emit,
      renderPrompt: opts.renderPrompt ?? renderDefaultPrompt,
      lastRan: await lastRanPassed(layout, records),
      basePassed: await archivedPassed(layout, 0),
      secrets: new Redactor([...roleSecrets(opts.roles.architect), ...roleSecrets(opts.roles.programmer)]),
    };
    // An endpoint that does not answer or refuses the key stops the run before any step.
    const first = records[records.length - 1];
    if (first.gap !== 0 && records.length - 1 < info.maxIterations) await assertRolesEndpoints(opts.roles, signal);
    for (;;) {
      const last = records[records.length - 1];
      if (last.gap === 0) return finish('solved');
      if (records.length - 1 >= info.maxIterations) return finish('max-iterations');
      if (opts.iterations !== undefined && recorded.length >= opts.iterations) return finish('paused');
      const outcome = await runIteration(ctx, records.length, last.commit);
      if (outcome.kind === 'paused') return finish('paused');
      records.push(outcome.record);
      recorded.push(outcome.record);
      emit({ type: 'iteration-recorded', run, record: outcome.record });
      if (outcome.record.gap >= 0) ctx.lastRan = await archivedPassed(layout, outcome.record.iteration);
    }
  } catch (err) {
    if (signal.aborted || isAbortError(err)) {
      finish('cancelled');
      throw isAbortError(err) ? err : new AbortError();
    }
    finish('failed', errorMessage(err));
    throw err;
  } finally {
    // However the call ended, app/code/.git is the run's branch at its last commit again (it may
    // have been deleted or tampered with since the last agent step, or before this call).
    if (repo && !signal.aborted) await repo.syncWorkingRepo().catch(() => undefined);
  }
}

/**
 * Makes app/code what the next step expects. Continuing a pending iteration: HEAD back on the
 * run's branch at the iteration's start (the working tree is the interrupted step's). Starting
 * one: the branch at the last iteration's commit with nothing uncommitted. Returns true when
 * it switched app/code from another branch.
 */
async function prepareCode(
  pendingDir: string,
  records: IterationRecord[],
  record: TaskRecord,
  taskDir: string,
  repo: CodeRepo,
  branch: string,
): Promise<boolean> {
  const last = records[records.length - 1];
  const journal = await readJournal(pendingDir);
  const resuming = journal !== undefined && journal.iteration === records.length && journal.startCommit === last.commit;
  if (!resuming) await fs.rm(pendingDir, { recursive: true, force: true });
  const head = await repo.head();
  const onBranch = head.ref === `refs/heads/${branch}`;
  if (resuming) {
    if (onBranch && head.sha === last.commit) return false;
    // The interrupted iteration may have committed already (testAndCommit reuses that commit).
    if (onBranch && (await repo.parent(head.sha)) === last.commit && (await repo.subject(head.sha)) === `iteration ${records.length}`) return false;
    await repo.reattach(branch, journal.commit ?? last.commit);
    return !onBranch;
  }
  await restoreTargetTests(record, taskDir);
  const dirty = await repo.changedPaths();
  if (onBranch && head.sha !== last.commit) {
    throw new UserError(
      `app/code's branch ${branch} is at ${head.sha.slice(0, 12)}, not at the run's last iteration (${last.commit.slice(0, 12)}): it was committed to outside the loop. ` +
        `Discard the pending state of the run to reset it, or start a new run.`,
    );
  }
  if (dirty.length > 0) {
    throw new UserError(
      `app/code has uncommitted changes that are not part of run "${records[0].run}" (${listPaths(dirty)}). ` +
        `Every iteration starts from the last iteration's commit: discard them (or the run's pending state) first.`,
    );
  }
  if (onBranch) return false;
  await repo.checkout(branch);
  return true;
}

/**
 * app/non-passed as the run's last iteration left it (another run or a Refresh may have
 * rewritten it); after a switch of branch, the current report too, so views show this run.
 */
async function syncWithRun(layout: RunLayout, last: IterationRecord, target: TestReport, taskDir: string, switched: boolean): Promise<void> {
  const report = last.gap >= 0 ? await loadReport(path.join(iterDir(layout, last.iteration), ARCHIVE.report)).catch(() => undefined) : undefined;
  if (last.gap >= 0 && !report) return; // archive missing: keep what is there
  const task = taskLayout(taskDir);
  await writeNonPassed(task.nonPassedDir, report, target);
  if (!switched) return;
  const run: LastRunRecord = {
    kind: report ? 'ran' : 'did-not-run',
    finishedAt: last.finished_at,
    exitCode: report?.exitCode ?? null,
    command: `(iteration ${last.iteration} of run "${layout.run}")`,
    durationMs: Math.round((last.pytest_time ?? 0) * 1000),
    ...(last.pytest_error ? { reason: last.pytest_error } : {}),
  };
  const output = await fs.readFile(path.join(iterDir(layout, last.iteration), ARCHIVE.pytestOutput), 'utf8').catch(() => '');
  await recordCurrentResult(task, { run, ...(report ? { report } : {}), output });
}

async function archivedPassed(layout: RunLayout, iteration: number): Promise<Set<string> | undefined> {
  const report = await loadReport(path.join(iterDir(layout, iteration), ARCHIVE.report)).catch(() => undefined);
  return report ? passedIds(report) : undefined;
}

async function lastRanPassed(layout: RunLayout, records: IterationRecord[]): Promise<Set<string> | undefined> {
  for (let i = records.length - 1; i >= 0; i--) {
    if (records[i].gap >= 0) return archivedPassed(layout, records[i].iteration);
  }
  return undefined;
}

/** Runs with an iteration in progress (after a cancel, a crash or a reload): offer to resume them. */
export async function findPendingRuns(taskDir: string): Promise<RunSummary[]> {
  return (await listRuns(taskDir)).filter((r) => r.pending !== undefined);
}

/**
 * Throws away the iteration in progress and any uncommitted change in app/code: the run's
 * branch is checked out at its last iteration's commit. The next loop call starts the
 * iteration afresh.
 */
export async function discardPendingIteration(taskDir: string, run: string): Promise<void> {
  await withTaskLock(taskDir, LOOP_PURPOSE, `run "${run}"`, async () => {
    const info = await readRunInfo(taskDir, run);
    if (!info || info.kind !== 'loop') throw new UserError(`This task has no loop run named "${run}".`);
    const layout = runLayout(taskDir, run);
    const records = await readIterationRecords(layout.iterationsFile);
    const last = records[records.length - 1];
    if (!last) throw new UserError(`${layout.iterationsFile} has no line 0. Delete the run's folder and start it again.`);
    await fs.rm(layout.pendingDir, { recursive: true, force: true });
    const repo = await CodeRepo.open(taskDir);
    await repo.resetTo(info.branch ?? runBranch(run), last.commit);
    await repo.syncWorkingRepo();
  });
}

/**
 * Removes run `run` when nothing of it is worth keeping: only its line 0 (the base) and no
 * completed step of iteration 1 (e.g. the first agent was not found). app/code is reset to
 * the base on the run's branch, which createRun reuses. Returns whether it removed the run;
 * a run with a recorded iteration or a completed step is always kept.
 */
export async function removeRunWithoutIterations(taskDir: string, run: string): Promise<boolean> {
  return withTaskLock(taskDir, LOOP_PURPOSE, `run "${run}"`, async () => {
    const info = await readRunInfo(taskDir, run);
    if (!info || info.kind !== 'loop') return false;
    const layout = runLayout(taskDir, run);
    const records = await readIterationRecords(layout.iterationsFile);
    if (records.length > 1) return false;
    const journal = await readJournal(layout.pendingDir).catch(() => undefined);
    if (journal?.lastCompletedStep) return false;
    const repo = await CodeRepo.open(taskDir);
    await repo.resetTo(info.branch ?? runBranch(run), info.baseCommit);
    await repo.syncWorkingRepo();
    await fs.rm(layout.dir, { recursive: true, force: true });
    return true;
  });
}
