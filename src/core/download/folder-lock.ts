// One writer at a time in a dataset folder. Two downloads into one folder would append to the same
// partial files and rewrite the same manifest; the second one is refused at once, naming the
// process that holds the folder (a wait could last hours behind a 50 GB download, and a refusal
// tells a script what happened). The lock is a file made whole and then linked into place, so it
// is never seen half-written; one left by a killed process (kill -9, a reboot) is recognised by
// its process id (and, on Linux, that process's start time, so a reused id does not keep it) and
// taken over. It is the same scheme as the task folder's lock (workspace/lock.ts), kept here
// because this layer may not import that one.
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { stateDir } from './download-manifest';

interface LockHolder {
  pid: number;
  host: string;
  /** The holder's start time in clock ticks since boot (Linux /proc), to tell a reused pid. */
  startTicks?: number;
  startedAt: string;
  command: string;
  /** Tells this holder's lock from a later one with the same pid. */
  nonce: string;
}

export interface FolderLock {
  readonly file: string;
  readonly holder: LockHolder;
  release(): Promise<void>;
}

function lockPath(datasetDir: string): string {
  return path.join(stateDir(datasetDir), 'lock.json');
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised name, which may hold spaces), or undefined off Linux. */
function processStartTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process its parent has not reaped yet (a zombie) holds nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/** Whether the holder is known to be gone: its process is dead, or its pid now names another process. */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return false;
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0) return true;
  if (!isAlive(holder.pid)) return true;
  const ticks = processStartTicks(holder.pid);
  return holder.startTicks !== undefined && ticks !== undefined && ticks !== holder.startTicks;
}

async function readHolder(file: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.nonce === 'string') {
      return { pid: h.pid, host: h.host, startTicks: h.startTicks, startedAt: String(h.startedAt ?? '?'), command: String(h.command ?? '?'), nonce: h.nonce };
    }
  } catch {
    // Not ours or damaged: treated as a holder that cannot be checked.
  }
  return { pid: -1, host: '?', startedAt: '?', command: '?', nonce: '' };
}

function busyError(datasetDir: string, file: string, h: LockHolder): UserError {
  if (h.nonce === '')
    return new UserError(`${file} is not a lock sweci wrote (it cannot be read as one). If no download is running into ${datasetDir}, remove it.`);
  const who = `process ${h.pid} (${h.command}), started ${h.startedAt}`;
  if (h.host !== os.hostname() && h.host !== '?') {
    return new UserError(
      `${datasetDir} is in use by ${who} on host ${h.host}. Wait for it to finish, then run this again; it continues where that one stopped. ` +
        `If that process is gone (this machine cannot check another host), remove ${file}.`,
    );
  }
  return new UserError(
    `${datasetDir} is in use by ${who}: another download or repair is writing there. Wait for it to finish (or stop it: kill ${h.pid}), ` +
      'then run this again; it continues where that one stopped.',
  );
}

/**
 * Takes the folder for this process, or throws a UserError naming the process that has it.
 * `command` says what this process is doing, for the message another one would show.
 */
export async function acquireFolderLock(datasetDir: string, command: string): Promise<FolderLock> {
  const file = lockPath(datasetDir);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    startTicks: processStartTicks(process.pid),
    startedAt: new Date().toISOString(),
    command,
    nonce: randomBytes(8).toString('hex'),
  };
  const tmp = `${file}.${process.pid}.${holder.nonce}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(holder) + '\n');
  try {
    for (let tries = 0; ; tries++) {
      try {
        await fs.link(tmp, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const other = await readHolder(file);
      if (!other) continue; // released between our link and our read
      if (!isStale(other) || tries >= 5) throw busyError(datasetDir, file, other);
      await breakStale(file, other);
    }
  } finally {
    await fs.rm(tmp, { force: true });
  }
  return {
    file,
    holder,
    release: async () => {
      const now = await readHolder(file).catch(() => undefined);
      if (now?.nonce === holder.nonce) await fs.rm(file, { force: true });
    },
  };
}

/**
 * Moves a dead holder's lock aside. Another process may have broken it and taken the folder
 * between our read and the move; then the lock we moved is that live one, and it goes back.
 */
async function breakStale(file: string, stale: LockHolder): Promise<void> {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readHolder(aside);
  if (moved && moved.nonce !== stale.nonce) {
    await fs.link(aside, file).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}
