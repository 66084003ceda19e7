// Which lines count. With sweci.integrity.excludeHarnessTampering on, an iteration whose code
// changes how pytest collects or reports tests (its line's harness_tampering) is scored as one
// whose pytest did not run: gap −1, no passed tests. The line on disk keeps what was measured.
import type { RunLine } from './run-metrics';

export interface HarnessFlags {
  gap: number;
  pytest: Record<string, number>;
  harness_tampering?: readonly string[];
  pytest_error?: string;
}

export function scoredLine<T extends RunLine & HarnessFlags>(line: T, excludeHarnessTampering: boolean): T {
  const flagged = line.harness_tampering ?? [];
  if (!excludeHarnessTampering || flagged.length === 0 || line.gap < 0) return line;
  return {
    ...line,
    gap: -1,
    pytest: {},
    pytest_error: `Not scored: the code changes how pytest collects or reports tests (${flagged.join(', ')}), and sweci.integrity.excludeHarnessTampering is on.`,
  };
}
