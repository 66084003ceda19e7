// This user's cache folder for SWE-CI (XDG): what is kept between tasks on this machine, such as
// the CLI's oracles, the bytecode seeds and the CLI's compiled code. No command of a task sees it
// (the sandbox shows no home).
import * as os from 'node:os';
import * as path from 'node:path';

export function userCacheDir(): string {
  return process.env.XDG_CACHE_HOME ? path.join(process.env.XDG_CACHE_HOME, 'swe-ci') : path.join(os.homedir(), '.cache', 'swe-ci');
}

/**
 * Whether a file or folder is this user's and no one else may write it: what the cache keeps that
 * later runs as code (a bytecode seed, the CLI's compiled code) is trusted only then.
 */
export function ownedAndClosed(st: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}
