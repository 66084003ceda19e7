// What one step may hand the next through app/: the Programmer's code/, the Architect's
// requirement.xml, the harness's non-passed/ and a sequence's memory/. Anything else an agent left
// there (a CLI's project settings or hooks, notes, a large file) is removed before the next agent
// step and named in its record, so no role runs what the other planted.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { TaskLayout } from '../workspace/layout';

/** Removes every entry of app/ outside what the protocol carries; returns their names, sorted. */
export async function removeLeftovers(layout: Pick<TaskLayout, 'appDir' | 'codeDir' | 'nonPassedDir' | 'requirementFile' | 'memoryDir'>): Promise<string[]> {
  const keep = new Set([layout.codeDir, layout.nonPassedDir, layout.requirementFile, layout.memoryDir].map((p) => path.basename(p)));
  let names: string[];
  try {
    names = await fs.readdir(layout.appDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  // A kept name that is a link is not what the protocol carries either (it would point a bind
  // mount, or the other role, somewhere else).
  const isLink = async (n: string) => (await fs.lstat(path.join(layout.appDir, n)).catch(() => undefined))?.isSymbolicLink() === true;
  const removed: string[] = [];
  for (const n of names) if (!keep.has(n) || (await isLink(n))) removed.push(n);
  removed.sort();
  // rm does not follow links: a link to somewhere else is removed as a link.
  for (const n of removed) await fs.rm(path.join(layout.appDir, n), { recursive: true, force: true });
  return removed.map((n) => `app/${n}`);
}
