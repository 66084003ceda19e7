// The per-test heatmap (tests × iterations) on a canvas. Pixels are written straight into an
// ImageData, one rectangle per cell, so 5,000 × 20 cells draw in a few milliseconds; with more
// tests than pixel rows, one row shows several tests by their worst status.
import type { HeatmapData as Heatmap } from '../src/shared/chart-types';
import { RANK, heatmapLayout, type HeatmapLayout } from './heatmap-layout';

export { heatmapHit, heatmapOrder } from './heatmap-layout';
export type { HeatmapLayout };

export interface HeatmapColours {
  passed: string;
  failed: string;
  error: string;
  missing: string;
  background: string;
  /** Marks the cells where a test regressed (drawn over the status colour). */
  foreground?: string;
}

function rgba(colour: string, ctx: CanvasRenderingContext2D): [number, number, number, number] {
  // Let the canvas parse any CSS colour (theme variables can be rgba(), #rgb, names…).
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  // Opaque: putImageData does not blend, so a translucent theme colour would come out dark.
  return [d[0], d[1], d[2], 255];
}

/** `colour` without its alpha, as the heatmap draws it (for the key's swatches). */
export function opaqueColour(colour: string): string {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return colour;
  const [r, g, b] = rgba(colour, ctx);
  return `rgb(${r}, ${g}, ${b})`;
}

/** Draws `h` into `canvas` and returns the layout (for hit-testing). */
export function drawHeatmap(canvas: HTMLCanvasElement, h: Heatmap, colours: HeatmapColours, maxWidth: number): HeatmapLayout {
  const layout = heatmapLayout(h, maxWidth);
  canvas.width = layout.width;
  canvas.height = layout.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: false })!;
  const codes: Record<string, [number, number, number, number]> = {
    '0': rgba(colours.missing, ctx),
    '1': rgba(colours.passed, ctx),
    '2': rgba(colours.failed, ctx),
    '3': rgba(colours.error, ctx),
  };
  const img = ctx.createImageData(layout.width, layout.height);
  const px = img.data;
  const n = h.columns.length;
  const { order, testsPerRow, rowHeight, cellWidth, width } = layout;
  const gap = cellWidth > 6 ? 1 : 0;
  for (let row = 0, first = 0; first < order.length; row++, first += testsPerRow) {
    for (let it = 0; it < n; it++) {
      let worst = '1';
      for (let k = first; k < Math.min(order.length, first + testsPerRow); k++) {
        const c = h.cells[order[k] * n + it];
        if (RANK[c] > RANK[worst]) worst = c;
      }
      const [r, g, b, a] = codes[worst];
      const y0 = row * rowHeight;
      const x0 = it * cellWidth;
      for (let y = y0; y < y0 + rowHeight - (rowHeight > 3 ? 1 : 0); y++) {
        let o = (y * width + x0) * 4;
        for (let x = 0; x < cellWidth - gap; x++, o += 4) {
          px[o] = r;
          px[o + 1] = g;
          px[o + 2] = b;
          px[o + 3] = a;
        }
      }
    }
  }
  ctx.putImageData(img, 0, 0);
  // Regressions: a bar at the left of the cell of each test that stopped passing there.
  if (colours.foreground && h.regressions.length) {
    const rowOf = new Map<number, number>();
    order.forEach((t, k) => rowOf.set(t, Math.floor(k / testsPerRow)));
    const colOf = new Map(h.columns.map((c, i) => [c.iteration, i]));
    ctx.fillStyle = colours.foreground;
    const bar = Math.max(2, Math.floor(cellWidth / 5));
    for (const r of h.regressions) {
      const col = colOf.get(r.iteration);
      if (col === undefined) continue;
      for (const t of r.tests) {
        const row = rowOf.get(t);
        if (row !== undefined) ctx.fillRect(col * cellWidth, row * rowHeight, bar, Math.max(1, rowHeight - (rowHeight > 3 ? 1 : 0)));
      }
    }
  }
  return layout;
}
