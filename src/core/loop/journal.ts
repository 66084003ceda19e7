// The step journal of the iteration in progress (runs/<run>/pending/journal.json). Each
// completed step is written here before the next starts, so after a cancel, a crash or a
// window reload the iteration continues from its last completed step. The journal is never
// read as a result: only iteration.jsonl is.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeJsonAtomic } from '../util/fs-atomic';
import type { IterationRecord, RoleStepRecord } from './iteration-record';

export type PendingStep = 'architect' | 'programmer' | 'pytest';

export interface StepDone {
  record: RoleStepRecord;
  /** Paths outside app/code this step changed (relative to the task folder). */
  outside: string[];
  /** Files under tests/ this step changed. */
  tampered: string[];
}

export interface Journal {
  schema: 1;
  run: string;
  iteration: number;
  started_at: string;
  /** app/code commit the iteration starts from (the previous iteration's). */
  startCommit: string;
  /** Steps that have started at least once (a restarted step knows it was interrupted). */
  begun?: Array<'architect' | 'programmer'>;
  architect?: StepDone;
  programmer?: StepDone;
  /** Set once the iteration commit exists, so a resumed iteration never commits twice. */
  commit?: string;
  /** Files left out of that commit for their size. */
  oversized?: string[];
  /** The finished line, written once every archive file is in place; archived, then appended. */
  result?: IterationRecord;
  lastCompletedStep?: PendingStep;
}

export const JOURNAL_FILE = 'journal.json';

export function journalFile(dir: string): string {
  return path.join(dir, JOURNAL_FILE);
}

export async function readJournal(dir: string): Promise<Journal | undefined> {
  let text: string;
  try {
    text = await fs.readFile(journalFile(dir), 'utf8');
  } catch (err) {
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw err;
  }
  try {
    const j = JSON.parse(text) as Journal;
    return j && j.schema === 1 && typeof j.iteration === 'number' ? j : undefined;
  } catch {
    // Written atomically, so this is not a crash leftover but damage: start the step over.
    return undefined;
  }
}

export async function writeJournal(dir: string, journal: Journal): Promise<void> {
  journal.lastCompletedStep = journal.result ? 'pytest' : journal.programmer ? 'programmer' : journal.architect ? 'architect' : undefined;
  await writeJsonAtomic(journalFile(dir), journal);
}
