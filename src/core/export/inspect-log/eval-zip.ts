// An Inspect log's `.eval` file: a zip of JSON members, deflated (Inspect's recorder,
// log/_recorders/eval.py, writes _journal/start.json first, then samples/<id>_epoch_<n>.json,
// summaries.json, reductions.json, and header.json last). Written by deflated-zip.ts into a temp
// file beside the target; `commit` renames it into place, so a reader never sees half a log, and
// `discard` leaves nothing behind.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DeflatedZipWriter } from './deflated-zip';

export interface PendingFile {
  file: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** A member's name and its JSON value, in the order they go into the zip. */
export type EvalMember = readonly [name: string, value: unknown];

/** Inspect's name for a sample's member. */
export function sampleMemberName(id: string, epoch: number): string {
  return `samples/${id}_epoch_${epoch}.json`;
}

/**
 * Writes the members into a temp file next to `file`. `members` is iterated lazily: a sample is
 * turned into JSON and compressed before the next is made, so a log is never held whole.
 */
export async function writeEvalZip(file: string, members: AsyncIterable<EvalMember>, mtime: Date): Promise<PendingFile> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const discard = () => fs.rm(tmp, { force: true });
  const handle = await fs.open(tmp, 'wx');
  try {
    const zip = new DeflatedZipWriter(handle, mtime);
    for await (const [name, value] of members) await zip.add(name, Buffer.from(JSON.stringify(value), 'utf8'));
    await zip.finish();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await discard();
    throw err;
  }
  try {
    await handle.close();
  } catch (err) {
    await discard();
    throw err;
  }
  return { file, commit: () => fs.rename(tmp, file), discard };
}
