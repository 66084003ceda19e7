// The experiment's summary cache: `<experiment>/.sweci-summaries.json`, every task's runs'
// summary caches (run-summary-cache.ts) in one file, so a warm look at an experiment reads one
// file, checks one digest and parses once, where the runs' own caches cost a file, a digest and
// a parse each (at the paper's scale 1,800 of each were most of a warm read).
//
// Each run's entry is exactly a run's summary cache, held to the same rules: checked by the same
// hand-written check (schema, code), used only when its key is the records' identity as they are
// now (taken by run-scores.ts before it reads them) and its name is the run folder's. So an entry
// can no more stand for other bytes than a run's own cache can; the file as a whole carries the
// SHA-256 of its body (records/sealed-json.ts), its own code, and is read without following a
// link and sized first. Anything wrong with it costs a cold read, never a score: a bad file is
// read as empty, a bad entry as absent.
//
// When an entry does not hold, the run's own cache file is tried (a run read alone writes one),
// then the records; what was computed goes into this file only, which is written once at the end
// of the look, and only when it differs from what was read: an experiment's look writes no run's
// own cache (at the paper's scale 1,800 sealed writes were a fifth of a cold look). Only this
// module writes it (temp file + rename, no fsync). One look opens it once: the leaderboard asks it
// whether an experiment holds a run (`entry`) before it summarizes with the same cache.
import * as path from 'node:path';
import { z } from 'zod';
import { arrayOf, literal, object, req, str } from '../records/plain-check';
import { sealJson, unsealJson } from '../records/sealed-json';
import { writeFileAtomicSync } from '../util/fs-atomic';
import type { RunLayout } from '../workspace/task-folder';
import { isRunSummaryCache } from './run-summary-cache-check';
import { readSummaryCache, readSmallFile, sameKey, type RunCacheStore } from './run-summary-cache';
import { runSummaryCacheSchema, type RecordsKey, type RunSummaryCache } from './run-summary-cache-schema';
import { RUN_SUMMARY_CODE } from './run-summary-code';

export const EXPERIMENT_CACHE_FILE = '.sweci-summaries.json';

/** Far above any experiment's (100 tasks of two runs are about 350 KiB); a larger file is not ours. */
const MAX_BYTES = 256 * 1024 * 1024;

const experimentCacheSchema = z.object({
  schema: z.literal(1),
  code: z.literal(RUN_SUMMARY_CODE),
  /** By task folder name, each task's runs' caches (by run name). */
  tasks: z.array(z.object({ task: z.string(), runs: z.array(runSummaryCacheSchema) })),
});
export type ExperimentSummaryCache = z.infer<typeof experimentCacheSchema>;

const isExperimentCache = object({
  schema: req(literal(1)),
  code: req(literal(RUN_SUMMARY_CODE)),
  tasks: req(arrayOf(object({ task: req(str), runs: req(arrayOf(isRunSummaryCache)) }))),
}) as (v: unknown) => v is ExperimentSummaryCache;

function experimentCacheFile(experimentDir: string): string {
  return path.join(experimentDir, EXPERIMENT_CACHE_FILE);
}

/** One look at an experiment: each task's store for loadRunScores, then `save` once. */
export interface ExperimentCache {
  store(taskId: string): RunCacheStore;
  /** The run's entry when its key is `key` (the records as they are now), else undefined; the look's use of the file is unchanged. */
  entry(taskId: string, run: string, key: RecordsKey): RunSummaryCache | undefined;
  /** Writes the file when what this look used differs from what it read (the disk refusing is no error). */
  save(): void;
}

/** The experiment's cache as `looks` (one look's, by folder) holds it, opened there the first time it is asked for. */
export function lookCache(looks: Map<string, ExperimentCache>, experimentDir: string): ExperimentCache {
  const dir = path.resolve(experimentDir);
  let cache = looks.get(dir);
  if (!cache) looks.set(dir, (cache = openExperimentCache(dir)));
  return cache;
}

/** The experiment's cache as it is on disk (empty when absent or not one this code wrote). */
export function openExperimentCache(experimentDir: string): ExperimentCache {
  const file = experimentCacheFile(experimentDir);
  const text = readSmallFile(file, MAX_BYTES);
  const read = text === undefined ? undefined : unsealJson(text, isExperimentCache);
  const held = new Map<string, Map<string, RunSummaryCache>>();
  let heldRuns = 0;
  for (const t of read?.tasks ?? []) {
    const runs = new Map<string, RunSummaryCache>();
    for (const r of t.runs) runs.set(r.base.info.name, r);
    held.set(t.task, runs);
    heldRuns += t.runs.length;
  }
  // What this look used or wrote, by task; `changed`: it is not just the entries read.
  const used = new Map<string, Map<string, RunSummaryCache>>();
  let changed = read === undefined;
  return {
    store(taskId: string): RunCacheStore {
      const mine = held.get(taskId);
      let kept = used.get(taskId);
      if (!kept) used.set(taskId, (kept = new Map<string, RunSummaryCache>()));
      const keep = kept;
      return {
        read(layout: RunLayout, key: RecordsKey): RunSummaryCache | undefined {
          const entry = mine?.get(layout.run);
          if (entry && sameKey(entry.key, key)) {
            keep.set(layout.run, entry);
            return entry;
          }
          const own = readSummaryCache(layout, key);
          if (own) {
            keep.set(layout.run, own);
            changed = true;
          }
          return own;
        },
        write(layout: RunLayout, cache: RunSummaryCache): void {
          keep.set(layout.run, cache);
          changed = true;
        },
      };
    },
    entry(taskId: string, run: string, key: RecordsKey): RunSummaryCache | undefined {
      const entry = held.get(taskId)?.get(run);
      return entry && sameKey(entry.key, key) ? entry : undefined;
    },
    save(): void {
      // Entries read but not used (a run or a task gone, a key that no longer holds) are dropped;
      // a look that used every entry as read and no other (every warm look) writes nothing.
      let usedRuns = 0;
      for (const runs of used.values()) usedRuns += runs.size;
      if (!changed && usedRuns === heldRuns) return;
      // By task as looked at, each task's runs by name: the same caches make the same file.
      const tasks = [...used]
        .filter(([, runs]) => runs.size > 0)
        .map(([task, runs]) => ({ task, runs: [...runs.keys()].sort().map((name) => runs.get(name)!) }));
      const value: ExperimentSummaryCache = { schema: 1, code: RUN_SUMMARY_CODE, tasks };
      const body = sealJson(experimentCacheSchema, isExperimentCache, value, EXPERIMENT_CACHE_FILE);
      try {
        writeFileAtomicSync(file, body, { durable: false, mkdir: false });
      } catch (err) {
        if (!(err as NodeJS.ErrnoException).code) throw err;
      }
    },
  };
}
