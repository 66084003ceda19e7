// The per-run summary cache: what the experiment readers (summarize, leaderboard, report,
// compare) compute from a run's records, kept so the next look reads it instead of parsing and
// checking every iteration.jsonl line again. Those readers keep it as an entry of the experiment's
// file (experiment-summary-cache.ts); a run scored alone keeps it in
// `.sweci/runs/<run>/summary-cache.json`, which the experiment's look also reads on a miss.
//
// It also keeps what those readers need of the task itself, so a warm look opens no other file:
// the repository task.json names (the leaderboard's cluster) and the task's batch status
// (`<experiment>/.sweci-batch/<task>.json`: its state and reason).
//
// It is only ever a copy of what the records say, never a record:
//  - its key is the records' own identity: device, inode, size, mtime and ctime of run.json,
//    iteration.jsonl and pending/journal.json, and of task.json and the status file, taken before
//    they are read and again after (a change in between writes no cache). Any write to a record
//    changes its size, mtime or ctime; the harness replaces run.json and the journal by rename (a
//    new inode). A user process can set mtime but not ctime, and a folder copied or unpacked
//    elsewhere has other inodes, so a cache made for other bytes does not match (times in ns);
//  - it names the code that computed it (RUN_SUMMARY_CODE, which a unit test holds to the
//    scoring sources), so another version's numbers are never read as this one's;
//  - it carries the SHA-256 of its body (records/sealed-json.ts), and is checked against its
//    schema when written and when read, by a hand-written check that stands in for the schema
//    (run-summary-cache-check.ts: zod over thousands of caches was most of a warm read's time).
//    It is read without following a link and sized first. Anything else (missing, unreadable,
//    damaged, edited so the digest fails, not the schema's shape, too large, another key) is
//    ignored, the records are read, and the cache written again.
// Only this module writes it (temp file + rename, no fsync: a cache lost in a crash is rebuilt).
import { constants as fsc, closeSync, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { JOURNAL_FILE } from '../loop/journal';
import { sealJson, unsealJson } from '../records/sealed-json';
import { fileIdentity as fileKey } from '../util/file-identity';
import { writeFileAtomicSync } from '../util/fs-atomic';
import { under } from '../workspace/layout';
import type { RunLayout, TaskFolder } from '../workspace/task-folder';
import { isRunSummaryCache } from './run-summary-cache-check';
import { MAX_VARIANTS, runSummaryCacheSchema, type RecordsKey, type RunSummaryCache, type ScoreVariant, type TaskKey } from './run-summary-cache-schema';

export const SUMMARY_CACHE_FILE = 'summary-cache.json';

/** A cache larger than this is not ours: ignored (a run of thousands of iterations stays far below). */
const MAX_CACHE_BYTES = 8 * 1024 * 1024;

export function cacheFile(layout: RunLayout): string {
  return path.join(layout.dir, SUMMARY_CACHE_FILE);
}

/**
 * The task's files' identity now; `statusFile` is the batch status's path, absent outside an
 * experiment. `taskFile`: task.json's identity as the caller's stat just took it (the one that
 * found the task: batch/experiment.ts's experimentTasks), instead of a second stat of it.
 */
export function taskKey(task: TaskFolder, statusFile: string | undefined, taskFile?: string): TaskKey {
  return { task: taskFile ?? fileKey(task.taskFile), status: statusFile === undefined ? null : fileKey(statusFile) };
}

/** The run's records' identity now, with the task's (a missing pending/ is a null journal, not an error). */
export function recordsKey(layout: RunLayout, task: TaskKey): RecordsKey {
  return { run: fileKey(layout.runFile), lines: fileKey(layout.iterationsFile), journal: fileKey(under(layout.pendingDir, JOURNAL_FILE)), ...task };
}

export function sameTaskKey(a: TaskKey, b: TaskKey): boolean {
  return a.task === b.task && a.status === b.status;
}

export function sameKey(a: RecordsKey, b: RecordsKey): boolean {
  return a.run === b.run && a.lines === b.lines && a.journal === b.journal && sameTaskKey(a, b);
}

export function sameVariant(a: ScoreVariant, b: ScoreVariant): boolean {
  return (
    a.maxIterations === b.maxIterations &&
    a.gamma === b.gamma &&
    a.scoring.excludeHarnessTampering === b.scoring.excludeHarnessTampering &&
    a.scoring.scoreTargetTestsOnly === b.scoring.scoreTargetTestsOnly &&
    a.scoring.keepFlagged === b.scoring.keepFlagged
  );
}

/**
 * The run's cache when it holds for `key` (the records as they are now), else undefined: whatever
 * is wrong with it, the caller reads the records instead.
 */
export function readSummaryCache(layout: RunLayout, key: RecordsKey): RunSummaryCache | undefined {
  const text = readSmallFile(cacheFile(layout));
  if (text === undefined) return undefined;
  // Sealed (records/sealed-json.ts) and of the schema's shape (its schema and code included).
  const cache = unsealJson(text, isRunSummaryCache);
  if (cache === undefined || !sameKey(cache.key, key)) return undefined;
  // The name inside must be the folder's: a cache moved from another run is not this run's.
  return cache.base.info.name === layout.run ? cache : undefined;
}

/**
 * Writes the cache whole. The disk refusing (a read-only experiment, a full disk) only costs the
 * next reader a cold read; a cache that fails its own check is a bug, and thrown.
 */
export function writeSummaryCache(layout: RunLayout, cache: RunSummaryCache): void {
  const value = { ...cache, variants: cache.variants.slice(0, MAX_VARIANTS) };
  const text = sealJson(runSummaryCacheSchema, isRunSummaryCache, value, SUMMARY_CACHE_FILE);
  // Synchronous, as the records were read: thousands of small writes, where a promise per step costs more than the write.
  try {
    // The run's folder holds the records just read: no mkdir (a folder gone since fails the write, a cold read next time).
    writeFileAtomicSync(cacheFile(layout), text, { durable: false, mkdir: false });
  } catch (err) {
    if (!(err as NodeJS.ErrnoException).code) throw err;
  }
}

/** Where loadRunScores reads a run's cache and writes it: the run's own file (below), or the experiment's (experiment-summary-cache.ts). */
export interface RunCacheStore {
  read(layout: RunLayout, key: RecordsKey): RunSummaryCache | undefined;
  write(layout: RunLayout, cache: RunSummaryCache): void;
}

export const runCacheFiles: RunCacheStore = { read: readSummaryCache, write: writeSummaryCache };

/** A regular file's text (not a link, a FIFO or a device), at most `max` bytes; undefined for anything else. */
export function readSmallFile(file: string, max = MAX_CACHE_BYTES): string | undefined {
  // An absent cache (every run of a cold read) answered without the exception a failed open throws (most of its cost).
  let fd: number;
  try {
    if (!lstatSync(file, { throwIfNoEntry: false })) return undefined;
    fd = openSync(file, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return undefined;
    const buf = Buffer.alloc(st.size);
    let total = 0;
    while (total < buf.length) {
      const n = readSync(fd, buf, total, buf.length - total, total);
      if (n === 0) break;
      total += n;
    }
    return buf.toString('utf8', 0, total);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
