// Kills a process and everything it started. pytest and agents fork helpers (xdist workers,
// language servers, shells); killing only the direct child would leave them running.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * POSIX: the child was spawned detached, so it leads its own process group and `-pid`
 * addresses the whole group. Windows has no process groups; `taskkill /T` walks the tree.
 */
export function killProcessTree(pid: number): void {
  if (process.platform === 'win32') {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
    killer.on('error', () => {
      /* nothing left to do: the process may already be gone */
    });
    return;
  }
  if (signalProcessGroup(pid, 'SIGKILL')) return;
  // The group is gone (ESRCH) or was never created; fall back to the single process.
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already exited */
  }
}

/**
 * Signals every process of the group `pgid` (a detached child's pid); false when none is left.
 * Safe after the leader has exited: Linux gives no new process a pid still in use as a group's id.
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process of the group still lives. Linux: zombies (dead, not yet reaped by init) do not count. */
export function processGroupAlive(pgid: number): boolean {
  if (process.platform !== 'linux') return signalProcessGroup(pgid, 0);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the parenthesised command name: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Waits until no process of the group lives, up to timeoutMs; returns whether none does. */
export async function untilProcessGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processGroupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
