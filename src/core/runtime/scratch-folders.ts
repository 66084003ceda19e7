// Scratch folders: what a confined command sees at a scratch mount (mounts.ts) is an empty,
// size-limited tmpfs, filled before the command starts with a copy of the host folder (its seed,
// shown read-only elsewhere). Copied as the step's own user, so everything in it is the step's to
// change, while the seed on the host stays as the harness wrote it. A CLI's caches, sessions and
// the key it writes down die with the step's mount namespace or container, even after a SIGKILL
// of the harness, and a full home is a full tmpfs, not a full disk.

/** A seed (where the command sees the host folder, read-only) and the scratch folder it fills. */
export interface ScratchSeed {
  seed: string;
  target: string;
}

/** Copies each seed into its folder (arguments: seed target … --), then becomes the command. */
const FILL_THEN_EXEC = 'while [ "$1" != -- ]; do cp -R "$1/." "$2" || exit 125; shift 2; done; shift; exec "$@"';

/** The argv that runs before the command to fill its scratch folders; empty when there are none. */
export function scratchFillPrefix(seeds: readonly ScratchSeed[]): string[] {
  if (seeds.length === 0) return [];
  return ['/bin/sh', '-c', FILL_THEN_EXEC, 'sh', ...seeds.flatMap((s) => [s.seed, s.target]), '--'];
}

/** Where a sandboxed command's seeds are shown (in its own /run). */
export const SANDBOX_SEED_DIR = '/run/sweci-seed';

/** Where the i-th scratch mount's seed is shown to a sandboxed command. */
export const sandboxSeedPath = (i: number): string => `${SANDBOX_SEED_DIR}/${i}`;

/** Where the i-th scratch mount's seed is shown in a container. */
export const containerSeedPath = (i: number): string => `/sweci/seed/${i}`;
