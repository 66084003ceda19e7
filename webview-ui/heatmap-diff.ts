// Where two runs differ test by test: one heatmap whose cells say which of the two passes each
// scored test at each iteration both recorded. Pure (unit-tested in node); drawn by heatmap.ts
// with its own colours; outcome-text.ts says what each cell code means.
import type { HeatmapData as Heatmap } from '../src/shared/chart-types';

function columnOf(h: Heatmap, iteration: number): number {
  return h.columns.findIndex((c) => c.iteration === iteration);
}

/**
 * Rows: the scored tests of either run (the same list when both runs are of one task). Columns:
 * the iterations both runs recorded. A column where either pytest did not run is '0' throughout.
 */
export function diffHeatmaps(a: Heatmap, b: Heatmap): Heatmap {
  const tests = [...new Set([...a.tests, ...b.tests])].sort();
  const rowA = new Map(a.tests.map((t, i) => [t, i]));
  const rowB = new Map(b.tests.map((t, i) => [t, i]));
  const iterations = a.columns.map((c) => c.iteration).filter((it) => columnOf(b, it) >= 0);
  const cols = iterations.map((it) => {
    const ca = columnOf(a, it);
    const cb = columnOf(b, it);
    return { iteration: it, ca, cb, ran: a.columns[ca].ran && b.columns[cb].ran };
  });
  const passes = (h: Heatmap, row: number | undefined, col: number): boolean => row !== undefined && h.cells[row * h.columns.length + col] === '1';
  let cells = '';
  for (const t of tests) {
    for (const c of cols) {
      if (!c.ran) {
        cells += '0';
        continue;
      }
      const pa = passes(a, rowA.get(t), c.ca);
      const pb = passes(b, rowB.get(t), c.cb);
      cells += pa && pb ? '1' : pa ? '2' : pb ? '3' : '0';
    }
  }
  return { run: `${a.run} vs ${b.run}`, tests, columns: cols.map(({ iteration, ran }) => ({ iteration, ran })), cells, regressions: [] };
}

/** Rows where the two runs differ at some iteration. */
export function differingTests(diff: Heatmap): number {
  const n = diff.columns.length;
  let count = 0;
  for (let t = 0; t < diff.tests.length; t++) if (/[23]/.test(diff.cells.slice(t * n, t * n + n))) count++;
  return count;
}
