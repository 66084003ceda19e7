// The programs the harness runs itself (git, bwrap). The harness trusts what they do, so each is
// found once, by absolute path, and never in a folder a confined step may write (a task folder:
// its app/ and its agents' homes).
import { accessSync, constants as fsConstants, existsSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when a confined step could have written `p`: it lies in a task folder (one that holds the
 * harness's `.sweci` state), where app/ and the agents' homes are. Checked on the real path.
 */
export function isInTaskFolder(p: string): boolean {
  for (let dir = path.dirname(p); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.sweci'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

/** Every executable `name` on `searchPath`, in PATH order (relative entries are skipped). */
export function executablesOnPath(name: string, searchPath: string): string[] {
  return searchPath
    .split(path.delimiter)
    .filter((d) => path.isAbsolute(d))
    .map((d) => path.join(d, name))
    .filter(isExecutableFile);
}

/**
 * The first executable `name` on `searchPath` that no confined step could have put there, as an
 * absolute path; undefined when there is none.
 */
export function findTrustedProgram(name: string, searchPath: string = process.env.PATH ?? ''): string | undefined {
  return executablesOnPath(name, searchPath).find((candidate) => !isInTaskFolder(realpathSync(candidate)));
}

const harnessTools = new Map<string, string>();

/**
 * The harness's own copy of a tool (git): found once per process on PATH, skipping copies in task
 * folders. Falls back to the bare name (spawn then reports it missing in the usual way).
 */
export function harnessTool(name: string): string {
  let found = harnessTools.get(name);
  if (!found) {
    found = findTrustedProgram(name) ?? name;
    harnessTools.set(name, found);
  }
  return found;
}
