// Emptying a folder without waiting for the deletes: its entries are renamed into a bin folder
// beside it (one rename each), and the bin is deleted in the background. On a slow disk deleting
// pytest's bytecode cache (hundreds of files) takes tens of ms per run; a rename takes microseconds.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Bins being deleted or waiting for it, by path: a later call leaves them to their deletion. */
const deleting = new Set<string>();
/** Bins waiting, deleted one after another by one chain of calls. */
const queue: string[] = [];
let draining = false;

function deleteInBackground(bin: string): void {
  if (deleting.has(bin)) return;
  deleting.add(bin);
  queue.push(bin);
  if (!draining) void drain();
}

async function drain(): Promise<void> {
  draining = true;
  try {
    for (let bin = queue.shift(); bin !== undefined; bin = queue.shift()) {
      // What the one-at-a-time walk could not remove (a folder it may not list) goes the old way.
      await removeTree(bin)
        .catch(() => fs.rm(bin, { recursive: true, force: true }))
        .catch(() => undefined);
      deleting.delete(bin);
    }
  } finally {
    draining = false;
  }
}

/**
 * Deletes a tree with one file-system call in flight at a time. fs.rm starts a call for every
 * entry of a folder at once: a bin of pytest's bytecode (hundreds of entries) filled libuv's four
 * threads, and the loop's own small reads and writes waited behind it (about 580 calls per
 * iteration). Links are removed as links, never followed.
 */
async function removeTree(dir: string): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') return fs.unlink(dir);
    throw err;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await removeTree(p);
    else await fs.unlink(p).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
  }
  await fs.rmdir(dir);
}

/**
 * Removes `paths` (entries of folders the harness owns) from where they are at once: renamed into
 * a new bin under `binRoot`, which must be on the same file system and out of reach of whatever
 * wrote them. A path that cannot be renamed is deleted at once. The bin, and any bin an earlier
 * process left behind, is deleted in the background. Without `binRoot` every path is deleted
 * before this returns.
 */
export async function discard(paths: readonly string[], binRoot?: string): Promise<void> {
  if (paths.length === 0) return;
  if (binRoot === undefined) {
    await Promise.all(paths.map((p) => fs.rm(p, { recursive: true, force: true })));
    return;
  }
  await fs.mkdir(binRoot, { recursive: true });
  const bin = path.join(binRoot, `${process.pid}-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(bin);
  await Promise.all(
    paths.map(async (p, i) => {
      try {
        // Numbered, not named: two paths may share a base name.
        await fs.rename(p, path.join(bin, String(i)));
      } catch {
        await fs.rm(p, { recursive: true, force: true });
      }
    }),
  );
  for (const left of await fs.readdir(binRoot)) deleteInBackground(path.join(binRoot, left));
}

/**
 * Empties `dir` (made when missing; the folder itself stays, so a container bound to it still sees
 * it) by discarding its entries (see discard).
 */
export async function emptyFolder(dir: string, binRoot?: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await discard(
    (await fs.readdir(dir)).map((name) => path.join(dir, name)),
    binRoot,
  );
}
