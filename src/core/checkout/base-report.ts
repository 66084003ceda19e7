// The base's own pytest result, kept apart from the "current" report (which Refresh and the loop
// overwrite): a run's line 0 is the base run, whenever the run is created.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { LastRunRecord } from './report-store';
import type { TestReport } from '../pytest/test-report';
import { writeFileAtomic } from '../util/fs-atomic';
import { ensureHistory, historyGit } from '../workspace/history-store';
import { taskLayout, type TaskRecord } from '../workspace/layout';

export interface BaseRun {
  report: TestReport;
  run: LastRunRecord;
}

function files(taskDir: string): { report: string; run: string; output: string } {
  const dir = taskLayout(taskDir).reportsDir;
  return {
    report: path.join(dir, 'base.report.json'),
    run: path.join(dir, 'base.run.json'),
    output: path.join(dir, 'base.pytest-output.txt'),
  };
}

export function baseOutputFile(taskDir: string): string {
  return files(taskDir).output;
}

export async function loadBaseRun(taskDir: string): Promise<BaseRun | undefined> {
  const f = files(taskDir);
  try {
    const [report, run] = await Promise.all([fs.readFile(f.report, 'utf8'), fs.readFile(f.run, 'utf8')]);
    const parsed = { report: JSON.parse(report) as TestReport, run: JSON.parse(run) as LastRunRecord };
    return Array.isArray(parsed.report?.tests) && parsed.run?.kind === 'ran' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function saveBaseRun(taskDir: string, base: BaseRun, output: string): Promise<void> {
  const f = files(taskDir);
  await writeFileAtomic(f.output, output);
  await writeFileAtomic(f.report, JSON.stringify(base.report));
  // Written last: its presence says the other two are complete.
  await writeFileAtomic(f.run, JSON.stringify(base.run, null, 2));
}

/**
 * True when app/code is exactly the base: HEAD is the base commit and nothing is changed or
 * untracked (pytest's own caches are excluded by the repository). Any git problem: false.
 */
export async function codeIsAtBase(taskDir: string, record: TaskRecord): Promise<boolean> {
  try {
    await ensureHistory(taskDir);
    const git = historyGit(taskDir);
    const head = (await git.raw(['rev-parse', 'HEAD'])).trim();
    if (head !== record.baseCommit) return false;
    return (await git.raw(['status', '--porcelain', '--untracked-files=all'])).trim() === '';
  } catch {
    return false;
  }
}
