// The Slurm side of `sweci slurm`: what the batch script asks the scheduler for, read from the
// flags and checked here, so that a bad value is refused before anything is written.
import { UserError } from '../util/errors';

/** The flags as the command line gives them. */
export interface SbatchFlags {
  partition?: string;
  time?: string;
  cpusPerTask?: string;
  mem?: string;
  maxParallel?: string;
  account?: string;
  sbatchArg?: string[];
  grace?: string;
}

export interface SbatchOptions {
  partition?: string;
  /** The time limit as given (a Slurm time) and in seconds. */
  time?: { text: string; seconds: number };
  cpusPerTask?: number;
  /** Memory per node as Slurm reads it: a number, megabytes unless K, M, G or T follows. */
  mem?: string;
  /** Elements at once (the array's %K); none: as many as the scheduler gives. */
  maxParallel?: number;
  account?: string;
  /** More sbatch options, one `--name=value` each, written as they are. */
  extra: string[];
  /** Seconds before the time limit that SIGTERM comes: the step's time to stop cleanly. */
  graceSeconds: number;
}

/**
 * The default grace. Stopping a step is quick (its processes are killed at once, its container
 * with them, and nothing half-done is written), a few seconds here; two minutes leaves room
 * for a loaded node, a container engine slow to remove a container and a slow shared folder,
 * and costs little of a time limit of hours.
 */
export const DEFAULT_GRACE_SECONDS = 120;

/** Slurm's own limit on the warning's time (a 16-bit field). */
const MAX_GRACE_SECONDS = 65535;

/** The options the script sets itself, with why: an --sbatch-arg may not set them again. */
const SET_BY_SWECI: Record<string, string> = {
  array: 'the array is the selected tasks (--max-parallel sets its throttle)',
  output: 'each element logs to <experiment>/slurm/logs/',
  error: 'each element logs to <experiment>/slurm/logs/',
  'open-mode': 'a requeued element appends to its log',
  signal: 'SIGTERM comes --grace seconds before the time limit',
  requeue: 'elements are requeued',
  'no-requeue': 'a preempted element must be requeued',
  chdir: 'the script runs where sweci slurm ran',
  wrap: 'the script is the job',
  partition: 'use --partition',
  time: 'use --time',
  'cpus-per-task': 'use --cpus-per-task',
  mem: 'use --mem',
  account: 'use --account',
};

export function readSbatchOptions(flags: SbatchFlags): SbatchOptions {
  const time = flags.time === undefined ? undefined : { text: flags.time, seconds: slurmTimeSeconds(flags.time) };
  const graceSeconds = flags.grace === undefined ? DEFAULT_GRACE_SECONDS : wholeNumber(flags.grace, '--grace', 1, MAX_GRACE_SECONDS);
  if (time && graceSeconds >= time.seconds) {
    throw new UserError(
      `--grace ${graceSeconds} (seconds) must be shorter than --time ${time.text} (${time.seconds} s): SIGTERM comes that long before the limit. Give a longer --time or a shorter --grace.`,
    );
  }
  return {
    ...(flags.partition !== undefined ? { partition: slurmName(flags.partition, '--partition', true) } : {}),
    ...(time ? { time } : {}),
    ...(flags.cpusPerTask !== undefined ? { cpusPerTask: wholeNumber(flags.cpusPerTask, '--cpus-per-task', 1) } : {}),
    ...(flags.mem !== undefined ? { mem: memory(flags.mem) } : {}),
    ...(flags.maxParallel !== undefined ? { maxParallel: wholeNumber(flags.maxParallel, '--max-parallel', 1) } : {}),
    ...(flags.account !== undefined ? { account: slurmName(flags.account, '--account', false) } : {}),
    extra: (flags.sbatchArg ?? []).map(extraArg),
    graceSeconds,
  };
}

/**
 * A Slurm time limit in seconds. Slurm's forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S; with a
 * day, hours are below 24; after the first field, minutes and seconds below 60.
 */
function slurmTimeSeconds(text: string): number {
  const bad = (why: string) =>
    new UserError(`--time "${text}" ${why}: give D-HH:MM:SS (e.g. 1-00:00:00 for a day, 0-04:30:00), HH:MM:SS or minutes, as sbatch --time takes it.`);
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text.trim());
  if (!m) throw bad('is not a Slurm time');
  const [, d, a, b, c] = m;
  const n = (s: string | undefined) => (s === undefined ? undefined : Number(s));
  let seconds: number;
  if (d !== undefined) {
    // D-H, D-H:M, D-H:M:S
    const [hours, minutes, secs] = [n(a)!, n(b) ?? 0, n(c) ?? 0];
    if (hours >= 24 || minutes >= 60 || secs >= 60) throw bad('has a field out of range');
    seconds = ((n(d)! * 24 + hours) * 60 + minutes) * 60 + secs;
  } else if (c !== undefined) {
    // H:M:S
    if (n(b)! >= 60 || n(c)! >= 60) throw bad('has a field out of range');
    seconds = (n(a)! * 60 + n(b)!) * 60 + n(c)!;
  } else if (b !== undefined) {
    // M:S
    if (n(b)! >= 60) throw bad('has a field out of range');
    seconds = n(a)! * 60 + n(b)!;
  } else {
    seconds = n(a)! * 60;
  }
  if (seconds <= 0) throw bad('is no time at all');
  return seconds;
}

function wholeNumber(text: string, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(v) || v < min || v > max) {
    throw new UserError(`${flag} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, not "${text}".`);
  }
  return v;
}

function memory(text: string): string {
  if (!/^\d+[KMGT]?$/i.test(text) || Number(/^\d+/.exec(text)![0]) <= 0) {
    throw new UserError(`--mem must be an amount of memory per node as sbatch takes it, e.g. 8G or 16000 (megabytes), not "${text}".`);
  }
  return text.toUpperCase();
}

/** A partition (a comma list of them when `list`) or an account: Slurm names, no spaces. */
function slurmName(text: string, flag: string, list: boolean): string {
  const name = list ? /^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/ : /^[A-Za-z0-9_.-]+$/;
  if (!name.test(text))
    throw new UserError(`${flag} must be a Slurm name${list ? ' (or names separated by commas)' : ''}, letters, digits, _ . -, not "${text}".`);
  return text;
}

/** One sbatch option for the script's header, e.g. --qos=high or --constraint=avx2. */
function extraArg(arg: string): string {
  if (!/^--[A-Za-z][A-Za-z0-9-]*(=\S+)?$/.test(arg)) {
    throw new UserError(
      `--sbatch-arg "${arg}" is not one long sbatch option: give one per --sbatch-arg, as --name=value without spaces, e.g. --sbatch-arg=--qos=high.`,
    );
  }
  const name = /^--([^=]+)/.exec(arg)![1];
  const why = SET_BY_SWECI[name];
  if (why) throw new UserError(`--sbatch-arg ${arg}: sweci slurm sets --${name} itself (${why}).`);
  return arg;
}
