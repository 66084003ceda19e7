// A task's runs as the experiment readers score them (summarize, leaderboard, report, compare):
// the chart's run without its points, and the usage the summary adds, through the per-run
// summary cache (run-summary-cache.ts). The numbers are loadChartRuns's own (same listing, same
// N, same scoring); only where they come from differs: the cache when it holds for the records
// as they are, else the records, read once, after which the cache is written again. The task's
// own facts the readers need (task.json's repository, the batch status) come the same way, so a
// warm look at a task opens its runs' caches and nothing else.
import { readdirSync } from 'node:fs';
import { readTaskStatusFileSync } from '../records/task-status-file';
import type { IterationRecord } from '../loop/iteration-record';
import { readRunSync, type RunInfo } from '../loop/run-store';
import { scoredLines, type ScoringRules } from '../../shared/metrics/scored-line';
import { errorMessage } from '../util/errors';
import type { TaskFolder } from '../workspace/task-folder';
import { readTaskRecordSync } from '../workspace/task-record';
import { scoredChartRun, scoredIterationsOf } from './load-chart-data';
import { recordsKey, runCacheFiles, sameKey, sameTaskKey, sameVariant, taskKey, type RunCacheStore } from './run-summary-cache';
import type { RecordsKey, RunBase, RunSummaryCache, ScoreVariant, ScoredRun, TaskFacts, TaskKey } from './run-summary-cache-schema';
import { RUN_SUMMARY_CODE } from './run-summary-code';
import { lineUsageExtras, type UsageExtras } from './usage-extras';
import { compareStamps } from '../util/stamp-order';

export interface RunScoresOptions {
  /** γ for the metrics rows; default 1. */
  gamma?: number;
  /** N instead of the one derived from the runs. */
  maxIterations?: number;
  scoring?: ScoringRules;
  /** The task's batch status file (experimentLayout(dir).statusFile(id)); absent outside an experiment (no status). */
  statusFile?: string;
  /** task.json's identity as the caller's stat took it just before (batch/experiment.ts's experimentTasks): not stat'ed again. */
  taskFile?: string;
  /** Where the runs' caches are read and written; default each run's own file (an experiment's look passes its cache's: experiment-summary-cache.ts). */
  store?: RunCacheStore;
}

/** One run as scored: the chart's row and series (no points), how many lines it has, and its usage. */
export interface RunScore extends ScoredRun {
  info: RunInfo;
  lines: number;
  usage: UsageExtras;
}

interface TaskRunScores {
  /** N the runs were scored over. */
  maxIterations: number;
  /** Oldest first, as listRuns orders them. */
  runs: RunScore[];
  /** Runs left out: their records cannot be read or scored, and why. */
  skipped: Array<{ run: string; reason: string }>;
  /** The task's repository and batch status, from a cache that holds or read now. */
  task: TaskFacts;
}

/** One run while it is read: what the cache held, or the records read now. */
interface Reading {
  name: string;
  key: RecordsKey;
  base: RunBase;
  cache?: RunSummaryCache;
  /** The lines as recorded (read now); absent when the cache answered. */
  records?: IterationRecord[];
  /** The key held from before the records were read to after: the cache may be written. */
  stable: boolean;
}

/** The task's runs scored (synchronous: see below). */
export function loadRunScores(task: TaskFolder, opts: RunScoresOptions = {}): TaskRunScores {
  const gamma = opts.gamma ?? 1;
  const skipped: TaskRunScores['skipped'] = [];
  const store = opts.store ?? runCacheFiles;
  // The task's files' identity before anything is read: part of every run's key.
  const tkey = taskKey(task, opts.statusFile, opts.taskFile);
  // Synchronous, reads and writes alike: a look is a few small files per task, which a promise
  // each would outweigh (thousands of runs cold took seconds more).
  let names: string[];
  try {
    names = readdirSync(task.runsDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    names = [];
  }
  const readings: Reading[] = [];
  for (const name of names.sort()) {
    try {
      const reading = readBase(task, name, tkey, store);
      if (reading) readings.push(reading);
    } catch (err) {
      skipped.push({ run: name, reason: errorMessage(err) });
    }
  }
  // A cache that held was made from the task's files as they are now; else they are read, and a
  // change while they were read writes no cache.
  let facts = readings.find((r) => r.cache)?.cache?.task;
  let factsStable = true;
  if (!facts) {
    facts = readTaskFacts(task, opts.statusFile);
    factsStable = sameTaskKey(tkey, taskKey(task, opts.statusFile));
  }
  readings.sort((a, b) => compareStamps(a.base.info.created, b.base.info.created) || a.base.info.name.localeCompare(b.base.info.name));
  const maxIterations = opts.maxIterations ?? scoredIterationsOf(readings.map((r) => r.base));
  const variant: ScoreVariant = {
    maxIterations,
    gamma,
    scoring: {
      excludeHarnessTampering: opts.scoring?.excludeHarnessTampering ?? false,
      scoreTargetTestsOnly: opts.scoring?.scoreTargetTestsOnly ?? false,
      keepFlagged: opts.scoring?.keepFlagged ?? false,
    },
  };
  const runs: RunScore[] = [];
  for (const reading of readings) {
    const cached = reading.cache?.variants.find((v) => sameVariant(v.variant, variant))?.run;
    const scoredRun = cached ?? scoreRun(task, reading, variant, tkey, facts, factsStable, store);
    runs.push({ ...scoredRun, info: reading.base.info, lines: reading.base.lines, usage: reading.base.usage });
  }
  return { maxIterations, runs, skipped, task: facts };
}

/** The task's facts, read now: a task.json that does not read as a record is a null task (its reader says why). */
function readTaskFacts(task: TaskFolder, statusFile: string | undefined): TaskFacts {
  let record: { repo: string | null } | null;
  try {
    record = { repo: readTaskRecordSync(task)?.task.repo ?? null };
  } catch {
    record = null;
  }
  const status = statusFile === undefined ? undefined : readTaskStatusFileSync(statusFile);
  return { task: record, status: status ? { state: status.state, ...(status.reason !== undefined ? { reason: status.reason } : {}) } : null };
}

/** The run's base from its cache, or from its records; undefined when the folder holds no run. */
function readBase(task: TaskFolder, name: string, tkey: TaskKey, store: RunCacheStore): Reading | undefined {
  const layout = task.run(name);
  const key = recordsKey(layout, tkey);
  if (key.run === null) return undefined;
  const cache = store.read(layout, key);
  if (cache) return { name, key, base: cache.base, cache, stable: true };
  return readRecords(task, name, key, tkey);
}

/** The run's records, read now, and what the cache keeps of them (whether the task's files held is the caller's to check). */
function readRecords(task: TaskFolder, name: string, key: RecordsKey, tkey: TaskKey): Reading | undefined {
  const run = readRunSync(task, name);
  if (!run) return undefined;
  const stable = sameKey(key, recordsKey(task.run(name), tkey));
  const { summary, records } = run;
  const base: RunBase = { info: summary.info, lines: records.length, pending: summary.pending !== undefined, usage: lineUsageExtras(records) };
  return { name, key, base, records, stable };
}

/**
 * The run scored for `variant` from its lines (read now if the cache answered for the base only);
 * the cache gains the variant, with the task's facts as of `tkey` (`factsStable`: they held while read).
 */
function scoreRun(
  task: TaskFolder,
  reading: Reading,
  variant: ScoreVariant,
  tkey: TaskKey,
  facts: TaskFacts,
  factsStable: boolean,
  store: RunCacheStore,
): ScoredRun {
  let current = reading;
  if (!current.records) {
    const again = readRecords(task, reading.name, recordsKey(task.run(reading.name), tkey), tkey);
    if (!again) throw new Error(`run ${reading.name} was removed while it was read`);
    current = again;
  }
  const lines = scoredLines(current.records!, variant.scoring);
  const run = scoredChartRun(current.base.info, lines, current.base.pending, variant.maxIterations, variant.gamma, variant.scoring);
  if (current.stable && factsStable) {
    // The variants the cache held (checked when it was read) stay when they were made from these same records.
    const prior = reading.cache;
    const kept = prior && sameKey(prior.key, current.key) ? prior.variants.filter((v) => !sameVariant(v.variant, variant)) : [];
    store.write(task.run(reading.name), {
      schema: 1,
      code: RUN_SUMMARY_CODE,
      key: current.key,
      base: current.base,
      task: facts,
      variants: [{ variant, run }, ...kept],
    });
  }
  return run;
}
