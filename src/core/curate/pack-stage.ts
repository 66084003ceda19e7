// Packing the kept candidates as a SWE-CI dataset, laid out as the published one:
// metadata/<split>.csv (task_id, repo, current_sha, target_sha, current_date, target_date,
// test_gap) and data/<task_id>/code.zip (the repository with its history) + image.tar.gz (a
// gzipped `docker save` of the candidate's image). Every file is written beside its place and
// renamed into it; the CSV is written last, from every kept record, so a kill leaves no row
// whose files are half-written.
import { createWriteStream, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ZipFile } from 'yazl';
import type { DockerConnection } from '../runtime/docker/docker-connection';
import { engineMessage } from '../runtime/docker/docker-errors';
import { metadataFile, taskDataDir } from '../task/dataset';
import { assertSafeTaskId } from '../task/task-id';
import { UserError, throwIfAborted } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { gitRunner } from '../util/git';
import { writeRecords, type CandidateRecord, type CurationManifest } from './curation-store';
import { repoSlug } from './env-stage';

export interface PackStageOptions {
  split: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export const DEFAULT_SPLIT = 'default';
const COLUMNS = ['task_id', 'repo', 'current_sha', 'target_sha', 'current_date', 'target_date', 'test_gap'];

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Zips `dir` as `<prefix>/…`, modes and symlinks kept, into `zipPath`. */
async function zipFolder(dir: string, prefix: string, zipPath: string): Promise<void> {
  const zip = new ZipFile();
  const walk = async (rel: string): Promise<void> => {
    for (const e of (await fs.readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const abs = path.join(dir, r);
      const st = await fs.lstat(abs);
      if (e.isDirectory()) {
        // Empty folders too: git needs its refs/ even when every ref is packed.
        zip.addEmptyDirectory(`${prefix}/${r}`, { mode: st.mode, mtime: st.mtime });
        await walk(r);
      } else if (e.isSymbolicLink()) zip.addBuffer(Buffer.from(await fs.readlink(abs)), `${prefix}/${r}`, { mode: st.mode, mtime: st.mtime });
      else if (e.isFile()) zip.addFile(abs, `${prefix}/${r}`, { mode: st.mode, mtime: st.mtime });
    }
  };
  await walk('');
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipPath));
}

/** The repository with every commit of the mined branch, as a work tree with its .git. */
async function codeZip(repoDir: string, slug: string, zipPath: string, scratch: string, signal?: AbortSignal): Promise<void> {
  const work = path.join(scratch, slug);
  await fs.rm(work, { recursive: true, force: true });
  await fs.mkdir(work, { recursive: true });
  // A mirror keeps every branch as a branch: a clone of the unpacked zip (checkout does one) still has them.
  await gitRunner(scratch, { signal }).raw(['clone', '--quiet', '--mirror', '--', repoDir, path.join(work, '.git')]);
  const git = gitRunner(work, { signal });
  await git.raw(['config', 'core.bare', 'false']);
  await git.raw(['remote', 'remove', 'origin']).catch(() => undefined);
  await git.raw(['reset', '--quiet', '--hard']);
  const part = `${zipPath}.part`;
  await zipFolder(work, slug, part);
  await fs.rename(part, zipPath);
  await fs.rm(work, { recursive: true, force: true });
}

/** `docker save <image> | gzip` into `file`, whole or not at all. */
async function saveImage(conn: DockerConnection, image: string, file: string): Promise<void> {
  const part = `${file}.part`;
  try {
    const stream = await conn.docker.getImage(image).get();
    await pipeline(stream, createGzip({ level: 1 }), createWriteStream(part));
  } catch (err) {
    await fs.rm(part, { force: true });
    throw new UserError(
      `Could not save the image ${image}: ${engineMessage(err)}. Run the env stage again to rebuild it (move its record aside), or check the engine.`,
      {
        cause: err,
      },
    );
  }
  await fs.rename(part, file);
}

/** Gives `dest` the contents of `source`: a hard link when the file system allows, else a copy. */
async function linkOrCopy(source: string, dest: string): Promise<void> {
  await fs.rm(dest, { force: true });
  await fs.link(source, dest).catch(() => fs.copyFile(source, dest));
}

/** Packs every candidate the filter kept; `records` is updated in place and written after each task. */
export async function runPackStage(
  conn: DockerConnection,
  out: string,
  repoDir: string,
  manifest: CurationManifest,
  records: CandidateRecord[],
  options: PackStageOptions,
): Promise<void> {
  const slug = repoSlug(manifest.source);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-pack-'));
  // One code.zip for the curation and one archive per image: the other tasks link to them.
  const zips: string[] = records.filter((r) => r.outcome === 'kept' && r.taskId).map((r) => path.join(taskDataDir(out, r.taskId as string), 'code.zip'));
  const archives = new Map<string, string>();
  for (const r of records) if (r.outcome === 'kept' && r.taskId && r.image) archives.set(r.image, path.join(taskDataDir(out, r.taskId), 'image.tar.gz'));
  try {
    for (const r of records) {
      if (r.stage !== 'filter' || r.outcome !== 'pending' || !r.image) continue;
      throwIfAborted(options.signal);
      const started = performance.now();
      const taskId = `${slug}__${r.id}`;
      assertSafeTaskId(taskId, 'sweci curate');
      options.onProgress?.(`pack: ${taskId}`);
      const dir = taskDataDir(out, taskId);
      await fs.mkdir(dir, { recursive: true });
      const zipPath = path.join(dir, 'code.zip');
      const existingZip = zips.find((z) => z !== zipPath);
      if (existingZip) await linkOrCopy(existingZip, zipPath);
      else await codeZip(repoDir, slug, zipPath, scratch, options.signal);
      zips.push(zipPath);
      const imagePath = path.join(dir, 'image.tar.gz');
      const existingImage = archives.get(r.image);
      if (existingImage && existingImage !== imagePath) await linkOrCopy(existingImage, imagePath);
      else await saveImage(conn, r.image, imagePath);
      archives.set(r.image, imagePath);
      r.taskId = taskId;
      r.stage = 'pack';
      r.outcome = 'kept';
      r.stages.pack = { outcome: 'passed', at: new Date().toISOString(), seconds: Math.round((performance.now() - started) / 10) / 100 };
      await writeRecords(out, records);
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
  const kept = records.filter((r) => r.outcome === 'kept' && r.taskId);
  const rows = kept.map((r) => [r.taskId as string, slug, r.base, r.oracle, r.baseTime, r.oracleTime, String(r.gap ?? '')].map(csvField).join(','));
  const file = metadataFile(out, options.split);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${COLUMNS.join(',')}\n${rows.map((row) => `${row}\n`).join('')}`);
}
