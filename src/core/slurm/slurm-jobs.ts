// What Slurm says of an array's elements, read from `scontrol -o show job <array id>` (one line
// per record; accounting, sacct, is often off, and squeue says nothing of requeues). Pending
// elements the scheduler has not split off yet share one record: ArrayTaskId=3-7%2.
import { execFile } from 'node:child_process';
import { UserError } from '../util/errors';

export interface SlurmElement {
  /** The element's own job id, e.g. 123_4 as `<array>_<index>`. */
  id: string;
  arrayJob: string;
  index: number;
  /** RUNNING, PENDING, COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL, REQUEUED, … */
  state: string;
  /** Why it waits or ended (Resources, Priority, BeginTime, NonZeroExitCode, …); none when None. */
  reason?: string;
  /** The node it runs or ran on. */
  node?: string;
  /** Times Slurm started it again (requeues). */
  restarts: number;
}

/** The elements of `scontrol -o show job` output, one per array index. */
function parseScontrolJobs(text: string): SlurmElement[] {
  const elements: SlurmElement[] = [];
  for (const line of text.split('\n')) {
    const field = (key: string) => new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(line)?.[1];
    const arrayJob = field('ArrayJobId');
    const indices = field('ArrayTaskId');
    const state = field('JobState');
    if (!arrayJob || indices === undefined || !state) continue;
    const reason = field('Reason');
    const node = field('NodeList');
    for (const index of arrayIndices(indices)) {
      elements.push({
        id: `${arrayJob}_${index}`,
        arrayJob,
        index,
        state,
        ...(reason && reason !== 'None' ? { reason } : {}),
        ...(node && node !== '(null)' ? { node } : {}),
        restarts: Number(field('Restarts') ?? '0') || 0,
      });
    }
  }
  return elements;
}

/** "4", "0-7%2", "1,3-5" → the indices. */
function arrayIndices(text: string): number[] {
  const out: number[] = [];
  for (const part of text.replace(/%\d+$/, '').split(',')) {
    const m = /^(\d+)(?:-(\d+))?(?::(\d+))?$/.exec(part);
    if (!m) continue;
    const [from, to, step] = [Number(m[1]), Number(m[2] ?? m[1]), Number(m[3] ?? '1')];
    for (let i = from; i <= to; i += step) out.push(i);
  }
  return out;
}

/**
 * The elements Slurm still knows of each array (finished ones stay for MinJobAge, 5 minutes by
 * default). An array Slurm has forgotten gives none; scontrol missing is an error that says so.
 */
export async function querySlurmJobs(arrayJobs: readonly string[]): Promise<SlurmElement[]> {
  const all: SlurmElement[] = [];
  for (const job of arrayJobs) {
    const { stdout, stderr, missing } = await scontrol(['-o', 'show', 'job', job]);
    if (missing) throw new UserError('scontrol is not on the PATH: run sweci slurm status on a machine of the cluster (its login node).');
    if (/Invalid job id/i.test(stderr)) continue;
    all.push(...parseScontrolJobs(stdout).filter((e) => e.arrayJob === job));
  }
  return all;
}

function scontrol(args: string[]): Promise<{ stdout: string; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile('scontrol', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ stdout, stderr, missing: (err as NodeJS.ErrnoException | null)?.code === 'ENOENT' });
    });
  });
}
