// An archived test report as a person reads it: one row per test with its outcome, how long it
// took and the first lines of why it did not pass, failures first. Read from the report the
// parsers made (report.json), never from pytest's raw output a second way.
import { firstLongrepr, headLines, lastLine } from '../gap/longrepr';
import type { TestCase, TestOutcome, TestReport } from '../pytest/test-report';

export interface ReportRow {
  nodeid: string;
  outcome: TestOutcome;
  /** Seconds, when the report kept them. */
  durationSec?: number;
  /** The failure's (or skip's) first lines; none for a test that passed. */
  message?: string;
}

/** Lines of a failure shown in the table; the raw report has the rest. */
const MESSAGE_LINES = 3;
const MESSAGE_CHARS = 400;

/** Failures first: what broke, then what pytest was told to expect, then what passed. */
const ORDER: Record<TestOutcome, number> = { error: 0, failed: 1, xpassed: 2, skipped: 3, xfailed: 4, passed: 5 };

export const OUTCOME_ORDER = (Object.keys(ORDER) as TestOutcome[]).sort((a, b) => ORDER[a] - ORDER[b]);

export function reportRows(report: TestReport): ReportRow[] {
  return report.tests
    .map((t) => ({
      nodeid: t.nodeid,
      outcome: t.outcome,
      ...(t.durationSec === undefined ? {} : { durationSec: t.durationSec }),
      ...(t.outcome === 'passed' ? {} : messageOf(t)),
    }))
    .sort((a, b) => ORDER[a.outcome] - ORDER[b.outcome] || (a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0));
}

/** How many tests had each outcome, in table order (outcomes no test had left out). */
export function outcomeCounts(rows: readonly ReportRow[]): [TestOutcome, number][] {
  const n = new Map<TestOutcome, number>();
  for (const r of rows) n.set(r.outcome, (n.get(r.outcome) ?? 0) + 1);
  return OUTCOME_ORDER.filter((o) => n.has(o)).map((o) => [o, n.get(o)!]);
}

function messageOf(t: TestCase): { message?: string } {
  const f = firstLongrepr(t);
  if (!f) return {};
  // pytest marks the assertion's lines with "E "; a skip's longrepr is Python's (path, line, reason).
  const eLines = f.longrepr
    .split('\n')
    .filter((l) => /^E\s/.test(l))
    .map((l) => l.replace(/^E\s+/, ''))
    .filter((l) => l.trim());
  const skip = /^\(.*, \d+, (['"])([\s\S]*)\1\)$/.exec(f.longrepr.trim());
  const text = eLines.length ? eLines.join('\n') : skip ? skip[2] : (t.phases[f.phase]?.crash?.message ?? lastLine(f.longrepr));
  const head = headLines(text.trim(), MESSAGE_LINES);
  const message = head.length > MESSAGE_CHARS ? `${head.slice(0, MESSAGE_CHARS)}…` : head;
  // An error happened around the test (setup or teardown): say where.
  return message ? { message: t.outcome === 'error' ? `${f.phase}: ${message}` : message } : {};
}

/** An iteration's archived report, as the iteration view's test report shows it. */
export interface IterationReport {
  /** The archived report.json (the raw report, opened as it is), and whether it is there. */
  file: string;
  raw: boolean;
  rows?: ReportRow[];
  /** Why there are no rows. */
  missing?: string;
}
