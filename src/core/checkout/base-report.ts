// The base's own pytest result, kept apart from the "current" report (which Refresh and the loop
// overwrite): a run's line 0 is the base run, whenever the run is created.
import { lastRunFile, reportFile, type LastRunRecord } from './report-store';
import { DamagedRecordError } from '../records/record-file';
import type { TestReport } from '../pytest/test-report';
import { writeFileAtomic } from '../util/fs-atomic';
import { ensureHistory, historyRunner } from '../workspace/history-store';
import { type TaskRecord } from '../workspace/layout';
import type { TaskFolder } from '../workspace/task-folder';

export interface BaseRun {
  report: TestReport;
  run: LastRunRecord;
}

/** The base run, or undefined when none is kept (or what is kept is damaged: it is run again). */
export async function loadBaseRun(task: TaskFolder): Promise<BaseRun | undefined> {
  const f = task.base;
  try {
    const [report, run] = await Promise.all([reportFile.read(f.report), lastRunFile.read(f.run)]);
    return report && run?.kind === 'ran' ? { report, run } : undefined;
  } catch (err) {
    if (err instanceof DamagedRecordError) return undefined;
    throw err;
  }
}

export async function saveBaseRun(task: TaskFolder, base: BaseRun, output: string): Promise<void> {
  const f = task.base;
  await writeFileAtomic(f.output, output);
  await reportFile.write(f.report, base.report);
  // Written last: its presence says the other two are complete.
  await lastRunFile.write(f.run, base.run);
}

/**
 * True when app/code is exactly the base: HEAD is the base commit and nothing is changed or
 * untracked (pytest's own caches are excluded by the repository). Any git problem: false.
 */
export async function codeIsAtBase(task: TaskFolder, record: TaskRecord): Promise<boolean> {
  try {
    await ensureHistory(task);
    const git = historyRunner(task);
    const head = (await git.raw(['rev-parse', 'HEAD'])).trim();
    if (head !== record.baseCommit) return false;
    return (await git.raw(['status', '--porcelain', '--untracked-files=all'])).trim() === '';
  } catch {
    return false;
  }
}
