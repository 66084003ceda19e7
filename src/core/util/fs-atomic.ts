// Writes that are either complete or absent: a reader never sees half a file.
import { closeSync, fsyncSync, mkdirSync, openSync, promises as fs, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** This process's tag for its temp files: random once (another host may share the folder and a pid), then counted. */
const PROCESS_TAG = `${process.pid}.${randomBytes(4).toString('hex')}`;
let tempCount = 0;

function tempNameFor(dir: string, filePath: string): string {
  return path.join(dir, `.${path.basename(filePath)}.${PROCESS_TAG}.${++tempCount}.tmp`);
}

/**
 * Writes `data` to a temp file next to `filePath`, flushes it, then renames it over `filePath`
 * (rename is atomic within one filesystem). Creates the parent folder when missing.
 * `durable: false` skips the flush: for a cache, which a crash may lose (it is rebuilt) and
 * which is written by the thousand (one fsync each would cost seconds).
 */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array, opts: { durable?: boolean } = {}): Promise<void> {
  const dir = path.dirname(filePath);
  await fs.mkdir(dir, { recursive: true });
  const tmp = tempNameFor(dir, filePath);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(tmp, 'w');
    await handle.writeFile(data);
    if (opts.durable !== false) await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(tmp, filePath);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/**
 * writeFileAtomic, synchronously: for a reader that writes a small cache per run by the thousand,
 * where a promise per step costs more than the write. `mkdir: false` skips creating the parent
 * (a caller whose folder exists: the recursive mkdir was a tenth of a cold leaderboard read).
 */
export function writeFileAtomicSync(filePath: string, data: string | Uint8Array, opts: { durable?: boolean; mkdir?: boolean } = {}): void {
  const dir = path.dirname(filePath);
  if (opts.mkdir !== false) mkdirSync(dir, { recursive: true });
  const tmp = tempNameFor(dir, filePath);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    writeFileSync(fd, data);
    if (opts.durable !== false) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, filePath);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // Already failing: the first error is the one to report.
      }
    }
    rmSync(tmp, { force: true });
    throw err;
  }
}
