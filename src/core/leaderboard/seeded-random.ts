// The leaderboard's one source of randomness: mulberry32, a 32-bit generator (one add, two
// multiplies and shifts per number) that is small, fast and, given the same seed, gives the same
// numbers on every machine and Node version. The bootstrap draws from it so that `sweci
// leaderboard --seed S` prints the same bytes every time. Pure: no node imports.

/** A generator of numbers in [0, 1) from a seed (any integer; taken modulo 2^32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [0, n) from the generator. */
export function randomIndex(random: () => number, n: number): number {
  return Math.floor(random() * n);
}
