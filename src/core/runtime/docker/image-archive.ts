// A task's environment as SWE-CI ships it: `data/<task_id>/image.tar.gz`, a gzipped
// `docker save`. Its manifest.json names the image (RepoTags[0], as the reference reads it) and
// its config blob, whose sha256 is the image id. Reading the whole archive once also proves it
// is complete before the engine is asked to load it.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { AbortError, UserError, errorMessage } from '../../util/errors';

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

function corrupt(file: string, why: string, cause?: unknown): UserError {
  return new UserError(
    `${file} is not a usable image archive: ${why}. Download the task again (the archive may be truncated), or name an image the engine has in the sweci.docker.image setting.`,
    cause !== undefined ? { cause, detail: errorMessage(cause) } : undefined,
  );
}

/** Reads the archive to its end; throws a UserError naming the file when it is not a complete image archive. */
export async function readImageArchive(file: string, signal?: AbortSignal): Promise<ImageArchiveInfo> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    throw new UserError(`Cannot read the image archive ${file}: ${errorMessage(err)}.`, { cause: err });
  }
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
  try {
    await pipeline(createReadStream(file), createGunzip(), counter, extract, { signal });
  } catch (err) {
    if (signal?.aborted) throw new AbortError();
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'Z_BUF_ERROR' || /unexpected end/i.test(errorMessage(err))
        ? 'it ends early (truncated)'
        : code?.startsWith('Z_')
          ? 'it is not valid gzip data'
          : 'it is not a valid tar archive';
    throw corrupt(file, why, err);
  }
  if (manifestText === undefined) throw corrupt(file, 'it has no manifest.json (it is not the output of `docker save`)');
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch (err) {
    throw corrupt(file, 'its manifest.json is not valid JSON', err);
  }
  const first = Array.isArray(manifest) ? (manifest[0] as ManifestEntry | undefined) : undefined;
  if (!first || typeof first !== 'object') throw corrupt(file, 'its manifest.json lists no image');
  const tags = Array.isArray(first.RepoTags) ? first.RepoTags.filter((t): t is string => typeof t === 'string' && t.length > 0) : [];
  const hex = typeof first.Config === 'string' ? /([a-f0-9]{64})(?:\.json)?$/.exec(first.Config)?.[1] : undefined;
  const imageId = hex ? `sha256:${hex}` : undefined;
  const reference = tags[0] ?? imageId;
  if (!reference) throw corrupt(file, 'its manifest.json names neither a tag nor a config');
  return { reference, tags, ...(imageId ? { imageId } : {}), size, unpackedSize };
}
