// "Did you mean …?" for a test id that is not known: the known id closest to it, when one is
// close enough to be a typo (a few characters off, in the same test file when it names one).

/** Edits (insert, delete, replace) from a to b, or Infinity once past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]);
    }
    if (best > limit) return Infinity;
    prev = row;
  }
  return prev[b.length];
}

const fileOf = (id: string): string => id.split('::')[0];
const MAX_CANDIDATES = 2000;
const nameOf = (id: string): string => id.slice(id.lastIndexOf('::') + 2);

/**
 * How far `id` is from `candidate`: edits over the whole id, or — in the same file — one more
 * than the edits between the test names, so a test named without its class is still found.
 */
function closeness(id: string, candidate: string, limit: number): number {
  const whole = distance(id, candidate, limit);
  if (fileOf(id) !== fileOf(candidate) || !id.includes('::')) return whole;
  return Math.min(whole, distance(nameOf(id), nameOf(candidate), limit - 1) + 1);
}

/** The known id nearest to `id`, when it is within a third of the id's length after its file (at most 8 edits). */
export function nearestTestId(id: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(8, Math.max(1, Math.floor((id.length - fileOf(id).length) / 3)));
  const all = [...known];
  // A typo rarely hits the file too: look in the id's own file when it has known tests, and
  // across every file only when there are few enough to stay quick while someone types.
  const sameFile = all.filter((k) => fileOf(k) === fileOf(id));
  const candidates = sameFile.length > 0 ? sameFile : all.length <= MAX_CANDIDATES ? all : [];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === id) return undefined;
    const d = closeness(id, candidate, Math.min(limit, bestDistance));
    // Ties go to the earlier id in sorted order, so the answer does not depend on set order.
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
