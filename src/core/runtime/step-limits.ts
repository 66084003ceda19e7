// What one confined step (an agent's try, a pytest run) may use: processes, memory, the size of a
// file it writes and of its /tmp. One parser for the extension's settings (`sweci.limits.*`) and
// the command line, and the words a record uses when a step ran into one.
import * as os from 'node:os';
import { UserError } from '../util/errors';
import { readCount, readText, type SettingLabel, type SettingReader } from '../util/setting-reader';

export interface StepLimits {
  /** Processes and threads the step may have at once; 0: no limit. */
  processes: number;
  /** Memory of the whole step (all its processes), MiB; 0: no limit. */
  memoryMb: number;
  /** The largest file the step may write, MiB; 0: no limit. */
  fileSizeMb: number;
  /** Size of the step's own /tmp (and /var/tmp, /run), MiB each; 0: no limit. */
  tmpMb: number;
}

/** Who a confined step runs as when the harness itself is root: never uid or gid 0. */
export interface SandboxUser {
  uid: number;
  gid: number;
}

/** nobody:nogroup on Debian; owns nothing on the host besides what a step is handed. */
export const DEFAULT_SANDBOX_USER: SandboxUser = { uid: 65534, gid: 65534 };

/** Half the machine, at most 8 GiB: a runaway step cannot take the harness and the editor with it. */
export function defaultMemoryMb(totalBytes = os.totalmem()): number {
  return Math.min(8192, Math.floor(totalBytes / 2 / 2 ** 20));
}

export const DEFAULT_STEP_LIMITS: StepLimits = { processes: 512, memoryMb: defaultMemoryMb(), fileSizeMb: 4096, tmpMb: 2048 };

export function readStepLimits(read: SettingReader, label: SettingLabel): StepLimits {
  const d = DEFAULT_STEP_LIMITS;
  return {
    processes: readCount(read, label, 'limits.processes', d.processes, 'processes'),
    memoryMb: readCount(read, label, 'limits.memoryMb', d.memoryMb, 'MiB'),
    fileSizeMb: readCount(read, label, 'limits.fileSizeMb', d.fileSizeMb, 'MiB'),
    tmpMb: readCount(read, label, 'limits.tmpMb', d.tmpMb, 'MiB'),
  };
}

export function readSandboxUser(read: SettingReader, label: SettingLabel): SandboxUser {
  const text = readText(read, label, 'sandboxUser', '');
  if (!text) return DEFAULT_SANDBOX_USER;
  const m = /^(\d+)(?::(\d+))?$/.exec(text);
  const uid = m ? Number(m[1]) : NaN;
  const gid = m?.[2] !== undefined ? Number(m[2]) : uid;
  if (!m || uid === 0 || gid === 0 || uid > 2 ** 32 - 2 || gid > 2 ** 32 - 2) {
    throw new UserError(
      `${label('sandboxUser')} must be "uid:gid" with numbers other than 0 (root), e.g. "65534:65534", not ${JSON.stringify(text)}. Confined steps run as that user when SWE-CI runs as root.`,
      { setting: 'sandboxUser' },
    );
  }
  return { uid, gid };
}

/** "8 GiB", "512 MiB". */
function formatMb(mb: number): string {
  return mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GiB` : `${mb} MiB`;
}

/** Which limit a step ran into. */
export type LimitKind = 'memory' | 'processes' | 'file-size';

/** The sentence records and views show, e.g. "memory limit 8 GiB reached". */
export function limitReason(kind: LimitKind, limits: StepLimits): string {
  switch (kind) {
    case 'memory':
      return `memory limit ${formatMb(limits.memoryMb)} reached (sweci.limits.memoryMb)`;
    case 'processes':
      return `process limit ${limits.processes} reached (sweci.limits.processes)`;
    case 'file-size':
      return `file size limit ${formatMb(limits.fileSizeMb)} reached (sweci.limits.fileSizeMb)`;
  }
}
