// Every path under a folder, sorted and relative ('a/b.txt'): tests compare trees with it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export async function listTree(dir: string, filesOnly = false): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
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
    const st = await fs.lstat(p);
    if (st.isFile() && (await fs.readFile(p)).includes(needle)) found.push(p);
  }
  return found;
}
