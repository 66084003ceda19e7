// Host paths and where a command sees them. A container's view is built from mounts only, so
// every path handed to a command (code folder, report file, prompt file) is mapped through here.
import * as path from 'node:path';

export interface Mount {
  /** An absolute path on this machine (a folder, or a single file). */
  source: string;
  /** Where the command sees it: an absolute POSIX path. */
  target: string;
  readOnly?: boolean;
  /**
   * A local sandbox shows a mount at its host path (`source`), as a plain local process sees it;
   * `at` shows it at another host path instead: a harness folder shown inside one the command
   * writes (the bytecode seed, read-only, inside a run's prefix: bytecode-seed.ts).
   */
  at?: string;
  /**
   * Confined runs: the command sees a fresh folder of bounded size (sweci.limits.tmpMb) in memory
   * at `target`, holding a copy of `source`; nothing it writes there reaches the host, and it is
   * gone when the command ends, however it ends (an agent's private home: scratch-folders.ts).
   * A plain local process uses `source` itself.
   */
  scratch?: boolean;
}

/**
 * The path a command sees for `hostPath`: the mount with the longest source that contains it.
 * Throws when no mount contains it, because a container would not see that path at all.
 */
export function mapToMount(mounts: readonly Mount[], hostPath: string): string {
  const abs = path.resolve(hostPath);
  let best: { mount: Mount; rel: string } | undefined;
  for (const mount of mounts) {
    const rel = path.relative(path.resolve(mount.source), abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (!best || mount.source.length > best.mount.source.length) best = { mount, rel };
  }
  if (!best) throw new Error(`${hostPath} is outside every mount (${mounts.map((m) => m.source).join(', ') || 'none'}).`);
  const parts = best.rel === '' ? [] : best.rel.split(path.sep);
  return path.posix.join(best.mount.target, ...parts);
}

/** Mount targets must be absolute, distinct and free of `..`; sources absolute. */
export function assertValidMounts(mounts: readonly Mount[]): void {
  const targets = new Set<string>();
  for (const m of mounts) {
    if (!path.isAbsolute(m.source)) throw new Error(`Mount source ${m.source} is not an absolute path.`);
    if (!m.target.startsWith('/') || m.target.split('/').includes('..')) throw new Error(`Mount target ${m.target} is not an absolute path.`);
    const t = path.posix.normalize(m.target).replace(/(.)\/+$/, '$1');
    if (targets.has(t)) throw new Error(`Two mounts share the target ${t}.`);
    targets.add(t);
  }
}
