// What sweci downloaded into a dataset folder, kept beside it in .sweci-download/: the repository
// and revision, each verified file's size and hash, and the tasks asked for. It is what tells a
// folder of ours from another dataset, a changed remote file from a local one, and lets a rerun
// skip verified files without hashing 50 GB again.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { UserError, errorMessage } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';

export const STATE_DIR = '.sweci-download';

export function stateDir(datasetDir: string): string {
  return path.join(datasetDir, STATE_DIR);
}
export function manifestPath(datasetDir: string): string {
  return path.join(stateDir(datasetDir), 'manifest.json');
}
/** The split's CSV as the Hub serves it; metadata/<split>.csv holds only the rows of complete tasks. */
export function originalCsvPath(datasetDir: string, split: string): string {
  return path.join(stateDir(datasetDir), 'metadata', `${split}.csv`);
}
/** Where a file's bytes gather until verified: never under data/, so no reader takes them for a task. */
export function partialPath(datasetDir: string, repoPath: string): string {
  return path.join(stateDir(datasetDir), 'partial', `${repoPath}.part`);
}

const fileRecordSchema = z.object({
  size: z.number().int().nonnegative(),
  sha256: z.string().optional(),
  gitOid: z.string().optional(),
  /** The file's mtime when it was verified: a rerun trusts an unchanged file without hashing it. */
  mtimeMs: z.number(),
});
export type FileRecord = z.infer<typeof fileRecordSchema>;

const manifestSchema = z.object({
  format: z.literal(1),
  repo: z.string(),
  revision: z.string(),
  endpoint: z.string(),
  /** Split name -> the task ids asked for from it. */
  splits: z.record(z.string(), z.object({ tasks: z.array(z.string()) })),
  /** Task id -> whether its image was asked for. */
  tasks: z.record(z.string(), z.object({ images: z.boolean() })),
  /** Repository path -> the verified file. */
  files: z.record(z.string(), fileRecordSchema),
});
export type DownloadManifest = z.infer<typeof manifestSchema>;

export async function readManifest(datasetDir: string): Promise<DownloadManifest | undefined> {
  const file = manifestPath(datasetDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`Cannot read ${file}. Check its permissions.`, { detail: errorMessage(err), cause: err });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not valid JSON. Remove it and run sweci dataset verify ${datasetDir} --fix, or download into a new folder.`, {
      detail: errorMessage(err),
    });
  }
  const r = manifestSchema.safeParse(parsed);
  if (!r.success) {
    throw new UserError(`${file} is not a download record sweci understands. Remove it and download into a new folder.`, { detail: r.error.message });
  }
  return r.data;
}

/** Manifest writes, one at a time and whole (several files finish at once). */
export class ManifestWriter {
  private chain: Promise<void> = Promise.resolve();
  constructor(
    private readonly datasetDir: string,
    readonly manifest: DownloadManifest,
  ) {}

  save(): Promise<void> {
    const next = this.chain.then(() => writeFileAtomic(manifestPath(this.datasetDir), JSON.stringify(this.manifest, null, 1) + '\n'));
    this.chain = next.catch(() => undefined);
    return next;
  }
}
