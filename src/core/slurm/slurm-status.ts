// `sweci slurm status`: each task as the experiment records it (.sweci-batch), beside its
// element in the last array that ran it, as Slurm sees it.
import { FINISHED_STATES, type TaskStatus } from '../records/task-status-file';
import { plural } from '../util/plural';
import { shellQuote } from '../util/shell-quote';
import type { Submission } from './slurm-folder';
import type { SlurmElement } from './slurm-jobs';

export interface SlurmTaskRow {
  task: string;
  /** The task's state in .sweci-batch; `not started` when it has none. */
  state: string;
  finished: boolean;
  iterations?: number;
  reason?: string;
  /** Its element in the last array that holds it, and what Slurm says of it (none once Slurm forgot it). */
  slurm?: { element: string; state?: string; node?: string; restarts?: number; reason?: string };
}

export interface SlurmStatus {
  jobs: { name: string; job: string; submitted: string; tasks: number }[];
  tasks: SlurmTaskRow[];
  /** The command that submits what is unfinished; none when every task is finished. */
  resubmit?: string;
  /** Unfinished tasks whose element Slurm still runs or will run (pending, requeued): a resubmission now would find them busy. */
  live: number;
}

/** Slurm states of an element that has not ended (it will run, or runs, the task). */
const LIVE_STATES = new Set([
  'PENDING',
  'RUNNING',
  'REQUEUED',
  'REQUEUE_HOLD',
  'REQUEUE_FED',
  'RESIZING',
  'SUSPENDED',
  'CONFIGURING',
  'COMPLETING',
  'STOPPED',
  'SIGNALING',
]);

export function slurmStatus(submissions: readonly Submission[], statuses: ReadonlyMap<string, TaskStatus>, elements: readonly SlurmElement[]): SlurmStatus {
  const ids: string[] = [];
  const lastArray = new Map<string, { submission: Submission; index: number }>();
  for (const submission of submissions) {
    submission.tasks.forEach((task, index) => {
      if (!lastArray.has(task)) ids.push(task);
      lastArray.set(task, { submission, index });
    });
  }
  for (const task of [...statuses.keys()].sort()) if (!lastArray.has(task)) ids.push(task);
  const byId = new Map(elements.map((e) => [e.id, e]));
  const tasks = ids.map((task): SlurmTaskRow => {
    const status = statuses.get(task);
    const at = lastArray.get(task);
    const element = at ? byId.get(`${at.submission.job}_${at.index}`) : undefined;
    return {
      task,
      state: status?.state ?? 'not started',
      finished: !!status && FINISHED_STATES.includes(status.state),
      ...(status?.iterations !== undefined ? { iterations: status.iterations } : {}),
      ...(status?.reason ? { reason: status.reason } : {}),
      ...(at
        ? {
            slurm: {
              element: `${at.submission.job}_${at.index}`,
              ...(element
                ? {
                    state: element.state,
                    restarts: element.restarts,
                    ...(element.node ? { node: element.node } : {}),
                    ...(element.reason ? { reason: element.reason } : {}),
                  }
                : {}),
            },
          }
        : {}),
    };
  });
  const last = submissions[submissions.length - 1];
  const unfinished = tasks.some((t) => !t.finished);
  const live = tasks.filter((t) => !t.finished && t.slurm?.state !== undefined && LIVE_STATES.has(t.slurm.state)).length;
  return {
    jobs: submissions.map((s) => ({ name: s.name, job: s.job, submitted: s.submitted, tasks: s.tasks.length })),
    tasks,
    ...(last && unfinished
      ? { resubmit: `cd ${shellQuote(last.workDir)} && ${[...last.command, '--only-unfinished', '--submit'].map(shellQuote).join(' ')}` }
      : {}),
    live,
  };
}

/** The status as a table for a terminal. */
export function slurmStatusText(status: SlurmStatus, experimentDir: string): string {
  if (status.jobs.length === 0) return `${experimentDir} has no submitted Slurm array: submit one with sweci slurm ... --submit.\n`;
  const rows = status.tasks.map((t) => [
    t.task,
    t.state,
    t.iterations !== undefined ? String(t.iterations) : '',
    t.slurm?.element ?? '',
    t.slurm ? (t.slurm.state ?? 'ended') : '',
    t.slurm?.node ?? '',
    t.slurm?.restarts !== undefined ? String(t.slurm.restarts) : '',
    [t.reason, t.slurm?.reason].filter(Boolean).join('; '),
  ]);
  const head = ['task', 'state', 'iter', 'element', 'slurm', 'node', 'requeued', 'reason'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const finished = status.tasks.filter((t) => t.finished).length;
  return [
    `arrays: ${status.jobs.map((j) => `${j.job} (${j.name}, ${plural(j.tasks, 'task')})`).join(', ')}`,
    '',
    line(head),
    ...rows.map(line),
    '',
    `${finished}/${status.tasks.length} finished`,
    ...(status.live > 0 ? [`${plural(status.live, 'unfinished task')} still pending or running in Slurm: resubmit once they end (or after scancel)`] : []),
    status.resubmit ? `resubmit what is unfinished: ${status.resubmit}` : 'every task is finished',
    '',
  ].join('\n');
}
