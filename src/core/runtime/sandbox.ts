// Confinement of local processes with bubblewrap (Debian's `bubblewrap`): the command runs in its
// own PID namespace (everything it starts dies with it, and with us), sees this machine's files
// read-only, sees the paths it must not read as empty, and may write only where it was given.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Mount } from './mounts';

/** What a confined command may see and write, on top of this machine's files read-only. */
export interface Confinement {
  /** Host paths shown empty (folders) or as an empty file: the task's records, the oracle, the dataset. */
  hide: readonly string[];
  /** Host folders writable before `hide` applies (an agent's home for its own config; /tmp). */
  writable?: readonly string[];
}

export interface SandboxCommand {
  command: string;
  args: string[];
}

async function kindOf(p: string): Promise<'dir' | 'file' | 'missing'> {
  const st = await fs.stat(p).catch(() => undefined);
  return !st ? 'missing' : st.isDirectory() ? 'dir' : 'file';
}

/**
 * The bwrap argv for a command. Order matters (later mounts cover earlier ones): the machine
 * read-only; /dev and /proc of its own; the broad writable folders; the hidden paths; then the
 * request's mounts (writable unless read-only) at their host paths, so the paths a caller hands
 * the command stay valid.
 */
export async function bubblewrapCommand(
  bwrap: string,
  req: { command: string; args: readonly string[]; cwd: string; mounts?: readonly Mount[] },
  confine: Confinement,
): Promise<SandboxCommand> {
  const args = ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const dir of confine.writable ?? []) {
    if ((await kindOf(dir)) === 'dir') args.push('--bind', dir, dir);
  }
  for (const p of confine.hide) {
    const kind = await kindOf(p);
    if (kind === 'dir') args.push('--tmpfs', p);
    // --dev-bind: a plain bind is mounted nodev, where /dev/null could not even be opened.
    else if (kind === 'file') args.push('--dev-bind', '/dev/null', p);
  }
  for (const m of req.mounts ?? []) {
    const kind = await kindOf(m.source);
    if (kind === 'missing') continue;
    args.push(m.readOnly ? '--ro-bind' : '--bind', m.source, m.source);
  }
  args.push('--chdir', req.cwd, '--', req.command, ...req.args);
  return { command: bwrap, args };
}

let probed: Promise<string | undefined> | undefined;

/**
 * The bwrap executable when it can confine here (installed, and namespaces allowed), else
 * undefined. Asked once per process.
 */
export function findBubblewrap(): Promise<string | undefined> {
  probed ??= (async () => {
    if (process.platform !== 'linux') return undefined;
    for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      const bwrap = path.join(dir, 'bwrap');
      if (
        !(await fs.access(bwrap, fs.constants.X_OK).then(
          () => true,
          () => false,
        ))
      )
        continue;
      const ok = await new Promise<boolean>((resolve) => {
        execFile(
          bwrap,
          ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'],
          { timeout: 10_000 },
          (err) => resolve(!err),
        );
      });
      return ok ? bwrap : undefined;
    }
    return undefined;
  })();
  return probed;
}
