// One writer per folder: a lock file names the process that holds it (a task's `.sweci/lock`: the
// loop, pytest, a replay; a dataset folder's: a download). The file is created atomically with
// its content, so a reader never sees it empty. A lock left by a process that died on this host
// (its pid gone, a zombie, or reused by a process with another start time) is stale and taken
// over; a live one, or one from another host (a shared folder), refuses with who holds it.
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile } from './record-file';
import { UserError, throwIfAborted } from '../util/errors';

export const lockInfoSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  started: z.string(),
  /** What holds the lock, as a sentence fragment: "the loop", "pytest", "the human-history replay". */
  purpose: z.string(),
  /** E.g. `run "claude-1"`. */
  detail: z.string().optional(),
  /** Tells this holder from a later one with the same pid. */
  token: z.string(),
  /**
   * The holder's start time in clock ticks since boot (Linux /proc/<pid>/stat): a process that
   * got the dead holder's pid later has another, so it is not taken for the holder.
   */
  pidStart: z.string().optional(),
});
export type LockInfo = z.infer<typeof lockInfoSchema>;

// The lock is created with its content by an exclusive create, not a rename, so it has its own
// writer below; a lock that does not read as one is treated as absent (and so taken over).
const lockFile = jsonRecordFile({ schema: lockInfoSchema, whenDamaged: 'It is taken over.', onDamage: 'missing' });

export interface HeldLock {
  readonly file: string;
  readonly info: LockInfo;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/** Tokens of locks this process holds: a lock file with our pid but another token is stale. */
const heldHere = new Set<string>();

async function readLock(file: string): Promise<LockInfo | undefined> {
  return lockFile.read(file).catch(() => undefined);
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process its parent has not reaped yet (a zombie) holds nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (err) {
    // No /proc (not Linux): kill(0) has spoken. On Linux, ENOENT: it exited just now.
    return !(process.platform === 'linux' && (err as NodeJS.ErrnoException).code === 'ENOENT');
  }
}

/** Whether a lock file's holder is certainly gone (only decidable on this host). */
export function isStale(info: LockInfo): boolean {
  if (info.hostname !== os.hostname()) return false;
  if (info.pid === process.pid) return !heldHere.has(info.token);
  if (!isAlive(info.pid)) return true;
  // Alive, but another process than the one that wrote the lock (its pid was reused).
  const start = info.pidStart !== undefined ? processStart(info.pid) : undefined;
  return start !== undefined && start !== info.pidStart;
}

/** A lock file that cannot be read is a write that failed half-way; after a grace period it is stale. */
const UNREADABLE_GRACE_MS = 5000;

async function createExclusive(file: string, content: string): Promise<boolean> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, content, { flag: 'wx' });
  try {
    // link() fails with EEXIST when the lock exists and never exposes a half-written file.
    await fs.link(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    // No hard links on this filesystem: O_EXCL create, then write.
    try {
      await fs.writeFile(file, content, { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** What a refused process is told: `holder` undefined when the lock is being written. */
export type LockRefusal = (file: string, holder: LockInfo | undefined) => UserError;

/** The task folder's words, the lock's first use. */
function taskRefusal(file: string, holder: LockInfo | undefined): UserError {
  if (!holder) {
    return new UserError(`Another window or process is starting work on this task (${file} is being written). Try again in a moment.`);
  }
  const where = holder.hostname !== os.hostname() ? ` on ${holder.hostname}` : '';
  const detail = holder.detail ? `, ${holder.detail}` : '';
  return new UserError(
    `Another window or process is running ${holder.purpose} on this task (pid ${holder.pid}${where}${detail}, since ${holder.started}). ` +
      `Wait for it to finish or stop it; if that process is gone for good, delete ${file}.`,
  );
}

/** Takes the lock at `file` or throws a UserError naming its live holder (`refusal` words it). */
export async function acquireLock(file: string, purpose: string, detail?: string, refusal: LockRefusal = taskRefusal): Promise<HeldLock> {
  const info: LockInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    started: new Date().toISOString(),
    purpose,
    ...(detail ? { detail } : {}),
    token: randomBytes(8).toString('hex'),
  };
  const pidStart = processStart(process.pid);
  if (pidStart !== undefined) info.pidStart = pidStart;
  await fs.mkdir(path.dirname(file), { recursive: true });
  const content = JSON.stringify(info, null, 2) + '\n';
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusive(file, content)) {
      heldHere.add(info.token);
      return held(file, info);
    }
    const holder = await readLock(file);
    if (holder && !isStale(holder)) throw refusal(file, holder);
    if (!holder) {
      const age = await fs.stat(file).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age < UNREADABLE_GRACE_MS) throw refusal(file, undefined);
    }
    await takeOver(file, holder);
  }
  throw refusal(file, await readLock(file));
}

/**
 * Moves a stale lock aside, then checks the moved file is the one judged stale: if another
 * process replaced it in between, its live lock is put back.
 */
async function takeOver(file: string, stale: LockInfo | undefined): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readLock(aside);
  if (moved && stale && moved.token !== stale.token && !isStale(moved)) {
    await fs.link(aside, file).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

function held(file: string, info: LockInfo): HeldLock {
  let released = false;
  return {
    file,
    info,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(info.token);
      const now = await readLock(file);
      if (now?.token === info.token) await fs.rm(file, { force: true });
    },
  };
}

export interface WaitForLockOptions {
  detail?: string;
  signal?: AbortSignal;
  /** Called once, when the lock is found held: who holds it (undefined while it is being written). */
  onWait?: (holder: LockInfo | undefined) => void;
}

/**
 * Takes the lock at `file`, waiting while another process (or another task of this one) holds it:
 * for work that must not run twice at once but that every waiter needs done (an image loaded into
 * a store). Stale locks are taken over as by acquireLock; aborting `signal` stops the wait.
 */
export async function waitForLock(file: string, purpose: string, opts: WaitForLockOptions = {}): Promise<HeldLock> {
  let told = false;
  for (;;) {
    throwIfAborted(opts.signal);
    let busy = false;
    let holder: LockInfo | undefined;
    try {
      return await acquireLock(file, purpose, opts.detail, (_file, h) => {
        busy = true;
        holder = h;
        return new UserError(`${file} is held`);
      });
    } catch (err) {
      if (!busy) throw err;
    }
    if (!told) opts.onWait?.(holder);
    told = true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, LOCK_POLL_MS);
      function done(): void {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', done);
        resolve();
      }
      opts.signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** How often a waiter looks at a held lock again. */
const LOCK_POLL_MS = 250;
