// When each task image SWE-CI loaded was last used, for the image budget's least-recently-used
// order. An image's labels cannot change after it is made, and the engine keeps no time of last
// use, so the record is ours: one small file per image in this user's cache, named by the image
// id, whose modification time is the last use and whose text names the tasks that used it.
// Writing a file whole and renaming it into place is atomic, so processes that use images at
// the same time need no lock; the worst a race costs is one task name in the list.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../util/fs-atomic';
import { userCacheDir } from '../../util/user-cache';

export interface ImageUse {
  lastUsed: Date;
  /** The tasks (data/<task_id>) whose archive the image was loaded from or used for, oldest first. */
  tasks: string[];
}

/** At most this many task names are kept per image (a shared environment image serves many). */
const MAX_TASKS = 20;

const useDir = (): string => path.join(userCacheDir(), 'image-use');

/** `sha256:<hex>` → its file; undefined for anything else (an id is never a path). */
function fileOf(id: string): string | undefined {
  const hex = /^sha256:([0-9a-f]{64})$/.exec(id)?.[1];
  return hex && path.join(useDir(), hex);
}

async function readTasks(file: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { tasks?: unknown };
    return Array.isArray(parsed.tasks) ? parsed.tasks.filter((t): t is string => typeof t === 'string').slice(-MAX_TASKS) : [];
  } catch {
    return [];
  }
}

/** Records that `id` is used now (by `task`, when known). A record that cannot be written only loses its place in the order. */
export async function recordImageUse(id: string, task?: string): Promise<void> {
  const file = fileOf(id);
  if (!file) return;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tasks = (await readTasks(file)).filter((t) => t !== task);
    if (task) tasks.push(task);
    await writeFileAtomic(file, `${JSON.stringify({ tasks: tasks.slice(-MAX_TASKS) })}\n`, { durable: false });
  } catch {
    // The cache may be read-only or full: the image then counts by its load time.
  }
}

/** The recorded use of `id`, or undefined when none is recorded. */
export async function readImageUse(id: string): Promise<ImageUse | undefined> {
  const file = fileOf(id);
  if (!file) return undefined;
  const st = await fs.stat(file).catch(() => undefined);
  if (!st?.isFile()) return undefined;
  return { lastUsed: st.mtime, tasks: await readTasks(file) };
}

/** Forgets an image that was removed. */
export async function forgetImageUse(id: string): Promise<void> {
  const file = fileOf(id);
  if (file) await fs.rm(file, { force: true }).catch(() => undefined);
}
