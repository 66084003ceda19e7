// Makes the task's image available in the engine: loaded once from the task's image.tar.gz
// (skipped when the engine has the image SWE-CI loaded from an archive of the same content, found
// by its label: the archive's digest, read once per file), or a named image the engine must already have. A load reads the
// archive once: the engine gets the stream (through its engine's ArchiveLoader, api-load.ts: Docker's
// API, or a `podman load` process), and its tag, image id and (on a first load) digest are learnt
// on the way. Progress is the share of the archive sent; cancelling stops the load.
// Before a load, the image budget makes room for it and the engine's disk is checked; after it,
// the image is labelled as one SWE-CI loaded (task-images.ts). Where several processes load into
// one store (Podman: a service each), a load waits for the store's lock and looks again first.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { AbortError, UserError, errorMessage, throwIfAborted } from '../../util/errors';
import { engineName, type DockerConnection } from './docker-connection';
import { engineMessage, isConnectionError, isDockerUnavailable, statusOf, unavailable } from './docker-errors';
import { archiveFailure, gzipSizeHint, scanImageTar, type ImageTarInfo } from './image-archive';
import { assertRoomToLoad } from './engine-room';
import { archiveLoader } from './api-load';
import { budgetNote, enforceImageBudget } from './image-budget';
import { ARCHIVE_LABEL, labelLoadedImage, loadedFrom } from './task-images';
import { waitForLock } from '../../records/process-lock';
import { archiveDigest, knownArchiveDigest, rememberArchiveDigest, type ArchiveStamp } from './archive-digest';

/** An image archive as it was when it was read: unchanged while its size and time are. */
export type { ArchiveStamp };

export interface EnsureImageOptions {
  /** The task's image.tar.gz, when it has one. */
  archive?: string;
  /** What an earlier run learnt from that archive: used instead of reading it when it still holds. */
  known?: { archive: ArchiveStamp; reference: string; id: string };
  /** An image the user named; wins over the archive's own tag. */
  image?: string;
  /** The image budget in bytes (sweci.docker.imageBudgetGb): room is made under it before a load. 0 or absent: none. */
  budgetBytes?: number;
  signal?: AbortSignal;
  onProgress?: (message: string, fraction?: number) => void;
}

export interface EnsuredImage {
  /** What containers are created from. */
  reference: string;
  /** `sha256:…` as the engine reports it. */
  id: string;
  /** True when this call loaded the archive into the engine. */
  loaded: boolean;
  /** The archive it came from, when it came from one. */
  archive?: ArchiveStamp;
  /** True when it is a task image SWE-CI loaded (labelled): the image budget may remove it once nothing holds it. */
  owned: boolean;
}

async function stampOf(file: string): Promise<ArchiveStamp | undefined> {
  const st = await stat(file).catch(() => undefined);
  return st && { path: file, size: st.size, mtimeMs: st.mtimeMs };
}

const sameStamp = (a: ArchiveStamp, b: ArchiveStamp | undefined): boolean =>
  b !== undefined && a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs;

interface Inspected {
  Id: string;
  Parent?: string;
  Config?: { Labels?: Record<string, string> | null } | null;
}

const owned = (image: Inspected): boolean => loadedFrom({ labels: image.Config?.Labels, parent: image.Parent }) !== undefined;

async function inspectImage(conn: DockerConnection, reference: string): Promise<Inspected | undefined> {
  try {
    return await conn.docker.getImage(reference).inspect();
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    if (isConnectionError(err)) throw unavailable(conn.address, `looking for the image ${reference}`, err);
    throw err;
  }
}

/** The progress line when what an earlier run learnt does not hold: the engine is asked again. */
const LOOKING_FOR_IMAGE = 'Looking for the image SWE-CI loaded from the task image archive';

export async function ensureImage(conn: DockerConnection, opts: EnsureImageOptions): Promise<EnsuredImage> {
  const progress = opts.onProgress ?? (() => undefined);
  if (opts.image) {
    const found = await inspectImage(conn, opts.image);
    if (!found) {
      throw new UserError(
        `The Docker engine at ${conn.address} has no image "${opts.image}" (named in sweci.docker.image). ` +
          `Load it (docker load -i <file>), build it, or pull it, then try again; or clear the setting to use the task's own image.tar.gz.`,
      );
    }
    return { reference: opts.image, id: found.Id, loaded: false, owned: owned(found) };
  }
  if (!opts.archive) {
    throw new UserError('This task has no image.tar.gz. Name an image in the sweci.docker.image setting, or set sweci.runtime to "local".');
  }
  const withArchive = { ...opts, archive: opts.archive };
  const stamp = await stampOf(opts.archive);
  if (opts.known && sameStamp(opts.known.archive, stamp)) {
    // Reading a multi-gigabyte archive to learn its tag again costs seconds per iteration.
    const existing = await inspectImage(conn, opts.known.reference);
    if (existing?.Id === opts.known.id)
      return { reference: opts.known.reference, id: existing.Id, loaded: false, archive: opts.known.archive, owned: owned(existing) };
  }
  progress(LOOKING_FOR_IMAGE);
  // The image SWE-CI loaded from this archive's content (its label holds the digest): another
  // task's copy of the same archive finds it too. The digest is read once per file (archive-digest.ts),
  // and before the load only when the engine holds a task image SWE-CI loaded at all: otherwise
  // the load hashes the archive in the pass that sends it.
  let digest = stamp ? await knownArchiveDigest(stamp) : undefined;
  const present = async (): Promise<EnsuredImage | undefined> => {
    if (!stamp) return undefined;
    if (!digest) {
      if (!(await holdsLoadedImages(conn, stamp))) return undefined;
      digest = await archiveDigest(stamp, opts.signal);
    }
    return loadedFromArchive(conn, stamp, digest);
  };
  const found = await present();
  if (found) return found;
  const lockFile = conn.engine?.loadLock;
  if (!lockFile) return loadFromArchive(conn, withArchive, stamp, digest);
  // Another process may be loading this very archive into the same store: one loads, the rest find it.
  const lock = await waitForLock(lockFile, 'an image load', {
    detail: opts.archive,
    signal: opts.signal,
    onWait: (holder) =>
      progress(
        `Waiting for another SWE-CI process loading into this ${engineName(conn)} store${holder ? ` (pid ${holder.pid}: ${holder.detail ?? 'an image'})` : ''}`,
      ),
  });
  try {
    return (await present()) ?? (await loadFromArchive(conn, withArchive, stamp, digest));
  } finally {
    await lock.release();
  }
}

/** Whether the engine has any image carrying the archive label (one of them may be this archive's). */
async function holdsLoadedImages(conn: DockerConnection, stamp: ArchiveStamp): Promise<boolean> {
  try {
    return (await conn.docker.listImages({ filters: { label: [ARCHIVE_LABEL] } })).length > 0;
  } catch (err) {
    if (isConnectionError(err)) throw unavailable(conn.address, `looking for the image of ${stamp.path}`, err);
    throw err;
  }
}

async function loadedFromArchive(conn: DockerConnection, stamp: ArchiveStamp, digest: string): Promise<EnsuredImage | undefined> {
  let images: Awaited<ReturnType<DockerConnection['docker']['listImages']>>;
  try {
    images = await conn.docker.listImages({ filters: { label: [`${ARCHIVE_LABEL}=${digest}`] } });
  } catch (err) {
    if (isConnectionError(err)) throw unavailable(conn.address, `looking for the image of ${stamp.path}`, err);
    throw err;
  }
  for (const image of images) {
    const tag = (image.RepoTags ?? []).find((t) => t !== '<none>:<none>');
    // Ours only while it still holds the archive's tag: a later load of another archive may have taken it.
    if (tag && loadedFrom({ labels: image.Labels, parent: image.ParentId }))
      return { reference: tag, id: image.Id, loaded: false, archive: stamp, owned: true };
  }
  return undefined;
}

/**
 * Loads the archive (room made under the budget first) and labels its image as SWE-CI's. What the
 * archive holds (its tag, its image id) is read from the same stream the engine loads.
 */
async function loadFromArchive(
  conn: DockerConnection,
  opts: EnsureImageOptions & { archive: string },
  stamp: ArchiveStamp | undefined,
  digest: string | undefined,
): Promise<EnsuredImage> {
  const progress = opts.onProgress ?? (() => undefined);
  throwIfAborted(opts.signal);
  if (!stamp) throw new UserError(`Cannot read the image archive ${opts.archive}: it does not exist or cannot be read. Download the task again.`);
  const unpacked = await gzipSizeHint(opts.archive, stamp.size);
  if (opts.budgetBytes && opts.budgetBytes > 0) {
    const made = await enforceImageBudget(conn, opts.budgetBytes, { room: unpacked });
    if (made.removed.length > 0) progress(budgetNote(made.removed));
  }
  await assertRoomToLoad(conn, opts.archive, unpacked);
  throwIfAborted(opts.signal);
  const into = engineName(conn);
  const what = `the task image (${path.basename(path.dirname(opts.archive))})`;
  progress(`Loading ${what} into ${into}`, 0);
  const hash = digest ? undefined : createHash('sha256');
  const info = await loadArchive(conn, opts.archive, stamp.size, opts.signal, hash, (fraction) =>
    progress(`Loading ${what} into ${into} (${Math.round(fraction * 100)} %)`, fraction),
  );
  const archive = stamp;
  digest ??= await streamedDigest(stamp, hash, info.bytesRead, opts.signal);
  const loaded = await inspectImage(conn, info.reference);
  if (!loaded) {
    throw new UserError(
      `${into} loaded ${opts.archive} but has no image "${info.reference}" afterwards. Check the archive, or name the image in sweci.docker.image.`,
    );
  }
  // Only a tagged archive's image can be labelled under its own name; an untagged one stays as loaded (never removed by the budget).
  if (info.tags.length === 0 || !info.imageId) return { reference: info.reference, id: loaded.Id, loaded: true, archive, owned: false };
  progress(`Labelling ${info.reference} as a task image SWE-CI loaded`);
  try {
    const id = await labelLoadedImage(conn, info.reference, loaded.Id, digest);
    return { reference: info.reference, id, loaded: true, archive, owned: true };
  } catch (err) {
    if (isDockerUnavailable(err)) throw err;
    // An engine that cannot build (no classic builder): the task still runs, its image outside the budget.
    progress(`${errorMessage(err)} It is left as loaded, outside sweci.docker.imageBudgetGb.`);
    return { reference: info.reference, id: loaded.Id, loaded: true, archive, owned: false };
  }
}

/**
 * The digest of the archive just sent, hashed on the way: what was loaded. Remembered for the
 * file while it is unchanged; read apart only if the load did not take the whole file.
 */
async function streamedDigest(stamp: ArchiveStamp, hash: Hash | undefined, bytesRead: number, signal?: AbortSignal): Promise<string> {
  if (!hash || bytesRead !== stamp.size) return archiveDigest(stamp, signal);
  const digest = hash.digest('hex');
  if (sameStamp(stamp, await stampOf(stamp.path))) await rememberArchiveDigest(stamp, digest);
  return digest;
}

/** Passes a stream through, writing each chunk to `side` as well, at the pace of the slower of the two. */
function teeTo(side: Writable, onEnd: () => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (side.write(chunk)) cb(null, chunk);
      else side.once('drain', () => cb(null, chunk));
    },
    flush(cb) {
      side.end();
      onEnd();
      cb();
    },
  });
}

// Large chunks: every chunk passes the counter, the tee, the tar scan and a write to the engine, and
// at Node's defaults (64 KiB read, 16 KiB out of gunzip) that per-chunk work cost this process
// about twice the CPU of the gunzip itself (2.0 to 3.0 s against 1.1 to 1.2 s on the 115 MB demo archive).
const READ_CHUNK = 1 << 20;
const TAR_CHUNK = 256 << 10;

async function loadArchive(
  conn: DockerConnection,
  file: string,
  size: number,
  signal: AbortSignal | undefined,
  hash: Hash | undefined,
  onFraction: (fraction: number) => void,
): Promise<ImageTarInfo & { bytesRead: number }> {
  let sent = 0;
  let lastReported = -1;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      sent += chunk.length;
      hash?.update(chunk);
      const fraction = size > 0 ? Math.min(1, sent / size) : 1;
      // Report in 2 % steps: a notification per chunk would flood the UI.
      if (fraction - lastReported >= 0.02 || fraction === 1) {
        lastReported = fraction;
        onFraction(fraction);
      }
      cb(null, chunk);
    },
  });
  const source = createReadStream(file, { highWaterMark: READ_CHUNK });
  // Counted as read from the file (the share of the archive), sent as the engine reads archives:
  // decompressed on the way for one that cannot read gzip (Podman 4.3), never unpacked to disk here.
  // The tar also goes through scanImageTar on the way, which learns the archive's image from it:
  // the archive is decompressed once (by us, or beside the engine when it takes gzip).
  const counted = source.pipe(counter);
  const loader = archiveLoader(conn);
  const plain = loader.plainTar;
  const gunzip = createGunzip({ chunkSize: TAR_CHUNK });
  const scan = scanImageTar(file);
  let stopping = false;
  let archiveErr: UserError | undefined;
  let sideFed = false;
  const side: Writable = plain ? scan.input : gunzip;
  const tee = teeTo(side, () => (sideFed = true));
  const body = plain ? counted.pipe(gunzip).pipe(tee) : counted.pipe(tee);
  const sideDone: Promise<ImageTarInfo> = plain
    ? scan.info
    : pipeline(gunzip, scan.input).then(
        () => scan.info,
        (err: unknown) => {
          scan.info.catch(() => undefined);
          throw err instanceof UserError ? err : archiveFailure(file, err);
        },
      );
  // An archive that is not a docker save stops the load: the engine is left with nothing.
  sideDone.catch((err: unknown) => {
    if (stopping) return;
    archiveErr ??= err instanceof UserError ? err : archiveFailure(file, err);
    tee.destroy(archiveErr);
  });
  if (plain)
    gunzip.on('error', (err) => {
      if (!stopping) archiveErr ??= archiveFailure(file, err);
      scan.input.destroy(err);
      tee.destroy(err);
    });
  counted.on('error', (err) => {
    gunzip.destroy(err);
    tee.destroy(err);
  });
  const stop = (err: Error): void => {
    stopping = true;
    source.destroy();
    counted.destroy(err);
    gunzip.destroy(err);
    scan.input.destroy(err);
    tee.destroy(err);
  };
  const onAbort = (): void => stop(new AbortError());
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await loader.load(body, file, signal);
    return { ...(await sideDone), bytesRead: sent };
  } catch (err) {
    if (signal?.aborted) throw new AbortError();
    // The whole tar went to the parser: what it says of the archive comes first (truncated, not a docker save).
    if (sideFed) await sideDone.catch(() => undefined);
    if (!archiveErr) stop(new Error('the load stopped'));
    if (archiveErr) throw archiveErr;
    if (err instanceof UserError) throw err;
    if (isConnectionError(err)) throw unavailable(conn.address, `loading ${file}`, err);
    throw new UserError(
      `${engineName(conn)} could not load ${file}: ${engineMessage(err)}. Download the task again, or load it by hand (docker load -i, or gzip -dc | podman load).`,
      {
        cause: err,
      },
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
