// The programs a sandbox must show to what it confines (the interpreter, node, git, an agent's
// CLI): each read-only, with the folders it needs to start, and first on its PATH.
import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isSameOrInside } from '../util/paths';
import { executablesOnPath, isInTaskFolder } from '../util/trusted-program';
import { UserError } from '../util/errors';

/** The machine's own folders: a sandbox shows them read-only as they are. */
export const SYSTEM_DIRS = ['/usr', '/etc', '/opt'] as const;
/** Top-level names that are links into /usr on merged-/usr systems (else folders shown read-only). */
export const SYSTEM_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'] as const;

export function isSystemPath(p: string): boolean {
  return [...SYSTEM_DIRS, ...SYSTEM_LINKS.map((l) => `/${l}`)].some((d) => isSameOrInside(d, p));
}

/** What a sandbox must show for one program: folders read-only, and where its executables are. */
export interface ToolView {
  /** The program's absolute path, to run instead of a bare name. */
  program?: string;
  /** Host paths shown read-only. */
  readable: string[];
  /** Folders put first on PATH inside the sandbox. */
  pathDirs: string[];
}

const EMPTY_VIEW: ToolView = { readable: [], pathDirs: [] };

export function isPythonName(command: string): boolean {
  return /^python(\d+(\.\d+)*)?$/.test(path.basename(command));
}

/**
 * A Python interpreter's view: its real executable (not a pyenv shim, which needs all of pyenv) and
 * every folder on its sys.path, so its standard library and site-packages (pytest) are there.
 */
export async function interpreterView(python: string, env: NodeJS.ProcessEnv): Promise<ToolView> {
  // Before it runs here, unconfined, to say where it lives: never one an agent could have written.
  const located = locate(python, process.cwd(), env.PATH ?? '');
  if (located) assertOutsideTasks(python, await fs.realpath(located));
  const probe = 'import json, sys; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.path]))';
  const out = await new Promise<string | undefined>((resolve) => {
    // -E: PYTHONPATH is the run's own business (relative entries would resolve against our working
    // folder: `.` here is not the code). Run from the temp folder, for the same reason.
    execFile(python, ['-E', '-c', probe], { env, cwd: os.tmpdir(), timeout: 30_000 }, (err, stdout) => resolve(err ? undefined : stdout));
  });
  if (!out) return EMPTY_VIEW;
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    return EMPTY_VIEW;
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || !path.isAbsolute(parsed[0])) return EMPTY_VIEW;
  const [exe, ...rest] = parsed as [string, ...unknown[]];
  const roots = rest.flat().filter((p): p is string => typeof p === 'string' && path.isAbsolute(p));
  const realExe = await fs.realpath(exe).catch(() => exe);
  assertOutsideTasks(python, realExe);
  const readable = await existingOutsideSystem([exe, realExe, ...roots]);
  return { program: exe, readable, pathDirs: [path.dirname(exe)] };
}

/**
 * A program found on PATH: its package when it is a node package (the `node_modules` folder it
 * lives in, with its dependencies), the prefix when it sits in a `bin` folder (a virtual
 * environment, /usr/local, ~/.cargo), else the file itself.
 */
export async function programView(command: string, cwd: string, searchPath: string): Promise<ToolView> {
  const found = locate(command, cwd, searchPath);
  if (!found || !existsSync(found)) return EMPTY_VIEW;
  const real = await fs.realpath(found);
  assertOutsideTasks(command, real);
  const paths = new Set<string>();
  for (const p of [found, real]) {
    const parts = p.split(path.sep);
    const nm = parts.lastIndexOf('node_modules');
    const binParent = path.basename(path.dirname(p)) === 'bin' ? path.dirname(path.dirname(p)) : undefined;
    if (nm > 0) paths.add(parts.slice(0, nm + 1).join(path.sep));
    // Not the user's home (a ~/bin program) nor the root: those show the file alone.
    else if (binParent && binParent !== os.homedir() && binParent !== path.parse(binParent).root) paths.add(binParent);
    else paths.add(p);
  }
  return { program: found, readable: await existingOutsideSystem([...paths]), pathDirs: [path.dirname(found)] };
}

/** Where a command is: a path with a slash from `cwd`, else the first executable on `searchPath`. */
function locate(command: string, cwd: string, searchPath: string): string | undefined {
  return command.includes('/') ? path.resolve(cwd, command) : executablesOnPath(command, searchPath)[0];
}

/** A program in a task folder may be an agent's work: it is neither trusted nor run confined as a tool. */
function assertOutsideTasks(command: string, real: string): void {
  if (!isInTaskFolder(real)) return;
  throw new UserError(
    `"${command}" is ${real}, inside a task folder, where agents can write: SWE-CI neither trusts nor runs a program from there. Use an interpreter or program installed outside every task folder (sweci.python, or the agent's command).`,
  );
}

/** Folders never shown whole, whatever a tool's view names: the root, and the user's home and the folders above it. */
function tooBroad(p: string): boolean {
  const abs = path.resolve(p);
  return abs === path.parse(abs).root || isSameOrInside(abs, os.homedir());
}

async function existingOutsideSystem(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of new Set(paths)) {
    if (isSystemPath(p) || tooBroad(p) || !(await fs.stat(p).catch(() => undefined))) continue;
    out.push(p);
  }
  return out;
}

export function mergeViews(views: readonly ToolView[]): ToolView {
  return { readable: [...new Set(views.flatMap((v) => v.readable))], pathDirs: [...new Set(views.flatMap((v) => v.pathDirs))] };
}
