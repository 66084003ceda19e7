// Ranks, groups and the cost frontier of the leaderboard: small pure functions over numbers
// (no node imports), each easy to check by hand.

export interface Scored {
  label: string;
  score: number;
}

/**
 * Competition ranking, best first: tied scores share a rank and the next rank skips (1, 1, 3).
 * Tied entries are listed by label so the order never depends on the input's.
 */
export function rankEntries(scored: readonly Scored[]): Array<Scored & { rank: number }> {
  const sorted = [...scored].sort((a, b) => b.score - a.score || a.label.localeCompare(b.label));
  const out: Array<Scored & { rank: number }> = [];
  sorted.forEach((s, i) => {
    const rank = i > 0 && s.score === sorted[i - 1].score ? out[i - 1].rank : i + 1;
    out.push({ ...s, rank });
  });
  return out;
}

/**
 * Groups in table order: an entry the pair test cannot tell from the entry above it shares that
 * entry's group; otherwise it starts the next. `distinguishable(i)` says whether entry i is
 * distinguishable from entry i − 1.
 */
export function groupsInOrder(count: number, distinguishable: (i: number) => boolean): number[] {
  const groups: number[] = [];
  for (let i = 0; i < count; i++) groups.push(i === 0 ? 1 : distinguishable(i) ? groups[i - 1] + 1 : groups[i - 1]);
  return groups;
}

export interface Priced {
  score: number;
  /** Dollars per task; null when unknown (such an entry is never on the frontier). */
  cost: number | null;
}

/** Whether each entry is on the cost frontier: no other is at least as good and at least as cheap, and better on one. */
export function costFrontier(entries: readonly Priced[]): boolean[] {
  return entries.map((e, i) => {
    if (e.cost === null) return false;
    const cost = e.cost;
    return !entries.some((o, j) => j !== i && o.cost !== null && o.score >= e.score && o.cost <= cost && (o.score > e.score || o.cost < cost));
  });
}
