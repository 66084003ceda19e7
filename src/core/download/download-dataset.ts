// sweci dataset download: the split's CSV first, then only the chosen tasks' code.zip (and
// image.tar.gz), each resumable and verified against the Hub's hash; metadata/<split>.csv lists a
// task only once all its files are here, so a half-downloaded task is never read as one.
import { promises as fs } from 'node:fs';
import { plural } from '../util/plural';
import * as path from 'node:path';
import { parseMetadataCsv, type MetadataRow } from '../task/csv-metadata';
import { metadataFile, taskDataDir } from '../task/dataset';
import { assertSafeTaskId } from '../task/task-id';
import { AbortError, UserError } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { assertFreeSpace } from '../util/free-space';
import { digestOnDisk, expectedDigest, fetchFile } from './fetch-file';
import { type HeldLock } from '../records/process-lock';
import { acquireFolderLock } from './folder-lock';
import { HubClient, type HubTarget, type RemoteFile } from './hub-client';
import { ManifestWriter, originalCsvPath, partialPath, readManifest, stateDir, type DownloadManifest, type FileRecord } from './download-manifest';
import { ProgressTracker } from './download-progress';
import { HashThread } from './part-hasher';
import type { RetryPolicy } from './retry-policy';
import { filterCsvRows } from './split-csv';

export const TASK_FILES = { code: 'code.zip', image: 'image.tar.gz' } as const;

export interface DownloadOptions extends HubTarget {
  into: string;
  split: string;
  /** Only these task ids (in CSV order), or the first N rows; default every task of the split. */
  tasks?: string[];
  first?: number;
  images: boolean;
  jobs: number;
  /** The folder's lock when the caller holds it already (verify --fix); else this download takes it. */
  lock?: HeldLock;
  /** Fetch files that changed on the Hub since they were downloaded (default: refuse). */
  update?: boolean;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  onEvent?: (e: DownloadEvent) => void;
}

export type DownloadEvent =
  | {
      type: 'plan';
      repo: string;
      revision: string;
      split: string;
      tasks: number;
      files: number;
      totalBytes: number;
      haveBytes: number;
      needBytes: number;
      freeBytes?: number;
    }
  | { type: 'file-start'; path: string; size: number; resumeFrom: number }
  | { type: 'bytes'; path: string; bytesOnDisk: number }
  | { type: 'retry'; path: string; reason: string; waitMs: number; attempt: number }
  | { type: 'mismatch'; path: string; got: string; expected: string }
  | { type: 'file-done'; path: string; size: number; received: number; resumedFrom: number }
  | { type: 'task-ready'; taskId: string }
  | { type: 'warning'; message: string };

export interface DownloadResult {
  datasetDir: string;
  split: string;
  tasks: string[];
  files: number;
  /** Bytes received over the network this run. */
  received: number;
  /** Bytes that were already verified and not fetched. */
  skippedBytes: number;
  tracker: ProgressTracker;
}

interface PlannedFile {
  remote: RemoteFile;
  dest: string;
  taskId?: string;
}

/** A tracker the caller can read while the download runs (set once the plan is known). */
export interface DownloadHandle {
  tracker?: ProgressTracker;
}

export async function downloadDataset(o: DownloadOptions, handle: DownloadHandle = {}): Promise<DownloadResult> {
  const into = path.resolve(o.into);
  await fs.mkdir(into, { recursive: true });
  const lock = o.lock ?? (await acquireFolderLock(into, `sweci dataset download --into ${into}`));
  try {
    return await downloadLocked(o, into, handle);
  } finally {
    if (!o.lock) await lock.release();
  }
}

async function downloadLocked(o: DownloadOptions, into: string, handle: DownloadHandle): Promise<DownloadResult> {
  // The hashing thread, started now so that its start-up overlaps the listing.
  const hashThread = new HashThread();
  try {
    return await downloadWith(o, into, handle, hashThread);
  } finally {
    await hashThread.close();
  }
}

async function downloadWith(o: DownloadOptions, into: string, handle: DownloadHandle, hashThread: HashThread): Promise<DownloadResult> {
  const emit = o.onEvent ?? (() => undefined);
  const previous = await claimFolder(into, o);
  const manifest: DownloadManifest = previous ?? {
    format: 1,
    repo: o.repo,
    revision: o.revision,
    endpoint: o.endpoint,
    splits: {},
    tasks: {},
    files: {},
  };
  const writer = new ManifestWriter(into, manifest);
  const client = new HubClient(o, {
    signal: o.signal,
    retry: o.retry,
    onRetry: (n) => emit({ type: 'retry', path: new URL(n.what).pathname, reason: n.reason, waitMs: n.waitMs, attempt: n.attempt }),
  });

  // 1. The split's CSV, before anything else.
  const metadata = await client.list('metadata');
  const splits = metadata.filter((f) => /^metadata\/[^/]+\.csv$/.test(f.path)).map((f) => path.posix.basename(f.path, '.csv'));
  const csvRemote = metadata.find((f) => f.path === `metadata/${o.split}.csv`);
  if (!csvRemote) {
    throw new UserError(
      `${o.repo} at ${o.revision} has no split "${o.split}". Its splits: ${splits.join(', ') || 'none (metadata/ holds no .csv)'}. Pass one to --split.`,
    );
  }
  assertUnchanged(manifest, [csvRemote], o, into);
  const csvFile: PlannedFile = { remote: csvRemote, dest: originalCsvPath(into, o.split) };
  if (!(await isVerified(manifest, csvFile))) {
    await fetchFile({
      client,
      file: csvRemote,
      dest: csvFile.dest,
      partial: partialPath(into, csvRemote.path),
      signal: o.signal,
      retry: o.retry,
      hashThread,
    });
    manifest.files[csvRemote.path] = await record(csvFile);
    await writer.save();
  }
  const csvText = await fs.readFile(csvFile.dest, 'utf8');
  const rows = parseMetadataCsv(csvText, `${o.repo}/${csvRemote.path}`);
  for (const r of rows) assertSafeTaskId(r.taskId, `${csvRemote.path} line ${r.line}`);
  const chosen = chooseTasks(rows, o);

  // 2. Only the chosen tasks' files.
  const listed = await client.list('data');
  const byPath = new Map(listed.map((f) => [f.path, f]));
  const planned: PlannedFile[] = [];
  const noCode: string[] = [];
  const withImage = new Set<string>();
  for (const r of chosen) {
    const code = byPath.get(`data/${r.taskId}/${TASK_FILES.code}`);
    if (!code) {
      noCode.push(r.taskId);
      continue;
    }
    planned.push({ remote: code, dest: path.join(taskDataDir(into, r.taskId), TASK_FILES.code), taskId: r.taskId });
    if (!o.images) continue;
    const image = byPath.get(`data/${r.taskId}/${TASK_FILES.image}`);
    if (image) {
      planned.push({ remote: image, dest: path.join(taskDataDir(into, r.taskId), TASK_FILES.image), taskId: r.taskId });
      withImage.add(r.taskId);
    } else emit({ type: 'warning', message: `${o.repo} has no data/${r.taskId}/${TASK_FILES.image}; the task runs without its own image.` });
  }
  if (noCode.length > 0) {
    throw new UserError(
      `${o.repo} at ${o.revision} lists ${plural(noCode.length, 'task')} of split "${o.split}" without data/<task_id>/${TASK_FILES.code}: ${shortList(noCode)}. Leave them out with --tasks, or use another revision.`,
    );
  }
  for (const f of planned) expectedDigest(f.remote);
  if (o.update) await forgetChanged(manifest, planned, into);
  else
    assertUnchanged(
      manifest,
      planned.map((f) => f.remote),
      o,
      into,
    );

  for (const r of chosen) manifest.tasks[r.taskId] = { images: withImage.has(r.taskId) || (manifest.tasks[r.taskId]?.images ?? false) };
  const splitTasks = new Set([...(manifest.splits[o.split]?.tasks ?? []), ...chosen.map((r) => r.taskId)]);
  manifest.splits[o.split] = { tasks: rows.map((r) => r.taskId).filter((id) => splitTasks.has(id)) };

  // 3. What is already here, what is missing, and whether it fits.
  const todo: PlannedFile[] = [];
  let haveBytes = 0;
  let partialBytes = 0;
  for (const f of planned) {
    if (await isVerified(manifest, f)) {
      haveBytes += f.remote.size;
      continue;
    }
    delete manifest.files[f.remote.path];
    if (await adoptIfGood(f, o.signal)) {
      manifest.files[f.remote.path] = await record(f);
      haveBytes += f.remote.size;
      continue;
    }
    todo.push(f);
    partialBytes += Math.min(f.remote.size, await sizeOf(partialPath(into, f.remote.path)));
  }
  const totalBytes = planned.reduce((n, f) => n + f.remote.size, 0);
  const needBytes = totalBytes - haveBytes - partialBytes;
  const free = await assertFreeSpace(
    stateDir(into),
    needBytes,
    `${plural(chosen.length, 'task')} of ${o.repo} (${plural(todo.length, 'file')} to fetch)`,
    `Free space there, choose a folder on a larger disk with --into, fetch fewer tasks with --tasks or --first${o.images ? ', or leave the images out with --no-images' : ''}.`,
  );
  await writer.save();
  const ready = new Set(chosen.map((r) => r.taskId).filter((id) => isTaskComplete(manifest, id)));
  /** Tasks that became complete are announced, and the split CSVs rewritten only then. */
  const writeSplitCsv = async () => {
    let added = false;
    for (const r of chosen) {
      if (ready.has(r.taskId) || !isTaskComplete(manifest, r.taskId)) continue;
      ready.add(r.taskId);
      added = true;
      emit({ type: 'task-ready', taskId: r.taskId });
    }
    if (added) await writeSplitCsvs(into, manifest, (id) => isTaskComplete(manifest, id));
  };
  await writeSplitCsvs(into, manifest, (id) => isTaskComplete(manifest, id));
  emit({
    type: 'plan',
    repo: o.repo,
    revision: o.revision,
    split: o.split,
    tasks: chosen.length,
    files: planned.length,
    totalBytes,
    haveBytes,
    needBytes,
    freeBytes: free,
  });

  // 4. Fetch, a few files at a time; a task is listed in metadata/ once all its files are verified.
  const tracker = new ProgressTracker(totalBytes, haveBytes);
  handle.tracker = tracker;
  let received = 0;
  const queue = [...todo];
  // The Hub client's look-up of a file's URL (a round trip, two with its redirect) is made while
  // the file before it is fetched, so a job goes from one file's last byte to the next one's first
  // without waiting for it; not for a file whose partial file is whole (it is only verified). A
  // look-up that fails is reported when its file is fetched.
  const lookups = new Map<string, Promise<{ url: string; size: number } | undefined>>();
  const lookUp = (f: PlannedFile | undefined) => {
    if (!f || lookups.has(f.remote.path)) return;
    const p = sizeOf(partialPath(into, f.remote.path)).then((have) => (have === f.remote.size ? undefined : client.resolve(f.remote.path)));
    p.catch(() => undefined);
    lookups.set(f.remote.path, p);
  };
  // What follows a verified file (its record in the manifest, written to disk; file-done; the
  // split CSVs once a task is complete) runs in this chain, one file after another, while the job
  // fetches its next file. The file is in place before its record: a kill in between leaves a
  // file the next run hashes once and adopts (adoptIfGood), never a record of a file not there.
  let books: Promise<void> = Promise.resolve();
  const worker = async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const file = f;
      lookUp(file);
      lookUp(queue[0]);
      const resumeFrom = Math.min(file.remote.size, await sizeOf(partialPath(into, file.remote.path)));
      tracker.start(file.remote.path, file.remote.size);
      emit({ type: 'file-start', path: file.remote.path, size: file.remote.size, resumeFrom });
      const r = await fetchFile({
        client,
        file: file.remote,
        dest: file.dest,
        partial: partialPath(into, file.remote.path),
        resolved: lookups.get(file.remote.path),
        signal: o.signal,
        retry: o.retry,
        hashThread,
        onProgress: (bytesOnDisk) => {
          tracker.update(file.remote.path, bytesOnDisk);
          emit({ type: 'bytes', path: file.remote.path, bytesOnDisk });
        },
        onRetry: (reason, waitMs, attempt) => emit({ type: 'retry', path: file.remote.path, reason, waitMs, attempt }),
        onMismatch: (got) => emit({ type: 'mismatch', path: file.remote.path, got, expected: expectedDigest(file.remote).hex }),
      });
      lookups.delete(file.remote.path);
      received += r.received;
      const rec = await record(file);
      books = books.then(async () => {
        manifest.files[file.remote.path] = rec;
        await writer.save();
        tracker.finish(file.remote.path);
        emit({ type: 'file-done', path: file.remote.path, size: file.remote.size, received: r.received, resumedFrom: r.resumedFrom });
        await writeSplitCsv();
      });
      // A failed record stops the jobs from taking more files (the chain keeps the error for the end).
      books.catch(() => queue.splice(0));
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(o.jobs, todo.length)) }, () => worker());
  const settled = await Promise.allSettled(workers);
  // The chain as it stands once every job is done (jobs append to it until then).
  const booked = await books.then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const failure = failed ? (failed.reason as Error) : booked;
  if (failure !== undefined) {
    // The others stop at their next chunk: their partial files are kept for the next run.
    throw failure instanceof Error && failure.name === 'AbortError' ? new AbortError() : failure;
  }
  return { datasetDir: into, split: o.split, tasks: chosen.map((r) => r.taskId), files: planned.length, received, skippedBytes: haveBytes, tracker };
}

/**
 * The folder is empty, or holds an earlier download of the same repository and revision (whose
 * manifest is returned); anything else is refused with what to do. Reads only.
 */
export async function claimFolder(into: string, o: Pick<HubTarget, 'repo' | 'revision'>): Promise<DownloadManifest | undefined> {
  const manifest = await readManifest(into);
  if (manifest) {
    if (manifest.repo !== o.repo || manifest.revision !== o.revision) {
      throw new UserError(
        `${into} holds ${manifest.repo} at revision ${manifest.revision}, not ${o.repo} at ${o.revision}. Download into another folder with --into, or pass --repo ${manifest.repo} --revision ${manifest.revision} to continue that one.`,
      );
    }
    return manifest;
  }
  const entries = (await fs.readdir(into)).filter((n) => n !== '.sweci-download');
  if (entries.includes('metadata') || entries.includes('data')) {
    throw new UserError(
      `${into} already holds a dataset that sweci did not download (it has ${entries.filter((n) => n === 'metadata' || n === 'data').join(' and ')}/ but no ${path.join('.sweci-download', 'manifest.json')}). Download into an empty folder with --into; sweci dataset info ${into} shows what it holds.`,
    );
  }
  return undefined;
}

function chooseTasks(rows: MetadataRow[], o: DownloadOptions): MetadataRow[] {
  if (o.tasks && o.tasks.length > 0) {
    const known = new Set(rows.map((r) => r.taskId));
    const unknown = o.tasks.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new UserError(
        `Split "${o.split}" of ${o.repo} has no task ${shortList(unknown.map((id) => `"${id}"`))}. It has ${plural(rows.length, 'task')}: ${shortList(rows.map((r) => r.taskId))}.`,
      );
    }
    const want = new Set(o.tasks);
    return rows.filter((r) => want.has(r.taskId));
  }
  if (o.first !== undefined) return rows.slice(0, o.first);
  return rows;
}

function shortList(items: string[], n = 5): string {
  return items.slice(0, n).join(', ') + (items.length > n ? `, and ${items.length - n} more` : '');
}

/** Files whose Hub hash differs from the one verified here are refused, named with both hashes. */
function assertUnchanged(manifest: DownloadManifest, remotes: RemoteFile[], o: DownloadOptions, into: string): void {
  const changed: string[] = [];
  for (const r of remotes) {
    const had = manifest.files[r.path];
    if (!had) continue;
    const was = had.sha256 ?? had.gitOid;
    const now = r.sha256 ?? r.gitOid;
    if (was !== now || had.size !== r.size) changed.push(`${r.path} (had ${was}, the Hub now has ${now})`);
  }
  if (changed.length > 0) {
    throw new UserError(
      `${plural(changed.length, 'file')} of ${o.repo} at ${o.revision} changed on the Hub since they were downloaded into ${into}: ${shortList(changed, 3)}. ` +
        `Run again with --update to fetch the new versions, or keep these with --revision set to the commit you downloaded.`,
    );
  }
}

/** --update: files that changed on the Hub are removed here, and their tasks leave metadata/ until fetched again. */
async function forgetChanged(manifest: DownloadManifest, planned: PlannedFile[], into: string): Promise<void> {
  for (const f of planned) {
    const had = manifest.files[f.remote.path];
    if (!had) continue;
    if ((had.sha256 ?? had.gitOid) === (f.remote.sha256 ?? f.remote.gitOid) && had.size === f.remote.size) continue;
    delete manifest.files[f.remote.path];
    await fs.rm(f.dest, { force: true });
    await fs.rm(partialPath(into, f.remote.path), { force: true });
  }
}

async function sizeOf(p: string): Promise<number> {
  try {
    return (await fs.stat(p)).size;
  } catch {
    return 0;
  }
}

/** Verified earlier and untouched since (same size and mtime): not hashed again. */
async function isVerified(manifest: DownloadManifest, f: PlannedFile): Promise<boolean> {
  const had = manifest.files[f.remote.path];
  if (!had || had.size !== f.remote.size || (had.sha256 ?? had.gitOid) !== (f.remote.sha256 ?? f.remote.gitOid)) return false;
  try {
    const st = await fs.stat(f.dest);
    return st.isFile() && st.size === had.size && st.mtimeMs === had.mtimeMs;
  } catch {
    return false;
  }
}

/** A file in place but not on record (a run stopped between rename and record): kept if its hash is right. */
async function adoptIfGood(f: PlannedFile, signal?: AbortSignal): Promise<boolean> {
  let st;
  try {
    st = await fs.stat(f.dest);
  } catch {
    return false;
  }
  if (st.isFile() && st.size === f.remote.size && (await digestOnDisk(f.remote, f.dest, signal)) === expectedDigest(f.remote).hex) return true;
  await fs.rm(f.dest, { force: true, recursive: true });
  return false;
}

async function record(f: PlannedFile): Promise<FileRecord> {
  const st = await fs.stat(f.dest);
  const r: FileRecord = { size: f.remote.size, mtimeMs: st.mtimeMs };
  if (f.remote.sha256) r.sha256 = f.remote.sha256;
  if (f.remote.gitOid) r.gitOid = f.remote.gitOid;
  return r;
}

/** Every file a task was asked for is verified (by the record). */
export function isTaskComplete(manifest: DownloadManifest, taskId: string): boolean {
  const t = manifest.tasks[taskId];
  if (!t) return false;
  const base = `data/${taskId}/`;
  if (!manifest.files[base + TASK_FILES.code]) return false;
  // `images` is set only when an image was asked for and the Hub lists one.
  return !t.images || manifest.files[base + TASK_FILES.image] !== undefined;
}

/** metadata/<split>.csv for each split downloaded: the Hub's rows of the tasks that are complete. */
export async function writeSplitCsvs(into: string, manifest: DownloadManifest, complete: (taskId: string) => boolean): Promise<void> {
  for (const split of Object.keys(manifest.splits)) {
    const original = originalCsvPath(into, split);
    let text: string;
    try {
      text = await fs.readFile(original, 'utf8');
    } catch {
      continue;
    }
    const rows = parseMetadataCsv(text, original);
    const asked = new Set(manifest.splits[split].tasks);
    await writeFileAtomic(
      metadataFile(into, split),
      filterCsvRows(text, rows, (id) => asked.has(id) && complete(id)),
    );
  }
}
