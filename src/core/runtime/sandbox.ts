// Confinement of local processes with bubblewrap (Debian's `bubblewrap`). An allow-list: the
// command sees the machine's system folders read-only, the tools it runs (read-only), what it was
// given (its mounts), a /tmp, /var/tmp and /run of its own, and nothing else: not the user's home,
// not the dataset, the experiment or other tasks, not the engines' sockets. It runs in its own
// user, PID, IPC and UTS namespaces with every capability dropped (root in there cannot unmount
// or remount anything), in a session of its own, and dies with us.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Mount } from './mounts';
import { SYSTEM_DIRS, SYSTEM_LINKS } from './host-tools';
import { findTrustedProgram } from '../util/trusted-program';
import { isSameOrInside } from '../util/paths';

/** What a confined command may see and write besides the system folders. */
export interface Confinement {
  /**
   * Host paths shown empty (folders) or as an empty file even where a readable path would show
   * them: the task's records, the oracle, the dataset. Applied after `readable` and `writable`.
   */
  hide: readonly string[];
  /** Host paths shown read-only (a custom agent's own files). */
  readable?: readonly string[];
  /** Host folders writable besides the request's mounts. */
  writable?: readonly string[];
}

export interface SandboxCommand {
  command: string;
  args: string[];
}

/** Files of /etc that only root may read: root inside the sandbox is root on them too. */
const HIDDEN_SYSTEM_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-'];

/** Namespaces, capabilities and session: the same for every command and for the probe. */
const ISOLATION_FLAGS = [
  '--die-with-parent',
  '--unshare-user',
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--cap-drop',
  'ALL',
  '--new-session',
];

async function kindOf(p: string): Promise<'dir' | 'file' | 'link' | 'missing'> {
  const st = await fs.lstat(p).catch(() => undefined);
  return !st ? 'missing' : st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
}

/** The system folders, read-only, with merged-/usr links kept as links. */
async function systemArgs(): Promise<string[]> {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) if ((await kindOf(dir)) === 'dir') args.push('--ro-bind', dir, dir);
  for (const name of SYSTEM_LINKS) {
    const p = `/${name}`;
    const kind = await kindOf(p);
    if (kind === 'link') args.push('--symlink', await fs.readlink(p), p);
    else if (kind === 'dir') args.push('--ro-bind', p, p);
  }
  // Name resolution where /etc/resolv.conf points into /run (systemd-resolved).
  const resolv = await fs.realpath('/etc/resolv.conf').catch(() => undefined);
  if (resolv && !resolv.startsWith('/etc/')) args.push('--ro-bind', resolv, resolv);
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run');
  return args;
}

/** Shortest first: a path bound later covers what an enclosing one showed. */
function byDepth(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.resolve(p)))].sort((a, b) => a.length - b.length);
}

/**
 * The bwrap argv for a command. Order matters (later mounts cover earlier ones): the system
 * folders; /dev, /proc and the temp folders of its own; the readable paths; the writable ones; the
 * hidden paths; then the request's mounts (writable unless read-only) at their host paths, so the
 * paths a caller hands the command stay valid.
 */
export async function bubblewrapCommand(
  bwrap: string,
  req: { command: string; args: readonly string[]; cwd: string; mounts?: readonly Mount[] },
  confine: Confinement,
): Promise<SandboxCommand> {
  const args = [...ISOLATION_FLAGS, ...(await systemArgs())];
  for (const p of byDepth(confine.readable ?? [])) {
    const kind = await kindOf(p);
    if (kind !== 'missing') args.push('--ro-bind', p, p);
  }
  for (const dir of byDepth(confine.writable ?? [])) {
    if ((await kindOf(dir)) === 'dir') args.push('--bind', dir, dir);
  }
  // Only what a shown path would show: hiding anything else would make an empty stand-in appear.
  const shown = [...SYSTEM_DIRS, ...(confine.readable ?? []), ...(confine.writable ?? [])];
  for (const p of [...HIDDEN_SYSTEM_FILES, ...confine.hide]) {
    if (!shown.some((s) => isSameOrInside(s, p) || isSameOrInside(p, s))) continue;
    const st = await fs.stat(p).catch(() => undefined);
    if (st?.isDirectory()) args.push('--tmpfs', p);
    // --dev-bind: a plain bind is mounted nodev, where /dev/null could not even be opened.
    else if (st) args.push('--dev-bind', '/dev/null', p);
  }
  for (const m of req.mounts ?? []) {
    if (!(await fs.stat(m.source).catch(() => undefined))) continue;
    args.push(m.readOnly ? '--ro-bind' : '--bind', m.source, m.source);
  }
  // The skeleton bwrap builds (the folders leading to each path above) is read-only too.
  args.push('--remount-ro', '/', '--chdir', req.cwd, '--', req.command, ...req.args);
  return { command: bwrap, args };
}

/** Whether bubblewrap can confine here: its path, or why not (bwrap's own words when it ran). */
export type BubblewrapProbe = { bwrap: string } | { problem: 'not-linux' | 'not-installed' | 'refused'; detail?: string };

let probed: Promise<BubblewrapProbe> | undefined;

/**
 * Tries the sandbox once per process, with the very flags every confined command gets: bwrap
 * installed where no task can have put it, and user namespaces allowed (a container's default
 * seccomp and AppArmor profiles, or a masked /proc, refuse them).
 */
export function probeBubblewrap(): Promise<BubblewrapProbe> {
  probed ??= (async (): Promise<BubblewrapProbe> => {
    if (process.platform !== 'linux') return { problem: 'not-linux' };
    const bwrap = findTrustedProgram('bwrap');
    if (!bwrap) return { problem: 'not-installed' };
    const args = [...ISOLATION_FLAGS, ...(await systemArgs()), '--', 'true'];
    const failure = await new Promise<string | undefined>((resolve) => {
      execFile(bwrap, args, { timeout: 10_000 }, (err, _out, stderr) => resolve(err ? String(stderr).trim() || err.message : undefined));
    });
    return failure === undefined ? { bwrap } : { problem: 'refused', detail: failure.split('\n')[0] };
  })();
  return probed;
}

/** The bwrap executable when it can confine here, else undefined. */
export async function findBubblewrap(): Promise<string | undefined> {
  const probe = await probeBubblewrap();
  return 'bwrap' in probe ? probe.bwrap : undefined;
}
