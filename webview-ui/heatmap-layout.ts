// Where the heatmap's cells go and which test a pixel is: pure layout, no DOM (unit-tested in node).
import type { HeatmapData as Heatmap } from '../src/shared/chart-types';

export interface HeatmapLayout {
  /** Tests in drawing order (changing ones first). */
  order: number[];
  rowHeight: number;
  testsPerRow: number;
  cellWidth: number;
  width: number;
  height: number;
}

// Cells are status digits: '0' missing, '1' passed, '2' failed, '3' error. A row standing
// for several tests shows the worst: error > failed > missing > passed.
export const RANK: Record<string, number> = { '1': 0, '0': 1, '2': 2, '3': 3 };
const NAMES: Record<string, string> = { '0': 'missing', '1': 'passed', '2': 'failed', '3': 'error' };

/** Tests that regressed come first, then the others whose status changed, then failing, then passing. */
export function heatmapOrder(h: Heatmap): number[] {
  const n = h.columns.length;
  const regressed = new Set(h.regressions.flatMap((r) => r.tests));
  const score = (t: number): number => {
    if (regressed.has(t)) return 0;
    const row = h.cells.slice(t * n, t * n + n);
    if (/^(.)\1*$/.test(row)) return row[0] === '1' ? 3 : 2;
    return 1;
  };
  const scores = h.tests.map((_, t) => score(t));
  return h.tests.map((_, t) => t).sort((a, b) => scores[a] - scores[b] || (h.tests[a] < h.tests[b] ? -1 : 1));
}

export function heatmapLayout(h: Heatmap, maxWidth: number, maxHeight = 480): HeatmapLayout {
  const cellWidth = Math.max(4, Math.min(48, Math.floor(maxWidth / Math.max(1, h.columns.length))));
  const rowHeight = Math.max(1, Math.min(14, Math.floor(maxHeight / Math.max(1, h.tests.length))));
  const testsPerRow = Math.max(1, Math.ceil((h.tests.length * rowHeight) / maxHeight));
  const rows = Math.ceil(h.tests.length / testsPerRow);
  return { order: heatmapOrder(h), rowHeight, testsPerRow, cellWidth, width: cellWidth * h.columns.length, height: Math.max(1, rows * rowHeight) };
}

/** The test(s) and iteration under canvas pixel (x, y). */
export function heatmapHit(h: Heatmap, layout: HeatmapLayout, x: number, y: number): { tests: string[]; iteration: number; status: string } | undefined {
  const col = Math.floor(x / layout.cellWidth);
  const row = Math.floor(y / layout.rowHeight);
  const first = row * layout.testsPerRow;
  if (col < 0 || col >= h.columns.length || first < 0 || first >= layout.order.length) return undefined;
  const idx = layout.order.slice(first, first + layout.testsPerRow);
  const n = h.columns.length;
  const status = idx.map((t) => h.cells[t * n + col]).sort((a, b) => RANK[b] - RANK[a])[0];
  return { tests: idx.map((t) => h.tests[t]), iteration: h.columns[col].iteration, status: NAMES[status] };
}
