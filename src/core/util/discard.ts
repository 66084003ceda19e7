// Emptying a folder without waiting for the deletes: its entries are renamed into a bin folder
// beside it (one rename each), and the bin is deleted in the background. On a slow disk deleting
// pytest's bytecode cache (hundreds of files) takes tens of ms per run; a rename takes microseconds.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Bins being deleted now, by path: a later call leaves them to their deletion. */
const deleting = new Map<string, Promise<void>>();

function deleteInBackground(bin: string): void {
  if (deleting.has(bin)) return;
  const job = fs
    .rm(bin, { recursive: true, force: true })
    .catch(() => undefined)
    .finally(() => deleting.delete(bin));
  deleting.set(bin, job);
}

/**
 * Empties `dir` (made when missing; the folder itself stays, so a container bound to it still sees
 * it). `binRoot` must be on the same file system and out of reach of whatever wrote `dir`'s
 * contents. An entry that cannot be renamed is deleted at once, as before. Bins left by an
 * earlier process are deleted too.
 */
export async function emptyFolder(dir: string, binRoot: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const names = await fs.readdir(dir);
  if (names.length === 0) return;
  await fs.mkdir(binRoot, { recursive: true });
  const bin = path.join(binRoot, `${process.pid}-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(bin);
  await Promise.all(
    names.map(async (name) => {
      try {
        await fs.rename(path.join(dir, name), path.join(bin, name));
      } catch {
        await fs.rm(path.join(dir, name), { recursive: true, force: true });
      }
    }),
  );
  for (const left of await fs.readdir(binRoot)) deleteInBackground(path.join(binRoot, left));
}

/** Waits until every background deletion started so far has finished (tests, shutdown). */
export async function discardsSettled(): Promise<void> {
  while (deleting.size > 0) await Promise.all([...deleting.values()]);
}
