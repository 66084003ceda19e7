// The non-passed set: node ids passed by the target − node ids passed now.
import * as path from 'node:path';
import { passedIds, type TestCase, type TestOutcome, type TestPhase, type TestReport } from '../pytest/test-report';
import { detailFileNames } from './detail-file-name';
import { firstLongrepr, headLines, lastLine } from './longrepr';

/**
 * In the target's test order (the reference uses set order; order is not significant).
 * Without a current report (pytest did not run) every test the target passes is non-passed.
 */
export function nonPassedIds(current: TestReport | undefined, target: TestReport): string[] {
  const passedNow = current ? passedIds(current) : new Set<string>();
  const ids: string[] = [];
  for (const id of passedIds(target)) if (!passedNow.has(id)) ids.push(id);
  return ids;
}

export type NonPassedKind = 'failed' | 'error' | 'not-collected' | 'skipped';

/** One non-passed test, as views show it. */
export interface NonPassedEntry {
  nodeid: string;
  kind: NonPassedKind;
  /** The current outcome; absent when the test is not in the current report. */
  outcome?: TestOutcome;
  /** The first phase with a failure report. */
  stage?: TestPhase;
  /** Last line of that report (the reference's "Reason"), without the "Reason: " prefix. */
  reason?: string;
  /** The first lines of that report. */
  tracebackHead?: string;
  /**
   * The error as a person reads it first: the first `E ` line of the report (e.g. the failed
   * assert), else the crash message. The reference's reason (last line) is often a `+ where` line.
   */
  headline?: string;
  /** Test file relative to the code folder (posix). */
  file: string;
  /** 0-based line of the test definition, from the current report, else the target's. */
  lineno?: number;
  /** Absolute path of the detail file, when a detail folder was given and the test ran. */
  detailFile?: string;
}

export interface ClassifyOptions {
  /** Folder the detail files are written to (see writeNonPassed). */
  detailDir?: string;
}

export function classify(current: TestReport | undefined, target: TestReport, options: ClassifyOptions = {}): NonPassedEntry[] {
  const ids = nonPassedIds(current, target);
  const currentById = indexById(current);
  const targetById = indexById(target);
  const names = detailFileNames(ids.filter((id) => currentById.has(id)));
  return ids.map((nodeid) => {
    const now = currentById.get(nodeid);
    const then = targetById.get(nodeid);
    const file = now?.file ?? then?.file ?? fileOfNodeId(nodeid);
    if (!now) return { nodeid, kind: 'not-collected', file, lineno: then?.lineno };
    const entry: NonPassedEntry = { nodeid, kind: kindOf(now.outcome), outcome: now.outcome, file, lineno: now.lineno ?? then?.lineno };
    const failure = firstLongrepr(now);
    if (failure) {
      entry.stage = failure.phase;
      entry.reason = lastLine(failure.longrepr);
      entry.tracebackHead = headLines(failure.longrepr);
      entry.headline = headlineOf(failure.longrepr, now.phases[failure.phase]?.crash?.message) ?? entry.reason;
    }
    const name = names.get(nodeid);
    if (options.detailDir && name) entry.detailFile = path.join(options.detailDir, name);
    return entry;
  });
}

function headlineOf(longrepr: string, crashMessage: string | undefined): string | undefined {
  const eLine = longrepr.split('\n').find((line) => /^E\s/.test(line));
  const text = eLine?.replace(/^E\s+/, '') ?? crashMessage?.split('\n')[0];
  return text?.trim() || undefined;
}

function kindOf(outcome: TestOutcome): NonPassedKind {
  if (outcome === 'error') return 'error';
  if (outcome === 'failed') return 'failed';
  // skipped, xfailed, xpassed, or an outcome a plugin invented: the test did not pass.
  return 'skipped';
}

export function indexById(report: TestReport | undefined): Map<string, TestCase> {
  const m = new Map<string, TestCase>();
  if (report) for (const t of report.tests) m.set(t.nodeid, t);
  return m;
}

function fileOfNodeId(nodeid: string): string {
  const sep = nodeid.indexOf('::');
  return sep >= 0 ? nodeid.slice(0, sep) : nodeid;
}
