// Where an iteration's code lives: a loop run's commits are in the task's history store; a
// human-history replay's are upstream commits, in the oracle's clone. Views diff and compare
// iterations through this, so a replay and an agent run are read the same way.
import { readIterationRecords, type IterationRecord } from '../loop/iteration-record';
import { readRunInfo, type RunInfo } from '../loop/run-store';
import { UserError } from '../util/errors';
import { oracleLayout } from '../workspace/layout';
import { readTaskRecord } from '../workspace/task-record';
import type { TaskFolder } from '../workspace/task-folder';

/** One tree of code: a commit in a git directory. */
export interface Revision {
  gitDir: string;
  commit: string;
  /** 'history': app/code's store; 'upstream': the oracle's clone (a replay's commits). */
  store: 'history' | 'upstream';
  /** How views name it, e.g. `agent-1 #3` or `human-history base`. */
  label: string;
  run: string;
  iteration: number;
}

export interface RunRevisions {
  info: RunInfo;
  records: IterationRecord[];
  gitDir: string;
  store: Revision['store'];
}

export function revisionLabel(run: string, iteration: number): string {
  return `${run} ${iteration === 0 ? 'base' : `#${iteration}`}`;
}

/** The run's records and the git directory holding its commits. */
export async function runRevisions(task: TaskFolder, run: string): Promise<RunRevisions> {
  const info = await readRunInfo(task, run);
  if (!info) throw new UserError(`There is no run "${run}" in ${task.root}.`);
  const records = await readIterationRecords(task.run(run).iterationsFile);
  if (info.kind !== 'human-history') return { info, records, gitDir: task.historyDir, store: 'history' };
  const record = await readTaskRecord(task);
  if (!record) throw new UserError(`${task.root} is not a SWE-CI task folder (no .sweci/task.json).`);
  return { info, records, gitDir: oracleLayout(record.oracleDir).upstreamDir, store: 'upstream' };
}

/** The revision of one iteration, and of the iteration before it in the same run (none for the base). */
export async function iterationRevision(task: TaskFolder, run: string, iteration: number): Promise<{ revision: Revision; previous?: Revision }> {
  const revs = await runRevisions(task, run);
  const i = revs.records.findIndex((r) => r.iteration === iteration);
  if (i < 0) throw new UserError(`Run ${run} has no iteration ${iteration}.`);
  const at = (r: IterationRecord): Revision => ({
    ...checkedCommit(r, task),
    gitDir: revs.gitDir,
    store: revs.store,
    label: revisionLabel(run, r.iteration),
    run,
    iteration: r.iteration,
  });
  return { revision: at(revs.records[i]), previous: i > 0 ? at(revs.records[i - 1]) : undefined };
}

/**
 * The record's commit, refused unless it is a hex object id: it goes on git's command line, and
 * an unisolated run's records are only as trustworthy as the code that could write them.
 */
function checkedCommit(r: IterationRecord, task: TaskFolder): { commit: string } {
  if (typeof r.commit !== 'string' || !/^[0-9a-f]{7,64}$/.test(r.commit)) {
    throw new UserError(`Iteration ${r.iteration} of run ${r.run} in ${task.root} records no valid commit (${JSON.stringify(r.commit)}).`);
  }
  return { commit: r.commit };
}
