// Process liveness for tests that check a tree was really killed.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

/**
 * A word unique to one test, given to its agents as an extra argument (and passed on to what they
 * start) so that the test looks for its own processes only: the tiers run side by side, and another
 * test's agent from the same script file is not this test's leftover.
 */
export function processTag(label: string): string {
  return `sweci-tag-${label}-${randomBytes(6).toString('hex')}`;
}

/** True if pid is a live process. A zombie (killed, not yet reaped) counts as dead. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name, is the state.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux';
  }
}

// The waits below end as soon as the state is reached; their cap only bounds a test that fails,
// so it is generous (a loaded machine can take seconds to reap a killed tree).
const WAIT_CAP_MS = 30_000;

/** Waits until pid is dead, up to timeoutMs; returns whether it died. */
export async function waitDead(pid: number, timeoutMs = WAIT_CAP_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/** Where a /proc link points ('' once its process is gone). */
const linkTarget = (p: string): string => {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '';
  }
};

/** Processes whose command line, cwd or open files name `folder`. */
export function processesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const places = [linkTarget(`/proc/${pid}/cwd`), ...fs.readdirSync(`/proc/${pid}/fd`).map((fd) => linkTarget(`/proc/${pid}/fd/${fd}`))];
      if (cmdline.includes(folder) || places.some((f) => f === folder || f.startsWith(folder + '/'))) found.push(`${pid} ${cmdline}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Live processes (zombies excluded) whose command line contains `needle` (every one of them, if several), by host pid. */
export function processesMatching(needle: string | string[]): number[] {
  const needles = typeof needle === 'string' ? [needle] : needle;
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (needles.every((n) => cmdline.includes(n)) && isAlive(Number(name))) found.push(Number(name));
  }
  return found;
}

/**
 * Waits until no live process's command line contains `needle` (pids printed inside a sandbox
 * are its namespace's, so the host is searched by command line instead). Returns the survivors.
 */
export async function waitNoneMatching(needle: string | string[], timeoutMs = WAIT_CAP_MS): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (processesMatching(needle).length === 0) return [];
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesMatching(needle);
}
