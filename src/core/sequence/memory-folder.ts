// A sequence's memory: a folder the agents keep notes in, carried from task to task. It lives in
// the experiment (<E>/memory) between tasks and in the task's app/memory while the task runs, so
// a sandboxed agent reaches it with the rest of app/. Links an agent left there are not carried.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { copyTree } from '../util/copy-tree';
import type { TaskFolder } from '../workspace/task-folder';

function experimentMemoryDir(experimentDir: string): string {
  return path.join(path.resolve(experimentDir), 'memory');
}

/** Replaces `dest` with a copy of `src` (an empty folder when `src` is missing); swapped in whole. */
async function replaceWithCopy(src: string, dest: string): Promise<void> {
  const staging = `${dest}.incoming`;
  await fs.rm(staging, { recursive: true, force: true });
  const st = await fs.lstat(src).catch(() => undefined);
  if (st?.isDirectory()) await copyTree(src, staging, { links: 'skip' });
  else await fs.mkdir(staging, { recursive: true });
  await fs.rm(dest, { recursive: true, force: true });
  await fs.rename(staging, dest);
}

/** Before a task's loop: its app/memory becomes what the earlier tasks left. */
export async function carryMemoryIn(experimentDir: string, task: TaskFolder): Promise<void> {
  await replaceWithCopy(experimentMemoryDir(experimentDir), task.memoryDir);
}

/** After a task: what its agents left in app/memory becomes the experiment's memory. */
export async function carryMemoryOut(task: TaskFolder, experimentDir: string): Promise<void> {
  await replaceWithCopy(task.memoryDir, experimentMemoryDir(experimentDir));
}
