// Writes that are either complete or absent: a reader never sees half a file.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes `data` to a temp file next to `filePath`, flushes it, then renames it over `filePath`
 * (rename is atomic within one filesystem). Creates the parent folder when missing.
 * `durable: false` skips the flush: for a cache, which a crash may lose (it is rebuilt) and
 * which is written by the thousand (one fsync each would cost seconds).
 */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array, opts: { durable?: boolean } = {}): Promise<void> {
  const dir = path.dirname(filePath);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(filePath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
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
