// What a dataset repository offers before anything is downloaded: its splits, and a split's tasks
// with the size of each task's files, so a picker can show what a choice will cost on disk.
import { parseMetadataCsv, type MetadataRow } from '../task/csv-metadata';
import { rowRepo } from '../task/dataset';
import { UserError } from '../util/errors';
import type { HubClient } from './hub-client';
import { TASK_FILES } from './download-dataset';

export interface RemoteTask {
  row: MetadataRow;
  repo?: string;
  codeBytes: number;
  /** Undefined when the repository has no image for the task. */
  imageBytes?: number;
}

export interface RemoteSplit {
  split: string;
  tasks: RemoteTask[];
}

/** The splits: metadata/<split>.csv files, in the Hub's order. */
export async function listRemoteSplits(client: HubClient): Promise<string[]> {
  const files = await client.list('metadata');
  const splits = files.map((f) => /^metadata\/([^/]+)\.csv$/.exec(f.path)?.[1]).filter((s): s is string => s !== undefined);
  if (splits.length === 0) {
    const { repo, revision } = client.target;
    throw new UserError(`${repo} at ${revision} has no metadata/<split>.csv, so it is not a SWE-CI dataset. Check the repository (sweci.dataset.repo).`);
  }
  return splits;
}

/**
 * A split's rows (read into memory, not onto disk) and the sizes of the files each task would
 * fetch; `step` hears what it is reading (a progress notification shows it).
 */
export async function readRemoteSplit(client: HubClient, split: string, step?: (message: string) => void): Promise<RemoteSplit> {
  const csvPath = `metadata/${split}.csv`;
  step?.(`its task list (${csvPath})`);
  const { url } = await client.resolve(csvPath);
  const res = await client.fetch(url, { headers: client.authHeaders(url) });
  if (!res.ok) throw client.statusError(res.status, res.headers.get('x-error-code') ?? undefined, `resolve ${csvPath}`);
  const rows = parseMetadataCsv(await res.text(), `${client.target.repo}/${csvPath}`);
  step?.(`the sizes of ${rows.length} task${rows.length === 1 ? '' : 's'}\u2019 files`);
  const sizes = new Map((await client.list('data')).map((f) => [f.path, f.size]));
  const tasks = rows.map((row) => {
    const image = sizes.get(`data/${row.taskId}/${TASK_FILES.image}`);
    const repo = rowRepo(row.row);
    return {
      row,
      ...(repo ? { repo } : {}),
      codeBytes: sizes.get(`data/${row.taskId}/${TASK_FILES.code}`) ?? 0,
      ...(image !== undefined ? { imageBytes: image } : {}),
    };
  });
  return { split, tasks };
}
