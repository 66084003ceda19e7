// Spreads coinciding chart points of different series apart. Pure: unit-tested in node.

interface Placed {
  x: number;
  y: number;
}

/** Horizontal spread between series whose points coincide, in iterations. */
const DODGE = 0.08;

/**
 * Nudges coinciding points of different series apart so no line hides under another (a replay of
 * the developers and an agent that reproduces their commits draw the same points). A point keeps
 * its iteration in `p`; only where it is drawn moves.
 */
export function dodgeCoinciding<T extends Placed>(series: T[][]): T[][] {
  const owners = new Map<string, number[]>();
  series.forEach((pts, i) =>
    pts.forEach((xy) => {
      const key = `${xy.x}:${xy.y.toFixed(6)}`;
      const list = owners.get(key) ?? [];
      if (!list.includes(i)) list.push(i);
      owners.set(key, list);
    }),
  );
  return series.map((pts, i) =>
    pts.map((xy) => {
      const list = owners.get(`${xy.x}:${xy.y.toFixed(6)}`)!;
      if (list.length < 2) return xy;
      return { ...xy, x: xy.x + (list.indexOf(i) - (list.length - 1) / 2) * DODGE };
    }),
  );
}
