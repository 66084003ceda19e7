// A task's runs as the experiment readers score them (summarize, leaderboard, report, compare):
// the chart's run without its points, and the usage the summary adds, through the per-run
// summary cache (run-summary-cache.ts). The numbers are loadChartRuns's own (same listing, same
// N, same scoring); only where they come from differs: the cache when it holds for the records
// as they are, else the records, read once, after which the cache is written again.
import { promises as fs } from 'node:fs';
import type { IterationRecord } from '../loop/iteration-record';
import { readRun, type RunInfo } from '../loop/run-store';
import { scoredLines, type ScoringRules } from '../metrics/scored-line';
import { errorMessage } from '../util/errors';
import type { TaskFolder } from '../workspace/task-folder';
import { chartRun, scoredIterationsOf } from './load-chart-data';
import {
  readSummaryCache,
  recordsKey,
  sameKey,
  sameVariant,
  writeSummaryCache,
  type RecordsKey,
  type RunBase,
  type RunSummaryCache,
  type ScoreVariant,
  type ScoredRun,
} from './run-summary-cache';
import { RUN_SUMMARY_CODE } from './run-summary-code';
import { lineUsageExtras, type UsageExtras } from './usage-extras';

export interface RunScoresOptions {
  /** γ for the metrics rows; default 1. */
  gamma?: number;
  /** N instead of the one derived from the runs. */
  maxIterations?: number;
  scoring?: ScoringRules;
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

export async function loadRunScores(task: TaskFolder, opts: RunScoresOptions = {}): Promise<TaskRunScores> {
  const gamma = opts.gamma ?? 1;
  const skipped: TaskRunScores['skipped'] = [];
  let names: string[];
  try {
    names = await fs.readdir(task.runsDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    names = [];
  }
  const readings: Reading[] = [];
  for (const name of names.sort()) {
    try {
      const reading = await readBase(task, name);
      if (reading) readings.push(reading);
    } catch (err) {
      skipped.push({ run: name, reason: errorMessage(err) });
    }
  }
  readings.sort((a, b) => a.base.info.created.localeCompare(b.base.info.created) || a.base.info.name.localeCompare(b.base.info.name));
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
    const scoredRun = cached ?? (await scoreRun(task, reading, variant));
    runs.push({ ...scoredRun, info: reading.base.info, lines: reading.base.lines, usage: reading.base.usage });
  }
  return { maxIterations, runs, skipped };
}

/** The run's base from its cache, or from its records; undefined when the folder holds no run. */
async function readBase(task: TaskFolder, name: string): Promise<Reading | undefined> {
  const layout = task.run(name);
  const key = recordsKey(layout);
  if (key.run === null) return undefined;
  const cache = readSummaryCache(layout, key);
  if (cache) return { name, key, base: cache.base, cache, stable: true };
  return readRecords(task, name, key);
}

/** The run's records, read now, and what the cache keeps of them. */
async function readRecords(task: TaskFolder, name: string, key: RecordsKey): Promise<Reading | undefined> {
  const run = await readRun(task, name);
  if (!run) return undefined;
  const stable = sameKey(key, recordsKey(task.run(name)));
  const { summary, records } = run;
  const base: RunBase = { info: summary.info, lines: records.length, pending: summary.pending !== undefined, usage: lineUsageExtras(records) };
  return { name, key, base, records, stable };
}

/** The run scored for `variant` from its lines (read now if the cache answered for the base only); the cache gains the variant. */
async function scoreRun(task: TaskFolder, reading: Reading, variant: ScoreVariant): Promise<ScoredRun> {
  let current = reading;
  if (!current.records) {
    const again = await readRecords(task, reading.name, recordsKey(task.run(reading.name)));
    if (!again) throw new Error(`run ${reading.name} was removed while it was read`);
    current = again;
  }
  const lines = scoredLines(current.records!, variant.scoring);
  const { points: _points, ...run } = chartRun(current.base.info, lines, current.base.pending, variant.maxIterations, variant.gamma, variant.scoring);
  if (current.stable) {
    // The variants the cache held stay when they were made from these same records.
    const prior = reading.cache;
    const kept = prior && sameKey(prior.key, current.key) ? prior.variants.filter((v) => !sameVariant(v.variant, variant)) : [];
    await writeSummaryCache(task.run(reading.name), {
      schema: 1,
      code: RUN_SUMMARY_CODE,
      key: current.key,
      base: current.base,
      variants: [{ variant, run }, ...kept],
    });
  }
  return run;
}
