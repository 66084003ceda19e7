// pytest's bytecode goes to a fresh, empty folder for each run (PYTHONPYCACHEPREFIX, see
// pytest-command.ts), so that nothing the code under test wrote in one run is loaded by the next.
// With an empty prefix Python compiles pytest and every standard module it imports again on each
// run: about 1 s of a 1.5 s run on a small project. The seed is that bytecode, compiled once per
// interpreter and runtime on this machine by a run that executes none of any task's code (pytest on
// an empty folder), kept in this user's cache where no command of a task can reach it, and copied
// into each run's fresh prefix. A copy, not a link: what the code under test does to its
// copy is gone with the run. Python checks every .pyc against its source's size and mtime, so a
// stale seed (an upgraded interpreter) only costs the time it would have saved.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from '../util/user-cache';

const COMPLETE = '.complete';

/** Where this machine's seeds are kept: one per interpreter and runtime, shared by every task. */
export function machineSeedStore(): string {
  return path.join(userCacheDir(), 'bytecode-seeds');
}

/** Builds under way in this process, by seed folder: a second caller waits for the first. */
const building = new Map<string, Promise<void>>();

/** Seeds are kept per interpreter and runtime: a container's standard library is not this machine's. */
export function seedKey(runtimeDescription: string, python: string): string {
  return createHash('sha256').update(`${runtimeDescription}\0${python}`).digest('hex').slice(0, 16);
}

/**
 * Fills `prefixDir` (a fresh, empty folder) from the seed `key` under `seedRoot`, building the seed
 * first when there is none. `build(dir)` runs the seeding pytest in the folder it is given and
 * returns the prefix folder it filled, or undefined when it could not run (then no seed is kept,
 * and this run compiles as it would without one).
 */
export async function fillFromSeed(seedRoot: string, key: string, prefixDir: string, build: (dir: string) => Promise<string | undefined>): Promise<void> {
  const seed = await ensureSeed(seedRoot, key, build);
  // A copy that fails half-way only leaves this run compiling what is missing.
  if (seed) await copySeed(seed, prefixDir).catch(() => undefined);
}

/**
 * The seed `key` under `seedRoot`, built first when there is none (once, however many callers ask
 * at the same time); undefined when it could not be built.
 */
export async function ensureSeed(seedRoot: string, key: string, build: (dir: string) => Promise<string | undefined>): Promise<string | undefined> {
  const seed = path.join(seedRoot, key);
  if (await isComplete(seed)) return seed;
  let pending = building.get(seed);
  if (!pending) {
    pending = buildSeed(seedRoot, seed, build).finally(() => building.delete(seed));
    building.set(seed, pending);
  }
  await pending;
  return (await isComplete(seed)) ? seed : undefined;
}

/**
 * The seed holds folders and bytecode files the harness wrote, nothing else. Copied a folder's
 * entries at once: a few hundred files take about 15 ms this way, against 120 ms with fs.cp.
 */
async function copySeed(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  const entries = await fs.readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map(async (e) => {
      if (e.isDirectory()) await copySeed(path.join(from, e.name), path.join(to, e.name));
      else if (e.isFile() && e.name !== COMPLETE) await fs.copyFile(path.join(from, e.name), path.join(to, e.name));
    }),
  );
}

async function isComplete(seed: string): Promise<boolean> {
  return fs.access(path.join(seed, COMPLETE)).then(
    () => true,
    () => false,
  );
}

async function buildSeed(seedRoot: string, seed: string, build: (dir: string) => Promise<string | undefined>): Promise<void> {
  const work = path.join(seedRoot, `${path.basename(seed)}.build-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(work, { recursive: true });
  try {
    const filled = await build(work);
    if (!filled) return;
    await fs.writeFile(path.join(filled, COMPLETE), '');
    // One another process finished first is kept; what a process that died left half-built is replaced.
    if (await isComplete(seed)) return;
    await fs.rm(seed, { recursive: true, force: true });
    await fs.rename(filled, seed).catch(() => undefined);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
