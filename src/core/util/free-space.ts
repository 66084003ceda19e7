// Free disk space, checked before a large write so a shortfall is refused up front with the
// numbers instead of failing halfway with ENOSPC.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from './errors';

/** Bytes an unprivileged writer may still use on the filesystem holding `at` (or its nearest existing parent). */
export async function freeBytes(at: string): Promise<number | undefined> {
  let dir = path.resolve(at);
  for (;;) {
    try {
      const st = await fs.statfs(dir);
      return Number(st.bavail) * Number(st.bsize);
    } catch (err) {
      const parent = path.dirname(dir);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) return undefined;
      dir = parent;
    }
  }
}

/** 1.5 GB, 12.0 MB, 512 B: decimal units, as disks are sold and `df -H` shows them. */
export function formatBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(1)} ${units[u]}`;
}

/** Refuses when `needed` bytes do not fit at `at`; `what` names the write (e.g. "the download"). */
export async function assertFreeSpace(at: string, needed: number, what: string, fix: string): Promise<number | undefined> {
  const free = await freeBytes(at);
  if (free !== undefined && needed > free) {
    throw new UserError(
      `Not enough disk space for ${what}: it needs ${formatBytes(needed)} (${needed} bytes) and ${at} has ${formatBytes(free)} (${free} bytes) free. ${fix}`,
    );
  }
  return free;
}
