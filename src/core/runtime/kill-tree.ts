// Kills a process and everything it started. pytest and agents fork helpers (xdist workers,
// language servers, shells); killing only the direct child would leave them running.
import { spawn } from 'node:child_process';

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
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone (ESRCH) or was never created; fall back to the single process.
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already exited */
    }
  }
}
