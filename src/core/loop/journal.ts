// The step journal of the iteration in progress (runs/<run>/pending/journal.json). Each
// completed step is written here before the next starts, so after a cancel, a crash or a
// window reload the iteration continues from its last completed step. The journal is never
// read as a result: only iteration.jsonl is.
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';
import { iterationRecordSchema, roleStepRecordSchema } from './iteration-record';

const pendingStep = z.enum(['architect', 'programmer', 'pytest']);
export type PendingStep = z.infer<typeof pendingStep>;

const stepDoneSchema = z.object({
  record: roleStepRecordSchema,
  /** Paths outside app/code this step changed (relative to the task folder). */
  outside: z.array(z.string()),
  /** Files under tests/ this step changed. */
  tampered: z.array(z.string()),
});
export type StepDone = z.infer<typeof stepDoneSchema>;

export const journalSchema = z.object({
  schema: z.literal(1),
  run: z.string(),
  iteration: z.number().int().nonnegative(),
  started_at: z.string(),
  /** app/code commit the iteration starts from (the previous iteration's). */
  startCommit: z.string(),
  /** Steps that have started at least once (a restarted step knows it was interrupted). */
  begun: z.array(z.enum(['architect', 'programmer'])).optional(),
  architect: stepDoneSchema.optional(),
  programmer: stepDoneSchema.optional(),
  /** Set once the iteration commit exists, so a resumed iteration never commits twice. */
  commit: z.string().optional(),
  /** Files left out of that commit for their size. */
  oversized: z.array(z.string()).optional(),
  /** The finished line, written once every archive file is in place; archived, then appended. */
  result: iterationRecordSchema.optional(),
  lastCompletedStep: pendingStep.optional(),
});
export type Journal = z.infer<typeof journalSchema>;

// Written atomically, so a damaged journal is not a crash leftover but damage: it reads as
// absent and the iteration's steps start over.
const journalRecord = jsonRecordFile({ schema: journalSchema, whenDamaged: 'The iteration starts over.', onDamage: 'missing' });

export const JOURNAL_FILE = 'journal.json';

export function journalFile(dir: string): string {
  return path.join(dir, JOURNAL_FILE);
}

export async function readJournal(dir: string): Promise<Journal | undefined> {
  return journalRecord.read(journalFile(dir));
}

export function readJournalSync(dir: string): Journal | undefined {
  return journalRecord.readSync(journalFile(dir));
}

export async function writeJournal(dir: string, journal: Journal): Promise<void> {
  journal.lastCompletedStep = journal.result ? 'pytest' : journal.programmer ? 'programmer' : journal.architect ? 'architect' : undefined;
  await journalRecord.write(journalFile(dir), journal);
}
