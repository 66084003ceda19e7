// pytest's bytecode goes to a fresh, empty folder for each run (PYTHONPYCACHEPREFIX, see
// pytest-command.ts), so that nothing the code under test wrote in one run is loaded by the next.
// With an empty prefix Python compiles pytest and every standard module it imports again on each
// run: about 1 s of a 1.5 s run on a small project. The seed is that bytecode, compiled once per
// interpreter and runtime on this machine by a run that executes none of any task's code (pytest on
// an empty folder), and shared by every task's runs.
//
// Shared, so a seed someone else could write would let one task's code forge every later task's
// score (a .pyc of pytest that passes every test). Hence: only this process writes it, into a
// folder of the user's cache that is ours alone (0700) and that no command of a task sees (the
// sandbox shows no home, and task-confinement.ts hides the cache by name); the seeding run's output
// is copied by this process, file by file, into a staging folder that is renamed into place whole;
// a seed with an entry that is not ours, is writable by others or is not a plain file or folder is
// thrown away and built again. A confined run sees the seed's folders bound read-only inside its
// fresh prefix (seedMounts): nothing is copied, and what the code under test writes there fails. An
// unconfined run gets a copy (fillFromSeed): it could write anything of the user's anyway, and its
// runs are flagged not-isolated. Python checks every .pyc against its source's size and mtime, so a
// stale seed (an upgraded interpreter) only costs the time it would have saved.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ownedAndClosed, userCacheDir } from '../util/user-cache';
import { isSameOrInside } from '../util/paths';
import { executablesOnPath } from '../util/trusted-program';
import type { Mount } from '../runtime/mounts';

const COMPLETE = '.complete';

/** Where this machine's seeds are kept: one per interpreter and runtime, shared by every task. */
export function machineSeedStore(): string {
  return path.join(userCacheDir(), 'bytecode-seeds');
}

/** Builds under way in this process, by seed folder: a second caller waits for the first. */
const building = new Map<string, Promise<void>>();
/**
 * Seeds this process has checked entry by entry: what they hold (folders end with '/'), and their
 * completion mark's identity, looked at again before each use (a seed removed or built again since,
 * by the user or another process, is checked again).
 */
const checked = new Map<string, { entries: readonly string[]; mark: string }>();

/** The completion mark's identity (device, inode, change time), or undefined when there is none. */
async function markOf(seed: string): Promise<string | undefined> {
  const st = await fs.lstat(path.join(seed, COMPLETE)).catch(() => undefined);
  return st?.isFile() ? `${st.dev}:${st.ino}:${st.ctimeMs}` : undefined;
}

/** What a seed this process has checked holds, while its mark is the one checked. */
async function stillChecked(seed: string): Promise<readonly string[] | undefined> {
  const known = checked.get(seed);
  if (known && known.mark === (await markOf(seed))) return known.entries;
  checked.delete(seed);
  return undefined;
}

/** Seeds are kept per interpreter (seedInterpreter) and runtime (a container's standard library is not this machine's), and per version of what a seed holds. */
export function seedKey(runtimeDescription: string, python: string): string {
  return createHash('sha256').update(`2\0${runtimeDescription}\0${python}`).digest('hex').slice(0, 16);
}

/**
 * The interpreter a seed is kept for. On this host, a bare name is the file PATH finds for it: a
 * virtual environment's own bin/python3, not the interpreter it links to (its packages, and so its
 * folders, differ), so two interpreters that are both `python3` never share a seed, whose folders
 * would then not cover the second one's. In a container, the name (the image resolves it).
 */
export function seedInterpreter(python: string, onHost: boolean, searchPath = process.env.PATH ?? ''): string {
  if (!onHost || python.includes('/')) return python;
  return executablesOnPath(python, searchPath)[0] ?? python;
}

type Build = (dir: string) => Promise<string | undefined>;

/**
 * Fills `prefixDir` (a fresh, empty folder) with a copy of the seed `key` under `seedRoot`, building
 * the seed first when there is none. For runs that are not confined (seedMounts for those that are).
 * `build(dir)` runs the seeding pytest in the folder it is given and returns the prefix folder it
 * filled, or undefined when it could not run (then no seed is kept, and this run compiles as it
 * would without one).
 */
export async function fillFromSeed(seedRoot: string, key: string, prefixDir: string, build: Build): Promise<void> {
  const seed = await ensureSeed(seedRoot, key, build);
  if (!seed) return;
  // A copy that fails half-way only leaves this run compiling what is missing.
  await copyEntries(seed, checked.get(seed)?.entries ?? [], prefixDir).catch(() => undefined);
}

/**
 * How a confined run sees the seed `key`: its folders, bound read-only at the same place inside the
 * run's prefix `prefixDir` (host paths; `shownAt` maps one to where the command sees it). Only the
 * folders that hold none of `writable` (where the command sees the code and its report folder):
 * the run compiles its own code into the prefix as usual. The few files that sit beside such a
 * folder are copied. Empty when there is no seed.
 */
export async function seedMounts(
  seedRoot: string,
  key: string,
  prefixDir: string,
  writable: readonly string[],
  shownAt: (hostPath: string) => string,
  build: Build,
): Promise<Mount[]> {
  const seed = await ensureSeed(seedRoot, key, build);
  if (!seed) return [];
  const plan = planOf(seed, writable);
  const mounts: Mount[] = plan.shown.map((rel) => {
    const at = path.join(prefixDir, rel);
    return { source: path.join(seed, rel), target: shownAt(at), readOnly: true, at };
  });
  // The mount points are made here, never by the sandbox inside a folder the command writes.
  await Promise.all(mounts.map((m) => fs.mkdir(m.at!, { recursive: true })));
  await copyEntries(seed, plan.copied, prefixDir).catch(() => undefined);
  return mounts;
}

/** Plans by seed and writable paths: the same for every run of a task. */
const plans = new Map<string, { shown: string[]; copied: string[] }>();

/** Which of the seed's folders a run is shown whole, and which files beside them it gets a copy of. */
function planOf(seed: string, writable: readonly string[]): { shown: string[]; copied: string[] } {
  const id = JSON.stringify([seed, checked.get(seed)?.mark, writable]);
  const known = plans.get(id);
  if (known) return known;
  // Where the seed mirrors each writable path (Python's prefix holds the source's absolute path).
  const open = writable.map((w) => path.posix.resolve('/', w).slice(1).split('/').join(path.sep));
  const holds = (rel: string) => open.some((w) => isSameOrInside(rel, w));
  const plan = { shown: [] as string[], copied: [] as string[] };
  for (const entry of checked.get(seed)?.entries ?? []) {
    const isDir = entry.endsWith('/');
    const rel = isDir ? entry.slice(0, -1) : entry;
    const parent = path.dirname(rel);
    // Only what sits in the prefix's own folders (the root, or one that holds a writable path):
    // anything deeper is inside a folder shown whole. Nothing at or under a writable path.
    if ((parent !== '.' && !holds(parent)) || open.some((w) => isSameOrInside(w, rel))) continue;
    if (!isDir) plan.copied.push(rel);
    else if (!holds(rel)) plan.shown.push(rel);
  }
  plans.set(id, plan);
  return plan;
}

/**
 * The seed `key` under `seedRoot`, built first when there is none or it cannot be trusted (once,
 * however many callers ask at the same time); undefined when it could not be built.
 */
export async function ensureSeed(seedRoot: string, key: string, build: Build): Promise<string | undefined> {
  const seed = path.join(seedRoot, key);
  if (await trusted(seedRoot, seed)) return seed;
  let pending = building.get(seed);
  if (!pending) {
    pending = buildSeed(seedRoot, seed, build).finally(() => building.delete(seed));
    building.set(seed, pending);
  }
  await pending;
  return (await trusted(seedRoot, seed)) ? seed : undefined;
}

/**
 * Copies `entries` (relative; folders end with '/') of `from` into `to`: the folders level by level,
 * then every file at once (a few hundred files: ~15 ms unloaded, against 120 ms with fs.cp).
 */
async function copyEntries(from: string, entries: readonly string[], to: string): Promise<void> {
  const dirs = entries.filter((e) => e.endsWith('/')).map((e) => e.slice(0, -1));
  const files = entries.filter((e) => !e.endsWith('/'));
  // Folders the files sit in that are not listed (files beside a writable path's folders) are made too.
  for (const f of files) for (let d = path.dirname(f); d !== '.'; d = path.dirname(d)) dirs.push(d);
  const levels = new Map<number, Set<string>>();
  for (const d of dirs) {
    const depth = d.split(path.sep).length;
    if (!levels.has(depth)) levels.set(depth, new Set());
    levels.get(depth)!.add(d);
  }
  await fs.mkdir(to, { recursive: true });
  for (const depth of [...levels.keys()].sort((a, b) => a - b)) {
    await Promise.all(
      [...levels.get(depth)!].map((d) => fs.mkdir(path.join(to, d)).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)))),
    );
  }
  await Promise.all(files.map((f) => fs.copyFile(path.join(from, f), path.join(to, f))));
}

/**
 * Whether the seed is complete, and every entry of it and the store it is in is ours and writable
 * by no one else, plain files and folders only. Checked once per process (a few hundred lstat
 * calls, ~10 ms): no command of a task can reach it while we run. What it holds is kept for the copy
 * and the mounts.
 */
async function trusted(seedRoot: string, seed: string): Promise<boolean> {
  if (await stillChecked(seed)) return true;
  const store = await fs.lstat(seedRoot).catch(() => undefined);
  if (!store?.isDirectory() || !ownedAndClosed(store)) return false;
  const mark = await markOf(seed);
  if (!mark) return false;
  const entries: string[] = [];
  const walk = async (rel: string): Promise<boolean> => {
    const dir = path.join(seed, rel);
    const st = await fs.lstat(dir);
    if (!st.isDirectory() || !ownedAndClosed(st)) return false;
    const names = await fs.readdir(dir);
    const results = await Promise.all(
      names.map(async (name) => {
        const r = rel ? path.join(rel, name) : name;
        const s = await fs.lstat(path.join(seed, r));
        if (s.isDirectory()) {
          entries.push(`${r}/`);
          return walk(r);
        }
        if (r !== COMPLETE) entries.push(r);
        return s.isFile() && ownedAndClosed(s);
      }),
    );
    return results.every(Boolean);
  };
  const ok = await walk('').catch(() => false);
  if (ok) checked.set(seed, { entries: entries.sort(), mark });
  return ok;
}

/**
 * Runs `build` in a work folder, then copies what it compiled (plain files only) into a staging
 * folder with this process's own hands (ours, read-only), and renames that into place whole. The
 * seeding run wrote its folder as the sandbox user: nothing of it is kept as it was.
 */
async function buildSeed(seedRoot: string, seed: string, build: Build): Promise<void> {
  await fs.mkdir(seedRoot, { recursive: true, mode: 0o700 });
  // A store that is not ours (or others may write) is left alone: every run then compiles.
  const store = await fs.lstat(seedRoot);
  if (!store.isDirectory() || !ownedAndClosed(store)) return;
  await fs.chmod(seedRoot, 0o700);
  const tag = `${path.basename(seed)}.${randomBytes(6).toString('hex')}`;
  const work = path.join(seedRoot, `build-${tag}`);
  const stage = path.join(seedRoot, `stage-${tag}`);
  await fs.mkdir(work, { mode: 0o700 });
  try {
    const filled = await build(work);
    // No bytecode written (pytest could not start): no seed, and the run that asked compiles.
    if (!filled || !(await isFolder(filled))) return;
    await copyPlain(filled, stage);
    await fs.writeFile(path.join(stage, COMPLETE), '', { mode: 0o444 });
    // One another process finished first is kept; one that cannot be trusted is replaced.
    if (await trusted(seedRoot, seed)) return;
    await fs.rm(seed, { recursive: true, force: true });
    await fs.rename(stage, seed).catch(() => undefined);
  } finally {
    await Promise.all([fs.rm(work, { recursive: true, force: true }), fs.rm(stage, { recursive: true, force: true })]);
  }
}

async function isFolder(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    (st) => st.isDirectory(),
    () => false,
  );
}

/** A copy of the plain files and folders under `from`, made by this process: files 0444, folders 0755. */
async function copyPlain(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { mode: 0o755 });
  for (const e of await fs.readdir(from, { withFileTypes: true })) {
    if (e.isDirectory()) await copyPlain(path.join(from, e.name), path.join(to, e.name));
    else if (e.isFile() && e.name.endsWith('.pyc')) {
      const data = await fs.readFile(path.join(from, e.name));
      await fs.writeFile(path.join(to, e.name), data, { mode: 0o444, flag: 'wx' });
    }
  }
  await fs.chmod(to, 0o755);
}
