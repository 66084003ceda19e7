// Everything a view needs about an open task, read from files (the loop and CLI write them).
import { readEnvironmentRecord, type EnvironmentRecord } from '../workspace/environment-record';
import { classify, type NonPassedEntry } from '../gap/non-passed';
import { passedIds, type TestReport } from '../pytest/test-report';
import { oracleLayout, type TaskRecord } from '../workspace/layout';
import { readTaskRecord } from '../workspace/materialize';
import { lastRunFile, loadReport, type LastRunRecord } from './report-store';
import type { TaskFolder } from '../workspace/task-folder';

export interface TaskState {
  task: TaskFolder;
  record: TaskRecord;
  target?: TestReport;
  current?: TestReport;
  lastRun?: LastRunRecord;
  /** Where the tests ran when the task was checked out (`.sweci/environment.json`). */
  environment?: EnvironmentRecord;
  /** The non-passed tests, as the tree shows them (empty until both reports exist). */
  entries: NonPassedEntry[];
  counts?: { passedNow: number; passedByTarget: number; gap: number };
}

/** undefined when the folder is not a task (no .sweci/task.json). */
export async function loadTaskState(task: TaskFolder): Promise<TaskState | undefined> {
  const record = await readTaskRecord(task);
  if (!record) return undefined;
  const [target, current, lastRun, environment] = await Promise.all([
    loadReport(oracleLayout(record.oracleDir).targetReportFile),
    loadReport(task.current.report),
    lastRunFile.read(task.current.run),
    readEnvironmentRecord(task),
  ]);
  if (!target || !current) return { task, record, target, current, lastRun, environment, entries: [] };
  const entries = classify(current, target, { detailDir: task.nonPassedDir });
  const targetPassed = passedIds(target);
  const nowPassed = passedIds(current);
  let passedNow = 0;
  for (const id of targetPassed) if (nowPassed.has(id)) passedNow++;
  return {
    task,
    record,
    target,
    current,
    lastRun,
    environment,
    entries,
    counts: { passedNow, passedByTarget: targetPassed.size, gap: entries.length },
  };
}
