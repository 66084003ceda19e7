// Regressions as the authors' later framework counts them: an iteration regresses when its
// pytest.passed is below that of the last iteration whose pytest RAN. An iteration whose pytest
// did not run (gap −1) is not compared and is not a comparison point: the next iteration that
// ran is compared with the one before the crash. Amplitude = drop / previous passed.
// Pure: no node imports.
import { referencePassed, type ReferenceLine } from './reference-summary';

export interface RegressionEvent {
  /** The iteration that regressed (the line's `iteration`, or its index when absent). */
  iteration: number;
  /** The iteration it was compared with: the last one before it whose pytest ran. */
  comparedWith: number;
  from: number;
  to: number;
  /** from − to (> 0). */
  drop: number;
  /** drop / from, in (0, 1]. */
  amplitude: number;
}

export interface RegressionSummary {
  /** Number of regressing iterations. */
  count: number;
  /** Amplitude of each regression, in order. */
  amplitudes: number[];
  events: RegressionEvent[];
}

/**
 * Regressions of a sequence of passed counts, index 0 = the base; null = pytest did not run.
 * `iterations[i]` names value i (default: i).
 */
function regressionsOf(values: ReadonlyArray<number | null>, iterations?: readonly number[]): RegressionSummary {
  const events: RegressionEvent[] = [];
  let last: { value: number; iteration: number } | undefined;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) return;
    const iteration = iterations?.[i] ?? i;
    if (last && v < last.value) {
      const drop = last.value - v;
      events.push({ iteration, comparedWith: last.iteration, from: last.value, to: v, drop, amplitude: drop / last.value });
    }
    last = { value: v, iteration };
  });
  return { count: events.length, amplitudes: events.map((e) => e.amplitude), events };
}

/**
 * The one definition of a regressed test, for iteration records and the heatmap alike: one of
 * the scored tests (those the target passes) that passed in the last iteration whose pytest
 * ran and does not pass now. Sorted.
 */
export function regressedIds(lastRanPassed: ReadonlySet<string>, nowPassed: ReadonlySet<string>, scored: ReadonlySet<string>): string[] {
  return [...lastRanPassed].filter((id) => scored.has(id) && !nowPassed.has(id)).sort();
}

/** pytest.passed of a line, null when its pytest did not run (gap −1). */
export function ranPassed(line: ReferenceLine): number | null {
  return line.gap < 0 ? null : referencePassed(line);
}

/** Regressions over iteration.jsonl lines (line 0 = the base), by pytest.passed. */
export function lineRegressions(lines: ReadonlyArray<ReferenceLine & { iteration?: number }>): RegressionSummary {
  return regressionsOf(
    lines.map(ranPassed),
    lines.map((l, i) => l.iteration ?? i),
  );
}
