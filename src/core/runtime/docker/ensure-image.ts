// Makes the task's image available in the engine: loaded once from the task's image.tar.gz
// (skipped when the engine already has that image under that tag), or a named image the engine
// must already have. Progress is the share of the archive sent; cancelling stops the upload.
// Before a load, the image budget makes room for it and the engine's disk is checked; after it,
// the image is labelled as one SWE-CI loaded (task-images.ts). Where several processes load into
// one store (Podman: a service each), a load waits for the store's lock and looks again first.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { AbortError, UserError, errorMessage, throwIfAborted } from '../../util/errors';
import { engineName, type DockerConnection } from './docker-connection';
import { engineMessage, isConnectionError, isDockerUnavailable, statusOf, unavailable } from './docker-errors';
import { readImageArchive } from './image-archive';
import { assertRoomToLoad } from './engine-room';
import { budgetNote, enforceImageBudget } from './image-budget';
import { digestOf, labelLoadedImage, loadedFrom } from './task-images';
import { waitForLock } from '../../records/process-lock';

/** An image archive as it was when it was read: unchanged while its size and time are. */
export interface ArchiveStamp {
  path: string;
  size: number;
  mtimeMs: number;
}

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
  progress('Reading the task image archive');
  const info = await readImageArchive(opts.archive, opts.signal);
  const archive = stamp && { ...stamp, size: info.size };
  // The archive's own image, or the one SWE-CI labelled after loading it.
  const present = async (): Promise<EnsuredImage | undefined> => {
    const existing = await inspectImage(conn, info.reference);
    if (existing && (!info.imageId || existing.Id === info.imageId || (owned(existing) && digestOf(existing.Parent ?? '') === digestOf(info.imageId))))
      return { reference: info.reference, id: existing.Id, loaded: false, ...(archive ? { archive } : {}), owned: owned(existing) };
    return undefined;
  };
  const found = await present();
  if (found) return found;
  const lockFile = conn.engine?.loadLock;
  if (!lockFile) return loadFromArchive(conn, withArchive, info, archive);
  // Another process may be loading this very archive into the same store: one loads, the rest find it.
  const lock = await waitForLock(lockFile, 'an image load', {
    detail: info.reference,
    signal: opts.signal,
    onWait: (holder) =>
      progress(
        `Waiting for another SWE-CI process loading into this ${engineName(conn)} store${holder ? ` (pid ${holder.pid}: ${holder.detail ?? 'an image'})` : ''}`,
      ),
  });
  try {
    return (await present()) ?? (await loadFromArchive(conn, withArchive, info, archive));
  } finally {
    await lock.release();
  }
}

/** Loads the archive (room made under the budget first) and labels its image as SWE-CI's. */
async function loadFromArchive(
  conn: DockerConnection,
  opts: EnsureImageOptions & { archive: string },
  info: Awaited<ReturnType<typeof readImageArchive>>,
  archive: ArchiveStamp | undefined,
): Promise<EnsuredImage> {
  const progress = opts.onProgress ?? (() => undefined);
  throwIfAborted(opts.signal);
  if (opts.budgetBytes && opts.budgetBytes > 0) {
    const made = await enforceImageBudget(conn, opts.budgetBytes, { room: info.unpackedSize });
    if (made.removed.length > 0) progress(budgetNote(made.removed));
  }
  await assertRoomToLoad(conn, opts.archive, info.unpackedSize);
  throwIfAborted(opts.signal);
  const into = engineName(conn);
  progress(`Loading ${info.reference} into ${into}`, 0);
  await loadArchive(conn, opts.archive, info.size, opts.signal, (fraction) =>
    progress(`Loading ${info.reference} into ${into} (${Math.round(fraction * 100)} %)`, fraction),
  );
  const loaded = await inspectImage(conn, info.reference);
  if (!loaded) {
    throw new UserError(
      `${into} loaded ${opts.archive} but has no image "${info.reference}" afterwards. Check the archive, or name the image in sweci.docker.image.`,
    );
  }
  // Only a tagged archive's image can be labelled under its own name; an untagged one stays as loaded (never removed by the budget).
  if (info.tags.length === 0 || !info.imageId) return { reference: info.reference, id: loaded.Id, loaded: true, ...(archive ? { archive } : {}), owned: false };
  progress(`Labelling ${info.reference} as a task image SWE-CI loaded`);
  try {
    const id = await labelLoadedImage(conn, info.reference, loaded.Id);
    return { reference: info.reference, id, loaded: true, ...(archive ? { archive } : {}), owned: true };
  } catch (err) {
    if (isDockerUnavailable(err)) throw err;
    // An engine that cannot build (no classic builder): the task still runs, its image outside the budget.
    progress(`${errorMessage(err)} It is left as loaded, outside sweci.docker.imageBudgetGb.`);
    return { reference: info.reference, id: loaded.Id, loaded: true, ...(archive ? { archive } : {}), owned: false };
  }
}

async function loadArchive(
  conn: DockerConnection,
  file: string,
  size: number,
  signal: AbortSignal | undefined,
  onFraction: (fraction: number) => void,
): Promise<void> {
  let sent = 0;
  let lastReported = -1;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      sent += chunk.length;
      const fraction = size > 0 ? Math.min(1, sent / size) : 1;
      // Report in 2 % steps: a notification per chunk would flood the UI.
      if (fraction - lastReported >= 0.02 || fraction === 1) {
        lastReported = fraction;
        onFraction(fraction);
      }
      cb(null, chunk);
    },
  });
  const source = createReadStream(file);
  // Counted as read from the file (the share of the archive), sent as the engine reads archives:
  // decompressed on the way for one that cannot read gzip (Podman 4.3), never unpacked to disk here.
  const counted = source.pipe(counter);
  const gunzip = conn.engine?.loadsPlainTar ? createGunzip() : undefined;
  const body = gunzip ? counted.pipe(gunzip) : counted;
  counted.on('error', (err) => gunzip?.destroy(err));
  const onAbort = (): void => {
    source.destroy();
    counted.destroy(new AbortError());
    gunzip?.destroy(new AbortError());
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await conn.docker.loadImage(body, { quiet: true });
    await new Promise<void>((resolve, reject) => {
      conn.docker.modem.followProgress(response, (err: Error | null, events: Array<{ error?: string; errorDetail?: { message?: string } }>) => {
        if (err) return reject(err);
        const failed = events.find((e) => e.error || e.errorDetail);
        if (failed)
          return reject(new UserError(`${engineName(conn)} could not load ${file}: ${failed.errorDetail?.message ?? failed.error}. Download the task again.`));
        resolve();
      });
    });
  } catch (err) {
    if (signal?.aborted) throw new AbortError();
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
