// A SWE-CI dataset folder: metadata/<split>.csv plus data/<task_id>/{code.zip,image.tar.gz}.
import { promises as fs } from 'node:fs';
import { plural } from '../util/plural';
import * as path from 'node:path';
import { UserError, errorMessage } from '../util/errors';
import { readMetadataCsv } from './csv-metadata';
import { assertSafeTaskId } from './task-id';
import type { DatasetTaskSource, TaskSpec } from './task-spec';

// Column names other datasets use for the same facts; the first non-empty one wins.
const REPO_COLUMNS = ['repo', 'repo_name', 'repository', 'full_name'];
const BASE_DATE_COLUMNS = ['current_date', 'current_commit_date', 'base_date', 'current_time'];
const TARGET_DATE_COLUMNS = ['target_date', 'target_commit_date', 'target_time'];

export function metadataDir(datasetDir: string): string {
  return path.join(datasetDir, 'metadata');
}

export function metadataFile(datasetDir: string, split: string): string {
  return path.join(metadataDir(datasetDir), `${split}.csv`);
}

export function taskDataDir(datasetDir: string, taskId: string): string {
  return path.join(datasetDir, 'data', taskId);
}

function notADataset(datasetDir: string, why: string): UserError {
  return new UserError(`${datasetDir} is not a SWE-CI dataset: ${why}. Choose the folder that holds metadata/<split>.csv and data/<task_id>/code.zip.`);
}

/** Names of the splits (`metadata/<split>.csv`), sorted. */
export async function listSplits(datasetDir: string): Promise<string[]> {
  let names: string[];
  try {
    const st = await fs.stat(datasetDir);
    if (!st.isDirectory()) throw notADataset(datasetDir, 'it is not a folder');
    names = await fs.readdir(metadataDir(datasetDir));
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw notADataset(datasetDir, 'it has no metadata/ folder');
    throw new UserError(`Cannot read the dataset folder ${datasetDir}. Check its permissions.`, {
      detail: errorMessage(err),
      cause: err,
    });
  }
  const splits = names
    .filter((n) => n.toLowerCase().endsWith('.csv') && n.length > 4)
    .map((n) => n.slice(0, -4))
    .sort();
  if (splits.length === 0) throw notADataset(datasetDir, 'metadata/ holds no .csv file');
  return splits;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
  } catch {
    return false;
  }
}

/** The repository a metadata row names, under any of the column names datasets use. */
export function rowRepo(row: Record<string, string>): string | undefined {
  return firstColumn(row, REPO_COLUMNS);
}

function firstColumn(row: Record<string, string>, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = row[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The tasks of one split, in file order. Fails on the first problem with a UserError. */
export async function readDatasetTasks(datasetDir: string, split: string): Promise<TaskSpec[]> {
  const splits = await listSplits(datasetDir);
  if (!splits.includes(split)) {
    throw new UserError(`The dataset ${datasetDir} has no split "${split}". Available: ${splits.join(', ')}.`);
  }
  const file = metadataFile(datasetDir, split);
  const rows = await readMetadataCsv(file);
  const seen = new Map<string, number>();
  const specs: TaskSpec[] = [];
  const missing: string[] = [];
  for (const r of rows) {
    assertSafeTaskId(r.taskId, `${file} line ${r.line}`);
    const prev = seen.get(r.taskId);
    if (prev !== undefined) {
      throw new UserError(`${file} line ${r.line}: task_id "${r.taskId}" already appears on line ${prev}. Task ids must be unique.`);
    }
    seen.set(r.taskId, r.line);

    const dataDir = taskDataDir(datasetDir, r.taskId);
    const zipPath = path.join(dataDir, 'code.zip');
    const imagePath = path.join(dataDir, 'image.tar.gz');
    if (!(await isFile(zipPath))) {
      missing.push(`${r.taskId} (line ${r.line})`);
      continue;
    }
    const source: DatasetTaskSource = { kind: 'dataset', datasetDir, split, zipPath, row: r.row };
    if (await isFile(imagePath)) source.imagePath = imagePath;
    const spec: TaskSpec = { id: r.taskId, baseSha: r.currentSha, targetSha: r.targetSha, source };
    const repo = rowRepo(r.row);
    if (repo) spec.repo = repo;
    const baseDate = firstColumn(r.row, BASE_DATE_COLUMNS);
    if (baseDate) spec.baseDate = baseDate;
    const targetDate = firstColumn(r.row, TARGET_DATE_COLUMNS);
    if (targetDate) spec.targetDate = targetDate;
    if (r.testGap !== undefined) spec.expectedGap = r.testGap;
    specs.push(spec);
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, and ${missing.length - 5} more` : '');
    throw new UserError(
      `The dataset ${datasetDir} is incomplete: data/<task_id>/code.zip is missing for ${plural(missing.length, 'task')} of split "${split}": ${shown}. Download those tasks' data or remove their rows.`,
    );
  }
  return specs;
}
