// Which lines count, and with what. With sweci.integrity.excludeHarnessTampering on, an
// iteration whose code changes how pytest collects or reports tests (its line's
// harness_tampering) is scored as one whose pytest did not run: gap −1, no passed tests. With
// sweci.integrity.scoreTargetTestsOnly on, a line's passed count is that of the tests the target
// passes (the paper's n(c) over T, the line's `passed`) instead of everything pytest says passed
// (the reference's count): passes the target never had (metrics/inflated.ts) then add nothing.
// The line on disk keeps what was measured.
import { lineFlags, SCORE_FLAGS, type FlaggedLine, type RunFlag } from './run-flags';

export interface ScoringRules {
  excludeHarnessTampering?: boolean;
  scoreTargetTestsOnly?: boolean;
}

export interface HarnessFlags {
  gap: number;
  pytest: Record<string, number>;
  harness_tampering?: readonly string[];
  pytest_error?: string;
  /** Passed tests among those the target passes; null when pytest did not run. */
  passed?: number | null;
}

export function scoredLine<T extends HarnessFlags>(line: T, rules: ScoringRules = {}): T {
  const flagged = line.harness_tampering ?? [];
  if (rules.excludeHarnessTampering && flagged.length > 0 && line.gap >= 0) {
    return {
      ...line,
      gap: -1,
      pytest: {},
      pytest_error: `Not scored: the code changes how pytest collects or reports tests (${flagged.join(', ')}), and sweci.integrity.excludeHarnessTampering is on.`,
    };
  }
  if (rules.scoreTargetTestsOnly && line.gap >= 0 && typeof line.passed === 'number') return { ...line, pytest: { ...line.pytest, passed: line.passed } };
  return line;
}

/**
 * The flags a run's score rests on: SCORE_FLAGS of any of its lines, less those the strict rules
 * kept out of the score (harness tampering scored as not run; inflated passes not counted).
 */
export function scoreFlags(lines: readonly FlaggedLine[], rules: ScoringRules = {}): RunFlag[] {
  const kept = new Set(lines.flatMap(lineFlags));
  if (rules.excludeHarnessTampering) kept.delete('harness-tampering');
  if (rules.scoreTargetTestsOnly) kept.delete('inflated');
  return SCORE_FLAGS.filter((f) => kept.has(f));
}
