// Which lines count, and with what. By default a line whose own measurement is in doubt is
// scored at its honest figure, so an inflated or tampered run is never solved and never scores
// above what was honestly measured:
// - inflated (passes that neither the target nor the base run had, metrics/inflated.ts): its
//   passed count less those passes. The rest is counted as the reference counts it.
// - harness tampering (its code changes how pytest collects or reports tests): its report cannot
//   be trusted at all (a conftest can turn every failure into a pass), so the line scores what
//   the run last measured honestly (the line before it, as scored; the base run for the first).
//   No credit for what could not be measured, and no penalty either: an honest conftest is
//   flagged too.
// `keepFlagged` (--keep-flagged, sweci.integrity.keepFlagged) keeps the raw figures, the
// reference's. Stricter, on request: with sweci.integrity.excludeHarnessTampering such a line is
// scored as one whose pytest did not run (gap −1, no passed tests); with
// sweci.integrity.scoreTargetTestsOnly every line's passed count is that of the tests the target
// passes (the paper's n(c) over T, the line's `passed`). The line on disk keeps what was measured.
import { lineFlags, SCORE_FLAGS, type FlaggedLine, type RunFlag } from './run-flags';

export interface ScoringRules {
  excludeHarnessTampering?: boolean;
  scoreTargetTestsOnly?: boolean;
  /** Score flagged lines at their raw figures (the reference's), not their honest ones. */
  keepFlagged?: boolean;
}

export interface HarnessFlags {
  gap: number;
  pytest: Record<string, number>;
  harness_tampering?: readonly string[];
  inflated?: readonly string[];
  inflated_count?: number;
  pytest_error?: string;
  /** Passed tests among those the target passes; null when pytest did not run. */
  passed?: number | null;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** How many passes a line's code added to its own score (the list may be cut; the count is not). */
export function inflatedCount(line: Pick<HarnessFlags, 'inflated' | 'inflated_count'>): number {
  return line.inflated_count ?? line.inflated?.length ?? 0;
}

/** A run's lines as scored under `rules` (line 0, the base run, first). */
export function scoredLines<T extends HarnessFlags>(lines: readonly T[], rules: ScoringRules = {}): T[] {
  const out: T[] = [];
  for (const line of lines) out.push(scoredLine(line, out[out.length - 1], rules));
  return out;
}

/** One line as scored, given the line before it as scored (undefined for line 0). */
function scoredLine<T extends HarnessFlags>(line: T, before: T | undefined, rules: ScoringRules): T {
  if (line.gap < 0) return line;
  const tampering = line.harness_tampering ?? [];
  if (rules.excludeHarnessTampering && tampering.length > 0) {
    return {
      ...line,
      gap: -1,
      pytest: {},
      pytest_error: `Not scored: the code changes how pytest collects or reports tests (${tampering.join(', ')}), and sweci.integrity.excludeHarnessTampering is on.`,
    };
  }
  if (!rules.keepFlagged && tampering.length > 0 && before) {
    // The last honest measurement: what the line before scored (0 passed if its pytest did not run).
    const passed = before.gap < 0 ? 0 : count(before.pytest.passed);
    return { ...line, pytest: { ...line.pytest, passed }, passed: before.gap < 0 ? 0 : (before.passed ?? null) };
  }
  if (rules.scoreTargetTestsOnly && typeof line.passed === 'number') return { ...line, pytest: { ...line.pytest, passed: line.passed } };
  const inflated = inflatedCount(line);
  if (!rules.keepFlagged && inflated > 0) return { ...line, pytest: { ...line.pytest, passed: Math.max(0, count(line.pytest.passed) - inflated) } };
  return line;
}

/**
 * The flags a run's score rests on: SCORE_FLAGS of any of its lines, less those its scoring kept
 * out of the score (by default inflated passes and tampered reports; under the strict rules,
 * the same; with keepFlagged, none).
 */
export function scoreFlags(lines: readonly FlaggedLine[], rules: ScoringRules = {}): RunFlag[] {
  const kept = new Set(lines.flatMap(lineFlags));
  if (rules.excludeHarnessTampering || !rules.keepFlagged) kept.delete('harness-tampering');
  if (rules.scoreTargetTestsOnly || !rules.keepFlagged) kept.delete('inflated');
  return SCORE_FLAGS.filter((f) => kept.has(f));
}
