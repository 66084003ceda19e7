// Every path under a folder, sorted and relative ('a/b.txt'): tests compare trees with it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * A path in a task's discard bin (`.sweci/discard`, util/discard.ts): the harness deletes what is
 * there in the background, so it may vanish while a test walks the tree. Only there is a path that
 * is gone no error.
 */
export const inDiscardBin = (p: string): boolean => /(^|\/)\.sweci\/discard(\/|$)/.test(p.split(path.sep).join('/'));

/** `op`'s result, or undefined when `p` is in a discard bin and was deleted meanwhile. */
async function unlessSettled<T>(p: string, op: () => Promise<T>): Promise<T | undefined> {
  try {
    return await op();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && inDiscardBin(p)) return undefined;
    throw err;
  }
}

export async function listTree(dir: string, filesOnly = false): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string): Promise<void> => {
    for (const e of (await unlessSettled(d, () => fs.readdir(d, { withFileTypes: true }))) ?? []) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!filesOnly || !e.isDirectory()) out.push(r);
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
    }
  };
  await walk(dir, '');
  return out.sort();
}

/** Every file below `dir` whose bytes hold `needle` (a key, a secret), sorted. */
export async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const rel of await listTree(dir, true)) {
    const p = path.join(dir, rel);
    const st = await unlessSettled(p, () => fs.lstat(p));
    const bytes = st?.isFile() ? await unlessSettled(p, () => fs.readFile(p)) : undefined;
    if (bytes?.includes(needle)) found.push(p);
  }
  return found;
}
