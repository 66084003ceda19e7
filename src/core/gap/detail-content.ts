// Content of a per-test detail file: the test's json-report entry, indented by 4 like the
// reference's json.dump(..., indent=4). JUnit has no such entry, so one is built in the same shape.
import { TEST_PHASES, type TestCase } from '../pytest/test-report';

export function detailEntry(test: TestCase): unknown {
  if (test.raw !== undefined) return test.raw;
  const entry: Record<string, unknown> = { nodeid: test.nodeid, lineno: test.lineno, outcome: test.outcome };
  for (const phase of TEST_PHASES) {
    const p = test.phases[phase];
    if (!p) continue;
    const out: Record<string, unknown> = { outcome: p.outcome };
    if (p.crash) out.crash = p.crash;
    if (p.longrepr !== undefined) out.longrepr = p.longrepr;
    entry[phase] = out;
  }
  return entry;
}

export function detailContent(test: TestCase): string {
  return JSON.stringify(detailEntry(test), null, 4);
}
