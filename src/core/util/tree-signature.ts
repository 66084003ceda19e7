// A cheap fingerprint of a folder: every entry's path, type, size, inode, mode and change time
// (ctime, which no process can set back). Equal fingerprints mean nothing in it was written,
// replaced, added or removed since; no file is read.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export async function treeSignature(dir: string): Promise<string> {
  const parts: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    const st = await fs.lstat(abs, { bigint: true }).catch(() => undefined);
    if (!st) {
      parts.push(`${rel}:missing`);
      return;
    }
    parts.push(`${rel}:${st.mode}:${st.size}:${st.ino}:${st.ctimeNs}`);
    if (!st.isDirectory()) return;
    const names = (await fs.readdir(abs).catch(() => [] as string[])).sort();
    for (const name of names) await walk(path.join(abs, name), `${rel}/${name}`);
  };
  await walk(dir, '.');
  return parts.join('\n');
}
