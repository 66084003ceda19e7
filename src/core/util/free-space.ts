// How much room is left on a disk, and the floor below which the harness writes no more: the
// check that guards a task's unpacking, each agent step and each line of a calls record. A full
// disk loses records (a write cut halfway, a status not saved); stopping above the floor keeps
// every record written so far whole and leaves room for the run's own closing lines.
import { promises as fs } from 'node:fs';
import { UserError } from './errors';

/** The floor's default (sweci.agents.minFreeDiskMb): some capped call lines, and the run's closing records, fit well below it. */
export const DEFAULT_MIN_FREE_DISK_MB = 64;

/** Bytes free for an unprivileged writer at `dir`, or undefined where the system cannot say. */
export async function freeBytes(dir: string): Promise<number | undefined> {
  try {
    const st = await fs.statfs(dir);
    return Number(st.bavail) * Number(st.bsize);
  } catch {
    return undefined;
  }
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
