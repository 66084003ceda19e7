// Opening an existing run to continue it: what it is (run.json, the task, the target, its
// lines), then app/code and app/non-passed as the next step expects them (a pending
// iteration continues where it stopped; a new one starts from the last iteration's commit).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadReport, recordCurrentResult, type LastRunRecord } from '../checkout/report-store';
import { loadTargetReport } from '../checkout/run-current-tests';
import { writeNonPassed } from '../gap/write-non-passed';
import type { TestReport } from '../pytest/test-report';
import { UserError } from '../util/errors';
import { restoreTargetTests } from '../workspace/materialize';
import { type TaskRecord } from '../workspace/layout';
import type { CodeRepo } from './code-repo';
import { readIterationRecords, type IterationRecord } from './iteration-record';
import { readJournal } from './journal';
import { runBranch } from './run-name';
import { listPaths, requireTask } from './run-preconditions';
import { ARCHIVE, readRunInfo, type RunInfo, type RunLayout } from './run-store';
import type { TaskFolder } from '../workspace/task-folder';

export interface OpenedRun {
  info: RunInfo;
  record: TaskRecord;
  target: TestReport;
  layout: RunLayout;
  /** The run's lines so far (line 0 = the base); the loop appends the ones it records. */
  records: IterationRecord[];
  branch: string;
}

/** Reads loop run `run` of the task; a UserError when there is none or it has no line 0. */
export async function readLoopRun(task: TaskFolder, run: string): Promise<OpenedRun> {
  const info = await readRunInfo(task, run);
  if (!info) throw new UserError(`This task has no run named "${run}". Start a new run instead.`);
  if (info.kind !== 'loop') throw new UserError(`"${run}" is a human-history replay, not a loop run.`);
  const record = await requireTask(task);
  const target = await loadTargetReport(record);
  const layout = task.run(run);
  const records = await readIterationRecords(layout.iterationsFile);
  if (records.length === 0) throw new UserError(`${layout.iterationsFile} has no line 0. Delete the run's folder and start it again.`);
  return { info, record, target, layout, records, branch: info.branch ?? runBranch(run) };
}

/** Puts app/code on the run's branch as the next step expects, and app/non-passed (and the current report) as the run left them. */
export async function prepareRun(run: OpenedRun, task: TaskFolder, repo: CodeRepo): Promise<void> {
  const switched = await prepareCode(run.layout.pendingDir, run.records, run.record, task, repo, run.branch);
  await syncWithRun(run.layout, run.records[run.records.length - 1], run.target, task, switched);
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
  task: TaskFolder,
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
  await restoreTargetTests(record, task);
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
async function syncWithRun(layout: RunLayout, last: IterationRecord, target: TestReport, task: TaskFolder, switched: boolean): Promise<void> {
  const report = last.gap >= 0 ? await loadReport(path.join(layout.iterationDir(last.iteration), ARCHIVE.report)).catch(() => undefined) : undefined;
  if (last.gap >= 0 && !report) return; // archive missing: keep what is there
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
  const output = await fs.readFile(path.join(layout.iterationDir(last.iteration), ARCHIVE.pytestOutput), 'utf8').catch(() => '');
  await recordCurrentResult(task, { run, ...(report ? { report } : {}), output });
}
