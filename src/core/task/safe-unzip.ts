// Extracts an untrusted zip (a dataset's code.zip) so that nothing can land outside the destination.
import { promises as fs, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import { UserError, errorMessage, throwIfAborted } from '../util/errors';
import { formatBytes, freeBytes } from '../util/free-space';

export interface SafeUnzipOptions {
  /** Refuse archives whose entries add up to more than this many uncompressed bytes (default 4 GiB). */
  maxTotalBytes?: number;
  /** Refuse archives with more entries than this (default 500 000). */
  maxEntries?: number;
  signal?: AbortSignal;
}

export interface SafeUnzipResult {
  files: number;
  dirs: number;
  symlinks: number;
  bytes: number;
}

export const DEFAULT_MAX_TOTAL_BYTES = 4 * 1024 ** 3;
export const DEFAULT_MAX_ENTRIES = 500_000;
const MAX_LINK_TEXT = 4096;
const MAX_LINK_HOPS = 40;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

/** An error that already speaks to the user; passed through unwrapped. */
class HostileEntry extends UserError {}

function hostile(zipPath: string, entryName: string, why: string): HostileEntry {
  return new HostileEntry(
    `${zipPath} contains an unsafe entry "${entryName}": ${why}. Nothing was extracted. The archive may be tampered with; re-download the task from a trusted source.`,
  );
}

function invalidZip(zipPath: string, err: unknown): UserError {
  return new UserError(`${zipPath} is not a valid zip (${errorMessage(err)}). Re-download the task; the file may be truncated or corrupt.`, {
    detail: errorMessage(err),
    cause: err,
  });
}

interface Survey {
  /** The sum of the entries' declared uncompressed sizes. */
  declared: number;
  /** Two entries whose compressed data overlap (a zip bomb that reuses one stream many times). */
  overlapping?: [string, string];
}

/**
 * Reads the central directory once, before anything is written: what the entries claim to
 * expand to, and whether any two share compressed bytes. In a well-formed zip each entry's
 * local header and data end before the next entry's header begins.
 */
async function survey(zipPath: string, signal?: AbortSignal): Promise<Survey> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, decodeStrings: false, autoClose: true });
  const spans: Array<{ name: string; start: number; end: number }> = [];
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      throwIfAborted(signal);
      declared += entry.uncompressedSize;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      spans.push({ name, start: entry.relativeOffsetOfLocalHeader, end: entry.relativeOffsetOfLocalHeader + entry.compressedSize });
    }
  } finally {
    zip.close();
  }
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    const [prev, cur] = [spans[i - 1], spans[i]];
    if (cur.start < prev.end || cur.start === prev.start) return { declared, overlapping: [prev.name, cur.name] };
  }
  return { declared };
}

/** Splits an entry name into safe path segments, or explains why it is unsafe. */
function entrySegments(name: string): { segments: string[] } | { problem: string } {
  if (name.includes('\0')) return { problem: 'its name contains a NUL character' };
  if (name.includes('\\')) return { problem: 'its name contains a backslash, which Windows treats as a path separator' };
  if (name.startsWith('/')) return { problem: 'it is an absolute path' };
  if (/^[A-Za-z]:/.test(name)) return { problem: 'it starts with a drive letter' };
  const segments: string[] = [];
  for (const seg of name.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return { problem: 'it climbs out of the destination with ".."' };
    segments.push(seg);
  }
  return { segments };
}

/**
 * Resolves a symlink target the way the OS would, starting in `fromSegs` (relative to `root`),
 * following links already on disk. Returns the segments it lands on, or null if it leaves `root`.
 */
async function resolveWithin(root: string, fromSegs: string[], target: string, hops: { n: number }): Promise<string[] | null> {
  if (target.startsWith('/') || target.includes('\\') || /^[A-Za-z]:/.test(target)) return null;
  let cur = [...fromSegs];
  for (const comp of target.split('/')) {
    if (comp === '' || comp === '.') continue;
    if (comp === '..') {
      if (cur.length === 0) return null;
      cur.pop();
      continue;
    }
    const next = [...cur, comp];
    const abs = path.join(root, ...next);
    let isLink = false;
    try {
      isLink = (await fs.lstat(abs)).isSymbolicLink();
    } catch {
      // Missing component: the OS would stop here; treating it lexically is the stricter choice.
    }
    if (!isLink) {
      cur = next;
      continue;
    }
    if (++hops.n > MAX_LINK_HOPS) return null;
    const resolved = await resolveWithin(root, cur, await fs.readlink(abs), hops);
    if (resolved === null) return null;
    cur = resolved;
  }
  return cur;
}

async function lstatOrUndefined(p: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Extracts `zipPath` into `destDir`, which must not exist yet (it is created, and removed again on
 * any failure). Rejects absolute names, drive letters, backslashes and `..`; creates a symlink only
 * when it resolves inside `destDir`; never writes through a symlink; bounds entry count and size.
 */
export async function safeUnzip(zipPath: string, destDir: string, options: SafeUnzipOptions = {}): Promise<SafeUnzipResult> {
  const maxBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  throwIfAborted(options.signal);

  if (await lstatOrUndefined(destDir)) {
    throw new UserError(`Cannot extract ${zipPath} into ${destDir}: that folder already exists. Extraction needs a fresh folder.`);
  }

  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false, autoClose: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UserError(`The zip ${zipPath} does not exist. Re-download the task's data.`, { cause: err });
    }
    throw invalidZip(zipPath, err);
  }
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new UserError(`${zipPath} has ${zip.entryCount} entries, more than the limit of ${maxEntries}. Raise the entry limit if you trust this archive.`);
  }
  // Everything that can be known before writing is checked before writing.
  let planned: Survey;
  try {
    planned = await survey(zipPath, options.signal);
  } catch (err) {
    zip.close();
    if (err instanceof Error && err.name === 'AbortError') throw err;
    throw invalidZip(zipPath, err);
  }
  const refuse = (message: string): never => {
    zip.close();
    throw new UserError(message);
  };
  if (planned.overlapping) {
    refuse(
      `${zipPath} has entries that share their compressed data ("${planned.overlapping[0]}" and "${planned.overlapping[1]}"), the shape of a zip bomb. Nothing was extracted; re-download the task from a trusted source.`,
    );
  }
  if (planned.declared > maxBytes) {
    refuse(
      `${zipPath} expands to ${planned.declared} bytes, more than ${maxBytes} bytes, the extraction limit. Nothing was extracted. Raise the size limit if you trust this archive.`,
    );
  }
  await fs.mkdir(path.dirname(path.resolve(destDir)), { recursive: true });
  // The central directory's sizes, checked against the disk before the first byte is written.
  const at = path.dirname(path.resolve(destDir));
  const free = await freeBytes(at);
  if (free !== undefined && planned.declared > free) {
    refuse(
      `Not enough disk space to unpack ${zipPath}: it expands to ${formatBytes(planned.declared)} (${planned.declared} bytes) and ${at} has ${formatBytes(free)} (${free} bytes) free. Nothing was extracted. Free some space there (sweci images prune removes task images SWE-CI loaded, if Docker's storage is on that disk), or check the task out on another disk.`,
    );
  }

  await fs.mkdir(destDir); // not recursive: fails if someone created it meanwhile
  const root = await fs.realpath(destDir);
  const result: SafeUnzipResult = { files: 0, dirs: 0, symlinks: 0, bytes: 0 };
  const links: string[][] = [];
  let declared = 0;

  const tooBig = (): UserError =>
    new UserError(`${zipPath} expands to more than ${maxBytes} bytes, the extraction limit. Raise the size limit if you trust this archive.`);

  /** Walks (creating folders) to the parent of `segs`, refusing to pass through a symlink or a file. */
  const ensureParent = async (name: string, segs: string[]): Promise<string> => {
    let cur = root;
    for (let i = 0; i < segs.length - 1; i++) {
      cur = path.join(cur, segs[i]);
      const st = await lstatOrUndefined(cur);
      if (!st) {
        await fs.mkdir(cur);
        result.dirs++;
      } else if (st.isSymbolicLink()) {
        throw hostile(zipPath, name, `it would be written through the symbolic link "${segs.slice(0, i + 1).join('/')}"`);
      } else if (!st.isDirectory()) {
        throw hostile(zipPath, name, `"${segs.slice(0, i + 1).join('/')}" is a file, not a folder`);
      }
    }
    return path.join(root, ...segs);
  };

  const readAll = async (entry: yauzl.Entry, limit: number): Promise<Buffer> => {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        stream.destroy();
        throw new UserError(`${zipPath}: a symbolic link entry is longer than ${limit} bytes. Re-download the task.`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  };

  try {
    for await (const entry of zip.eachEntry()) {
      throwIfAborted(options.signal);
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const parsed = entrySegments(name);
      if ('problem' in parsed) throw hostile(zipPath, name, parsed.problem);
      const segs = parsed.segments;
      if (entry.isEncrypted()) throw new UserError(`${zipPath}: entry "${name}" is encrypted, which is not supported. Re-download the task.`);
      const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
      const type = mode & S_IFMT;
      const isDir = name.endsWith('/') || type === S_IFDIR;
      const isLink = !isDir && type === S_IFLNK;
      declared += entry.uncompressedSize;
      if (declared > maxBytes) throw tooBig();
      if (segs.length === 0) {
        if (isDir) continue;
        throw hostile(zipPath, name, 'it has no file name');
      }

      const target = await ensureParent(name, segs);
      const existing = await lstatOrUndefined(target);
      if (existing?.isSymbolicLink()) {
        throw hostile(zipPath, name, 'it would be written through a symbolic link created by an earlier entry');
      }
      if (isDir) {
        if (!existing) {
          await fs.mkdir(target);
          result.dirs++;
        } else if (!existing.isDirectory()) {
          throw hostile(zipPath, name, 'a file of the same name was extracted before');
        }
        continue;
      }
      if (existing) throw hostile(zipPath, name, 'the archive holds this path twice');

      if (isLink) {
        const text = (await readAll(entry, MAX_LINK_TEXT)).toString('utf8');
        if (text === '' || text.includes('\0')) throw hostile(zipPath, name, 'it is a symbolic link with an empty or invalid target');
        const lands = await resolveWithin(root, segs.slice(0, -1), text, { n: 0 });
        if (lands === null) throw hostile(zipPath, name, `it is a symbolic link to "${text}", outside the destination`);
        await fs.symlink(text, target);
        links.push(segs);
        result.symlinks++;
        continue;
      }

      // O_EXCL + O_NOFOLLOW: never replace or follow anything that appeared at this path.
      const flags = fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | (fsc.O_NOFOLLOW ?? 0);
      const executable = (mode & 0o111) !== 0;
      const handle = await fs.open(target, flags, executable ? 0o755 : 0o644);
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          result.bytes += chunk.length;
          if (result.bytes > maxBytes) cb(tooBig());
          else cb(null, chunk);
        },
      });
      try {
        if (executable) await handle.chmod(0o755);
        const stream = await zip.openReadStreamPromise(entry);
        // The handle's own stream closes it, also on error, so the real error is what is thrown
        // (closing it again is a no-op on a FileHandle, never a close of a reused descriptor).
        await pipeline(stream, counter, handle.createWriteStream());
      } finally {
        await handle.close().catch(() => undefined);
      }
      result.files++;
    }

    // A later entry can change where an earlier link points (e.g. `x -> p/..` then `p -> .`):
    // check every link again against the final tree.
    for (const segs of links) {
      const abs = path.join(root, ...segs);
      const lands = await resolveWithin(root, segs.slice(0, -1), await fs.readlink(abs), { n: 0 });
      if (lands === null) {
        throw hostile(zipPath, segs.join('/'), 'together with later entries, this symbolic link points outside the destination');
      }
    }
    return result;
  } catch (err) {
    zip.close();
    await fs.rm(destDir, { recursive: true, force: true }).catch(() => undefined);
    if (err instanceof UserError || (err instanceof Error && err.name === 'AbortError')) throw err;
    if (err instanceof Error && 'syscall' in err) {
      throw new UserError(`Could not extract ${zipPath} into ${destDir} (${err.message}). Check free disk space and permissions.`, {
        detail: err.message,
        cause: err,
      });
    }
    throw invalidZip(zipPath, err);
  }
}
