// How much room is left on a disk: the check that refuses a large write up front with the
// numbers (a download, a task's unpacking) instead of failing halfway with ENOSPC, and the floor
// below which the harness writes no more (each agent step and each line of a calls record). A
// full disk loses records (a write cut halfway, a status not saved); stopping above the floor
// keeps every record written so far whole and leaves room for the run's own closing lines.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from './errors';

/** The floor's default (sweci.agents.minFreeDiskMb): some capped call lines, and the run's closing records, fit well below it. */
export const DEFAULT_MIN_FREE_DISK_MB = 64;

/** Bytes an unprivileged writer may still use on the filesystem holding `at` (or its nearest existing parent), or undefined where the system cannot say. */
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

/** How a stop for a full disk begins, in every message that says so. */
export const DISK_NEARLY_FULL = 'disk nearly full';

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** What a stop for a full disk says: "disk nearly full: 12.0 MB free at /x, below the floor of 64 MB (sweci.agents.minFreeDiskMb)". */
export function diskNearlyFull(dir: string, free: number, floorBytes: number): string {
  return `${DISK_NEARLY_FULL}: ${mb(free)} free at ${dir}, below the floor of ${mb(floorBytes)} (sweci.agents.minFreeDiskMb)`;
}

/** A run stopped because its disk is nearly full: nothing more is written, what was written is whole. */
export class DiskNearlyFullError extends UserError {
  constructor(message: string) {
    super(message, { setting: 'agents.minFreeDiskMb' });
    this.name = 'DiskNearlyFullError';
  }
}

/** The reason a write of `bytes` more at `dir` would leave less than `floorBytes` free, or undefined (also when the system cannot say). */
export async function belowFloor(dir: string, floorBytes: number, bytes = 0): Promise<string | undefined> {
  if (floorBytes <= 0) return undefined;
  const free = await freeBytes(dir);
  if (free === undefined || free - bytes >= floorBytes) return undefined;
  return diskNearlyFull(dir, free, floorBytes);
}
