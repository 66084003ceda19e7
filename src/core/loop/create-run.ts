// Creating a run: branch sweci/<run> at the base, the base's pytest result as iteration 0
// (archived and line 0 of iteration.jsonl), then run.json. The caller holds the task's lock.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { recordCurrentResult, saveReport } from '../checkout/report-store';
import { loadBaseRun, saveBaseRun, type BaseRun } from '../checkout/base-report';
import { loadTargetReport, runPytestStep } from '../checkout/run-current-tests';
import { writeNonPassed } from '../gap/write-non-passed';
import type { TestReport } from '../pytest/test-report';
import { UserError } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { restoreTargetTests } from '../workspace/materialize';
import { type TaskRecord } from '../workspace/layout';
import { CodeRepo } from './code-repo';
import { measuredFields } from './measured-line';
import { appendIterationRecord } from './iteration-record';
import { loopEmitter } from './loop-emitter';
import type { LoopOptions } from './loop-types';
import { resolveRoles, roleLabel, roleSecrets } from './role-setup';
import { HUMAN_HISTORY_RUN, assertRunName, runBranch } from './run-name';
import { listPaths, refuseExposingPaths, refuseMissingModels, requireTask } from './run-preconditions';
import { ARCHIVE, DEFAULT_MAX_ITERATIONS, readRunInfo, roleInfo, writeRunInfo, type RunInfo } from './run-store';

export type CreateRunOptions = Pick<LoopOptions, 'task' | 'run' | 'roles' | 'runtime' | 'agentRuntimes' | 'pytest' | 'signal' | 'onEvent'> & {
  /** Default 20, as the reference. */
  maxIterations?: number;
};

/** Creates run `options.run`; the caller holds the task's lock. */
export async function createRunLocked(options: CreateRunOptions): Promise<RunInfo> {
  const opts = { ...options, roles: resolveRoles(options.roles, options) };
  const { task, run } = opts;
  assertRunName(run);
  if (run === HUMAN_HISTORY_RUN) throw new UserError(`"${HUMAN_HISTORY_RUN}" is the name of the human-history replay. Choose another run name.`);
  const record = await requireTask(task);
  refuseExposingPaths(opts, record);
  refuseMissingModels(opts);
  if (await readRunInfo(task, run)) throw new UserError(`Run "${run}" already exists on this task. Resume it, or choose another name.`);
  const layout = task.run(run);
  const signal = opts.signal ?? new AbortController().signal;
  const target = await loadTargetReport(record);
  const repo = await CodeRepo.open(task, signal);

  // Every run starts from the base; uncommitted work in app/code would be lost or carried over.
  await restoreTargetTests(record, task);
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
  const output = await fs.readFile(task.base.output, 'utf8').catch(() => '');
  await writeNonPassed(task.nonPassedDir, base.report, target);
  await recordCurrentResult(task, { run: base.run, report: base.report, output });

  const archive = layout.iterationDir(0);
  await fs.mkdir(archive, { recursive: true });
  await saveReport(path.join(archive, ARCHIVE.report), base.report);
  await fs.copyFile(task.summaryFile, path.join(archive, ARCHIVE.summary));
  await writeFileAtomic(path.join(archive, ARCHIVE.pytestOutput), output);

  const finished = new Date(base.run.finishedAt);
  await appendIterationRecord(layout.iterationsFile, {
    ...measuredFields(base.report, target),
    iteration: 0,
    run,
    started_at: new Date(finished.getTime() - base.run.durationMs).toISOString(),
    finished_at: base.run.finishedAt,
    commit: record.baseCommit,
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
  await writeRunInfo(task, info);
  return info;
}

/** The base's result: kept from the checkout (or a Refresh at the base), else measured now. */
async function baseRun(opts: CreateRunOptions, record: TaskRecord, target: TestReport): Promise<BaseRun> {
  const kept = await loadBaseRun(opts.task);
  if (kept) return kept;
  const emit = loopEmitter(opts.onEvent);
  emit({ type: 'step-started', run: opts.run, iteration: 0, step: 'pytest', try: 1 });
  const result = await runPytestStep({
    ...opts.pytest,
    task: opts.task,
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
    try: 1,
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
  await saveBaseRun(opts.task, base, result.output);
  return base;
}
