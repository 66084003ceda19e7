// sweci dataset verify and info: every file of a download against the hash recorded for it, and
// what a dataset folder holds (splits, tasks, sizes, what is missing), ours or not.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseMetadataCsv } from '../task/csv-metadata';
import { listSplits, metadataFile, taskDataDir } from '../task/dataset';
import { UserError } from '../util/errors';
import { digestOnDisk } from './fetch-file';
import { isTaskComplete, TASK_FILES, writeSplitCsvs } from './download-dataset';
import { ManifestWriter, originalCsvPath, readManifest, type DownloadManifest } from './download-manifest';

/** Where a file of the repository lives in the folder. */
export function localPath(datasetDir: string, repoPath: string): string {
  const m = /^metadata\/([^/]+)\.csv$/.exec(repoPath);
  return m ? originalCsvPath(datasetDir, m[1]) : path.join(datasetDir, ...repoPath.split('/'));
}

export interface BadFile {
  path: string;
  problem: 'missing' | 'size' | 'hash';
  detail: string;
}

export interface VerifyResult {
  manifest: DownloadManifest;
  checked: number;
  bytes: number;
  bad: BadFile[];
}

export async function requireManifest(datasetDir: string): Promise<DownloadManifest> {
  const manifest = await readManifest(datasetDir);
  if (!manifest) {
    throw new UserError(
      `${datasetDir} was not downloaded by sweci (it has no .sweci-download/manifest.json), so there are no recorded hashes to check it against. sweci dataset info ${datasetDir} shows what it holds.`,
    );
  }
  return manifest;
}

/** Hashes every recorded file; `onFile` hears each as it is done. */
export async function verifyDataset(datasetDir: string, signal?: AbortSignal, onFile?: (p: string, bad?: BadFile) => void): Promise<VerifyResult> {
  const manifest = await requireManifest(datasetDir);
  const bad: BadFile[] = [];
  let bytes = 0;
  const entries = Object.entries(manifest.files).sort(([a], [b]) => a.localeCompare(b));
  for (const [repoPath, rec] of entries) {
    const at = localPath(datasetDir, repoPath);
    let problem: BadFile | undefined;
    const st = await fs.stat(at).catch(() => undefined);
    if (!st?.isFile()) problem = { path: repoPath, problem: 'missing', detail: `${at} is missing` };
    else if (st.size !== rec.size) problem = { path: repoPath, problem: 'size', detail: `${st.size} bytes, the Hub's file has ${rec.size}` };
    else {
      const got = await digestOnDisk({ path: repoPath, size: rec.size, sha256: rec.sha256, gitOid: rec.gitOid }, at, signal);
      const want = rec.sha256 ?? rec.gitOid;
      if (got !== want) problem = { path: repoPath, problem: 'hash', detail: `${rec.sha256 ? 'SHA-256' : 'git blob id'} ${got}, the Hub's is ${want}` };
      bytes += rec.size;
    }
    if (problem) bad.push(problem);
    onFile?.(repoPath, problem);
  }
  return { manifest, checked: entries.length, bytes, bad };
}

/** --fix, first half: bad files go, and their tasks leave metadata/ until fetched again. */
export async function forgetBadFiles(datasetDir: string, result: VerifyResult): Promise<void> {
  const writer = new ManifestWriter(datasetDir, result.manifest);
  for (const b of result.bad) {
    delete result.manifest.files[b.path];
    await fs.rm(localPath(datasetDir, b.path), { force: true });
  }
  await writer.save();
  await writeSplitCsvs(datasetDir, result.manifest, (id) => isTaskComplete(result.manifest, id));
}

export interface SplitInfo {
  split: string;
  /** Rows of the split (the Hub's CSV for a download of ours). */
  rows: number;
  /** Tasks asked for (a download of ours) or every row (any other folder). */
  asked: number;
  /** Tasks whose files are all here: the ones sweci run reads. */
  complete: number;
  missing: Array<{ taskId: string; files: string[] }>;
}

export interface DatasetInfo {
  datasetDir: string;
  source?: { repo: string; revision: string; endpoint: string };
  splits: SplitInfo[];
  /** Bytes of the tasks' files present. */
  bytes: number;
  codeZips: number;
  images: number;
  /** Bytes waiting in partial files (a download that stopped). */
  partialBytes: number;
}

async function sizeIfFile(p: string): Promise<number | undefined> {
  const st = await fs.stat(p).catch(() => undefined);
  return st?.isFile() ? st.size : undefined;
}

async function dirBytes(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let n = 0;
  for (const e of entries) if (e.isFile()) n += (await sizeIfFile(path.join(e.parentPath, e.name))) ?? 0;
  return n;
}

export async function datasetInfo(datasetDir: string): Promise<DatasetInfo> {
  const manifest = await readManifest(datasetDir);
  const info: DatasetInfo = { datasetDir, splits: [], bytes: 0, codeZips: 0, images: 0, partialBytes: 0 };
  const seen = new Set<string>();
  const count = async (taskId: string) => {
    if (seen.has(taskId)) return;
    seen.add(taskId);
    for (const [name, kind] of [
      [TASK_FILES.code, 'codeZips'],
      [TASK_FILES.image, 'images'],
    ] as const) {
      const size = await sizeIfFile(path.join(taskDataDir(datasetDir, taskId), name));
      if (size === undefined) continue;
      info.bytes += size;
      info[kind]++;
    }
  };
  if (manifest) {
    info.source = { repo: manifest.repo, revision: manifest.revision, endpoint: manifest.endpoint };
    info.partialBytes = await dirBytes(path.join(datasetDir, '.sweci-download', 'partial'));
    for (const [split, s] of Object.entries(manifest.splits).sort(([a], [b]) => a.localeCompare(b))) {
      const text = await fs.readFile(originalCsvPath(datasetDir, split), 'utf8').catch(() => undefined);
      const rows = text === undefined ? 0 : parseMetadataCsv(text, originalCsvPath(datasetDir, split)).length;
      const missing: SplitInfo['missing'] = [];
      for (const id of s.tasks) {
        await count(id);
        if (isTaskComplete(manifest, id)) continue;
        const files = [TASK_FILES.code, ...(manifest.tasks[id]?.images ? [TASK_FILES.image] : [])].filter((f) => !manifest.files[`data/${id}/${f}`]);
        missing.push({ taskId: id, files });
      }
      info.splits.push({ split, rows, asked: s.tasks.length, complete: s.tasks.length - missing.length, missing });
    }
    return info;
  }
  for (const split of await listSplits(datasetDir)) {
    const file = metadataFile(datasetDir, split);
    const rows = parseMetadataCsv(await fs.readFile(file, 'utf8'), file);
    const missing: SplitInfo['missing'] = [];
    for (const r of rows) {
      await count(r.taskId);
      if ((await sizeIfFile(path.join(taskDataDir(datasetDir, r.taskId), TASK_FILES.code))) === undefined)
        missing.push({ taskId: r.taskId, files: [TASK_FILES.code] });
    }
    info.splits.push({ split, rows: rows.length, asked: rows.length, complete: rows.length - missing.length, missing });
  }
  return info;
}
