// A task's environment as SWE-CI ships it: `data/<task_id>/image.tar.gz`, a gzipped
// `docker save`. Its manifest.json names the image (RepoTags[0], as the reference reads it) and
// its config blob, whose sha256 is the image id. A load reads it from the very stream it sends
// the engine (scanImageTar), so the archive is decompressed once.
import { open } from 'node:fs/promises';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import { UserError, errorMessage } from '../../util/errors';

export interface ImageArchiveInfo {
  /** What to run: RepoTags[0], or the image id when the archive carries no tag. */
  reference: string;
  tags: string[];
  /** `sha256:<hex>` from the manifest's config entry. */
  imageId?: string;
  /** Bytes of the file (gzipped). */
  size: number;
  /**
   * Bytes of the tar inside, counted while it is read (gzip's own ISIZE trailer holds only the
   * size modulo 4 GiB, and only the last member's; the whole archive is read here anyway).
   */
  unpackedSize: number;
}

interface ManifestEntry {
  Config?: unknown;
  RepoTags?: unknown;
}

const MAX_MANIFEST_BYTES = 1 << 20;

/** Refuses `file` as an image archive, saying `why` and what to do. */
export function unusableArchive(file: string, why: string, cause?: unknown): UserError {
  return new UserError(
    `${file} is not a usable image archive: ${why}. Download the task again (the archive may be truncated), or name an image the engine has in the sweci.docker.image setting.`,
    cause !== undefined ? { cause, detail: errorMessage(cause) } : undefined,
  );
}

/** What the tar inside an image archive says: its manifest's image, and its own size. */
export type ImageTarInfo = Omit<ImageArchiveInfo, 'size'>;

/** Why reading an archive failed, in words a user can act on. */
export function archiveFailure(file: string, err: unknown): UserError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'Z_BUF_ERROR' || /unexpected end/i.test(errorMessage(err))
      ? 'it ends early (truncated)'
      : code?.startsWith('Z_')
        ? 'it is not valid gzip data'
        : 'it is not a valid tar archive';
  return unusableArchive(file, why, err);
}

/**
 * A parser for the (decompressed) tar of an archive: write the tar into `input`; `info` settles
 * when it ends, with the manifest's image, or with a UserError naming the file. It reads the
 * stream it is given and nothing else, so a load can feed it the very bytes it sends the engine.
 */
export function scanImageTar(file: string): { input: Writable; info: Promise<ImageTarInfo> } {
  let manifestText: string | undefined;
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const name = header.name.replace(/^\.\//, '');
    if (name === 'manifest.json' && header.type === 'file') {
      const chunks: Buffer[] = [];
      let total = 0;
      stream.on('data', (c: Buffer) => {
        total += c.length;
        if (total <= MAX_MANIFEST_BYTES) chunks.push(c);
      });
      stream.on('end', () => {
        manifestText = total <= MAX_MANIFEST_BYTES ? Buffer.concat(chunks).toString('utf8') : '';
        next();
      });
    } else {
      stream.on('end', () => next());
      stream.resume();
    }
  });
  let unpackedSize = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      unpackedSize += chunk.length;
      cb(null, chunk);
    },
  });
  const info = pipeline(counter, extract).then(
    () => manifestInfo(file, manifestText, unpackedSize),
    (err: unknown) => {
      throw err instanceof UserError ? err : archiveFailure(file, err);
    },
  );
  return { input: counter, info };
}

function manifestInfo(file: string, manifestText: string | undefined, unpackedSize: number): ImageTarInfo {
  if (manifestText === undefined) throw unusableArchive(file, 'it has no manifest.json (it is not the output of `docker save`)');
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch (err) {
    throw unusableArchive(file, 'its manifest.json is not valid JSON', err);
  }
  const first = Array.isArray(manifest) ? (manifest[0] as ManifestEntry | undefined) : undefined;
  if (!first || typeof first !== 'object') throw unusableArchive(file, 'its manifest.json lists no image');
  const tags = Array.isArray(first.RepoTags) ? first.RepoTags.filter((t): t is string => typeof t === 'string' && t.length > 0) : [];
  const hex = typeof first.Config === 'string' ? /([a-f0-9]{64})(?:\.json)?$/.exec(first.Config)?.[1] : undefined;
  const imageId = hex ? `sha256:${hex}` : undefined;
  const reference = tags[0] ?? imageId;
  if (!reference) throw unusableArchive(file, 'its manifest.json names neither a tag nor a config');
  return { reference, tags, ...(imageId ? { imageId } : {}), unpackedSize };
}

/**
 * The tar's size as the gzip trailer gives it, before anything is read: ISIZE holds it modulo
 * 4 GiB (and only the last member's), so this is the smallest size that fits it and is not below
 * the file's own. Exact under 4 GiB; a lower bound above. Refuses a file that is not gzip.
 */
export async function gzipSizeHint(file: string, size: number): Promise<number> {
  const fh = await open(file, 'r').catch((err: unknown) => {
    throw new UserError(`Cannot read the image archive ${file}: ${errorMessage(err)}.`, { cause: err });
  });
  try {
    const head = Buffer.alloc(2);
    const tail = Buffer.alloc(4);
    await fh.read(head, 0, 2, 0);
    if (size < 18 || head[0] !== 0x1f || head[1] !== 0x8b) throw unusableArchive(file, 'it is not valid gzip data');
    await fh.read(tail, 0, 4, size - 4);
    const modulo = tail.readUInt32LE(0);
    const wrap = 2 ** 32;
    return modulo >= size ? modulo : modulo + Math.ceil((size - modulo) / wrap) * wrap;
  } finally {
    await fh.close();
  }
}
