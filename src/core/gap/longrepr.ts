// Reading pytest's long failure representations the way the reference does.
import { TEST_PHASES, type TestCase, type TestPhase } from '../pytest/test-report';

// Python's str.strip() removes every character for which str.isspace() is true; JS trim()
// misses \x1c-\x1f and \x85 and strips \ufeff, which Python keeps.
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

function pythonStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

/** The reference's reason: the last '\n'-separated line of the stripped longrepr. */
export function lastLine(longrepr: string): string {
  const stripped = pythonStrip(longrepr);
  return stripped.slice(stripped.lastIndexOf('\n') + 1);
}

export interface PhaseFailure {
  phase: TestPhase;
  longrepr: string;
}

/** The first of setup, call, teardown that has a longrepr (its presence, even if empty, counts). */
export function firstLongrepr(test: TestCase): PhaseFailure | undefined {
  for (const phase of TEST_PHASES) {
    const longrepr = test.phases[phase]?.longrepr;
    if (longrepr !== undefined) return { phase, longrepr };
  }
  return undefined;
}

/** The first `maxLines` lines, for a tooltip. */
export function headLines(text: string, maxLines = 15): string {
  let end = -1;
  for (let i = 0; i < maxLines; i++) {
    end = text.indexOf('\n', end + 1);
    if (end < 0) return text;
  }
  return text.slice(0, end);
}
