// The call timeline's geometry: one bar per call, its width proportional to the call's time (or
// tokens), never thinner than a bar a person can click. No DOM, so unit tests run it in node.
import type { TranscriptCall } from '../src/shared/transcript-schema';
import { callTokens } from './transcript-format';

export type TimelineMeasure = 'ms' | 'tokens';

export interface TimelineBar {
  x: number;
  width: number;
}

export interface TimelineLayout {
  bars: TimelineBar[];
  /** The whole strip: more than the width asked for when even the thinnest bars do not fit (it then scrolls). */
  width: number;
}

export function callMeasure(call: TranscriptCall, measure: TimelineMeasure): number {
  const v = measure === 'ms' ? (call.ms ?? 0) : callTokens(call);
  return Number.isFinite(v) && v > 0 ? v : 0;
}

/** The measure the timeline starts with: time when the calls have it, else tokens. */
export function defaultMeasure(calls: readonly TranscriptCall[]): TimelineMeasure {
  return calls.some((c) => (c.ms ?? 0) > 0) ? 'ms' : 'tokens';
}

/**
 * Bars for `values` in a strip `width` pixels wide with `gap` between bars: widths proportional
 * to the values, each at least `minWidth` (the space the thin ones take comes from the others).
 * All zero: equal widths.
 */
export function timelineLayout(values: readonly number[], width: number, opts: { minWidth?: number; gap?: number } = {}): TimelineLayout {
  const min = opts.minWidth ?? 3;
  const gap = opts.gap ?? 1;
  const n = values.length;
  if (n === 0) return { bars: [], width: 0 };
  const room = width - gap * (n - 1);
  if (room <= n * min) {
    // Not even the thinnest bars fit: each gets the minimum and the strip scrolls.
    return { bars: values.map((_, i) => ({ x: i * (min + gap), width: min })), width: n * min + (n - 1) * gap };
  }
  const total = values.reduce((s, v) => s + v, 0);
  const widths = total > 0 ? [...values] : values.map(() => 1);
  // Bars below the minimum are fixed at it; the rest share what is left, in proportion. Fixing
  // bars can push others under the minimum, hence the loop (at most n rounds).
  const fixed = new Uint8Array(n);
  let sized: number[] = [];
  for (;;) {
    const free = room - min * fixed.reduce((s, f) => s + f, 0);
    const share = widths.reduce((s, v, i) => s + (fixed[i] ? 0 : v), 0);
    sized = widths.map((v, i) => (fixed[i] ? min : share > 0 ? (v / share) * free : free / n));
    let changed = false;
    sized.forEach((w, i) => {
      if (!fixed[i] && w < min) {
        fixed[i] = 1;
        changed = true;
      }
    });
    if (!changed) break;
  }
  let x = 0;
  const bars = sized.map((w) => {
    const bar = { x, width: w };
    x += w + gap;
    return bar;
  });
  return { bars, width };
}
