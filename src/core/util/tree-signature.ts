// A cheap fingerprint of a folder: every entry's path, type, size, inode, mode and change time
// (ctime, which no process can set back). Equal fingerprints mean nothing in it was written,
// replaced, added or removed since; no file is read.
import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

// Synchronous calls: they walk a .git several times faster than one promise per entry.
export function treeSignature(dir: string): string {
  const parts: string[] = [];
  const walk = (abs: string, rel: string): void => {
    let st;
    try {
      st = lstatSync(abs, { bigint: true });
    } catch {
      st = undefined;
    }
    if (!st) {
      parts.push(`${rel}:missing`);
      return;
    }
    parts.push(`${rel}:${st.mode}:${st.size}:${st.ino}:${st.ctimeNs}`);
    if (!st.isDirectory()) return;
    let names: string[] = [];
    try {
      names = readdirSync(abs).sort();
    } catch {
      // unreadable or gone: its own entry above still says what it was
    }
    for (const name of names) walk(path.join(abs, name), `${rel}/${name}`);
  };
  walk(dir, '.');
  return parts.join('\n');
}
