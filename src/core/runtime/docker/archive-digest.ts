// Which archive an image was loaded from, by content: the sha256 of the image.tar.gz as it lies
// on disk (gzipped: hashing it reads the file, it does not decompress it). Two tasks that ship the
// same archive (copies or links) then find one image, as one `docker load` of both would. The
// digest of a file is remembered in this user's cache under its path, size and time, so a file is
// read for it once; a changed file has another stamp and is read again. A cache entry that cannot
// be read or written only costs that read. A first load hashes the archive in the pass that sends
// it (ensure-image.ts) and remembers the digest here, so it is not read twice.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../util/fs-atomic';
import { UserError } from '../../util/errors';
import { userCacheDir } from '../../util/user-cache';

export interface ArchiveStamp {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The cache's name for a file as it is now: its path, size and time. */
function stampKey(stamp: ArchiveStamp): string {
  return createHash('sha256')
    .update(JSON.stringify([stamp.path, stamp.size, stamp.mtimeMs]))
    .digest('hex');
}

const cacheFile = (stamp: ArchiveStamp): string => path.join(userCacheDir(), 'archive-digest', stampKey(stamp));

/** The digest remembered for this very file, if it was hashed before. */
export async function knownArchiveDigest(stamp: ArchiveStamp): Promise<string | undefined> {
  const cached = (await fs.readFile(cacheFile(stamp), 'utf8').catch(() => '')).trim();
  return /^[0-9a-f]{64}$/.test(cached) ? cached : undefined;
}

/** Remembers a digest computed elsewhere (the load hashes the archive as it reads it). */
export async function rememberArchiveDigest(stamp: ArchiveStamp, digest: string): Promise<void> {
  const file = cacheFile(stamp);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${digest}\n`, { durable: false });
  } catch {
    // A read-only or full cache: the file is hashed again next time.
  }
}

/** The archive's content digest (64 hex digits), from the cache when this very file was hashed before. */
export async function archiveDigest(stamp: ArchiveStamp, signal?: AbortSignal): Promise<string> {
  const cached = await knownArchiveDigest(stamp);
  if (cached) return cached;
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(stamp.path, { signal })) hash.update(chunk as Buffer);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new UserError(`Cannot read the image archive ${stamp.path}: ${(err as Error).message}. Download the task again.`, { cause: err });
  }
  const digest = hash.digest('hex');
  await rememberArchiveDigest(stamp, digest);
  return digest;
}
