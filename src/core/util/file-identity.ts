// A file's identity as the summary caches key on it: "dev:ino:size:mtimeNs:ctimeNs". A write
// changes size, mtime or ctime; a rename in gives another inode; a copy elsewhere another device
// or inode; a process can set mtime but not ctime (scoring/run-summary-cache.ts says more).
import { statSync, type BigIntStats } from 'node:fs';

function identityOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** The file's identity now; null when it does not exist. */
export function fileIdentity(file: string): string | null {
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? identityOf(st) : null;
}

/**
 * The identity of `file` when it is a regular file (links followed), else undefined (missing, a
 * folder, no access): one stat says both whether a folder is a task and its task.json's key.
 */
export function regularFileIdentity(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    return st?.isFile() ? identityOf(st) : undefined;
  } catch {
    return undefined;
  }
}
