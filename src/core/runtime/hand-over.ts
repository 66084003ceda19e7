// Ownership of the folders a confined step writes, when the harness runs as root and the step as
// the sandbox user: handed to that user before the step and taken back after, so the step can
// write them and nothing else (everything else on the host is root's and read-only to it), and
// the harness's own git and file work after the step meets files of its own user again.
// chown never follows links (-h, and -R does not descend through them), and a set-user-ID or
// set-group-ID bit a step left is cleared by the kernel when root changes the owner.
import { existsSync } from 'node:fs';
import { launch } from '../util/process-launcher';
import { findTrustedProgram } from '../util/trusted-program';

let chownPath: string | undefined;

/** Gives every entry below (and including) each of `dirs` to `uid:gid`. Missing paths are skipped. */
export async function chownTrees(dirs: readonly string[], uid: number, gid: number): Promise<void> {
  const present = [...new Set(dirs)].filter((d) => existsSync(d));
  if (present.length === 0) return;
  chownPath ??= findTrustedProgram('chown') ?? '/bin/chown';
  const chown = chownPath;
  const r = await launch({ file: chown, args: ['-R', '-h', `${uid}:${gid}`, '--', ...present], cwd: '/', env: processEnv() });
  const stderr = r.stderr.toString('utf8');
  // A file removed while walking is no failure; anything else would leave the step without its folders.
  if (r.code !== 0 && !/No such file or directory/.test(stderr)) {
    throw new Error(`Could not give ${present.join(', ')} to ${uid}:${gid}: ${stderr.trim() || `chown exited with ${r.code ?? r.signal}`}`);
  }
}

function processEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}
