// How far apart two colours look (CIELAB ΔE, 1976), so the chart gives runs colours a person can
// tell apart: a theme's chart colours can be near twins (Light Modern's orange and yellow are
// ΔE ≈ 10). Pure: no DOM, unit-tested in node.

export type Rgb = readonly [number, number, number];

/** Below this two lines read as one colour at a glance (ΔE ≈ 2 is the smallest visible step). */
export const MIN_SERIES_DISTANCE = 25;

/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb() or rgba() (alpha ignored); undefined for anything else. */
export function parseColour(text: string): Rgb | undefined {
  const s = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s);
  if (hex) {
    const h = hex[1];
    const short = h.length <= 4;
    const at = (i: number) => (short ? parseInt(h[i] + h[i], 16) : parseInt(h.slice(i * 2, i * 2 + 2), 16));
    return [at(0), at(1), at(2)];
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(s);
  if (fn) return [Number(fn[1]), Number(fn[2]), Number(fn[3])].map((v) => Math.max(0, Math.min(255, v))) as unknown as Rgb;
  return undefined;
}

function toLab([r, g, b]: Rgb): Rgb {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  // sRGB → XYZ (D65), each axis over the white point's.
  const x = (R * 0.4124 + G * 0.3576 + B * 0.1805) / 0.95047;
  const y = R * 0.2126 + G * 0.7152 + B * 0.0722;
  const z = (R * 0.0193 + G * 0.1192 + B * 0.9505) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIELAB ΔE (1976) between two colours. */
export function colourDistance(a: Rgb, b: Rgb): number {
  const p = toLab(a);
  const q = toLab(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** A theme's line colour may be translucent (VS Code's charts.orange is): lines are drawn opaque. */
export function opaque(colour: string): string {
  const rgb = parseColour(colour);
  return rgb ? `rgb(${rgb.map(Math.round).join(', ')})` : colour;
}

/** Lines nearer than this to the page behind them are hard to follow. */
export const MIN_BACKGROUND_DISTANCE = 40;

/**
 * The candidates, in order and made opaque, less each that looks like one kept before it or like
 * one of `taken` (colours already spoken for), or that is too near the `background`. The first
 * candidate is always kept; a colour that cannot be parsed is kept as it is.
 */
export function distinctColours(candidates: readonly string[], opts: { taken?: readonly string[]; background?: string } = {}): string[] {
  const kept: string[] = [];
  const seen: Rgb[] = (opts.taken ?? []).map(parseColour).filter((c): c is Rgb => c !== undefined);
  const background = opts.background === undefined ? undefined : parseColour(opts.background);
  for (const c of candidates) {
    const rgb = parseColour(c);
    const alike =
      rgb && (seen.some((s) => colourDistance(s, rgb) < MIN_SERIES_DISTANCE) || (background && colourDistance(background, rgb) < MIN_BACKGROUND_DISTANCE));
    const colour = opaque(c);
    if ((kept.length && alike) || kept.includes(colour)) continue;
    kept.push(colour);
    if (rgb) seen.push(rgb);
  }
  return kept;
}
