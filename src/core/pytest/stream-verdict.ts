// What a run's report stream is worth: the report to score, or why nothing is scored, and whether
// the stream shows tampering. The stream must agree with itself (each test's outcome in the report
// with the phases streamed as pytest reported them), with pytest's exit status and with its
// summary line; a pytest-json-report file must agree with it too. A stream that does not is never
// scored as a pass: nothing is scored, or (a file that disagrees) the stream is.
import type { TestReport } from './test-report';
import { plural } from '../util/plural';
import type { StreamRead } from './report-stream';
import { parseJsonReport } from './parse-json-report';
import { ReportLimitError } from './report-error';
import { summaryCounts, summaryMismatch } from './summary-line';

export type StreamVerdict =
  { kind: 'scored'; report: TestReport; integrity: string[]; tampering?: string } | { kind: 'not-scored'; reason: string; tampering?: string };

export interface VerdictInput {
  exitCode: number;
  /** pytest's terminal output (its standard error, once the plugin has taken standard output). */
  output: string;
  /** json-report: the file pytest-json-report wrote, or why it could not be read. */
  file?: { report: TestReport } | { problem: string };
}

export function judgeStream(read: StreamRead, input: VerdictInput): StreamVerdict {
  const tampered = (what: string): StreamVerdict => {
    const tampering = `pytest's report stream ${what}`;
    return { kind: 'not-scored', reason: `Not scored: ${tampering}.`, tampering };
  };
  if (read.kind === 'absent') return tampered(`is missing: pytest exited with code ${input.exitCode} but SWE-CI's report plugin streamed nothing`);
  if (read.kind === 'unfinished') return tampered('stopped before its end frame (the channel was closed or taken over)');
  if (read.kind === 'broken') {
    // Only too large: an honest run can print that much into its report.
    if (read.limit) return { kind: 'not-scored', reason: `The report stream was not read: ${read.reason}.` };
    return tampered(`is not what SWE-CI's plugin writes: ${read.reason}`);
  }
  if (read.exitStatus !== input.exitCode) return tampered(`says pytest's exit status was ${read.exitStatus}, but pytest exited with ${input.exitCode}`);
  // Only one who holds the channel writes after its end: a forged end frame and the real stream
  // after it look the same as the real stream and junk after it, so neither is scored.
  if (read.trailing) return tampered('was written to after its end frame');
  // pytest exits 1 exactly when a test failed or errored (collection errors included).
  const failures = (read.counts.get('failed') ?? 0) + (read.counts.get('error') ?? 0);
  if (failures > 0 !== (input.exitCode === 1)) return tampered(`counts ${failures} failures and errors, but pytest exited with ${input.exitCode}`);
  let report: TestReport;
  try {
    report = parseJsonReport(read.reportText);
  } catch (err) {
    if (err instanceof ReportLimitError) return { kind: 'not-scored', reason: `The streamed report was not read: ${err.message}` };
    return tampered(`carries a report that cannot be read: ${(err as Error).message}`);
  }
  const inner = outcomeMismatch(report, read.outcomes);
  if (inner) return tampered(`contradicts itself: ${inner}`);
  const line = summaryCounts(input.output);
  const counted = line && summaryMismatch(read.counts, line);
  if (counted) return tampered(`disagrees with pytest's summary line: ${counted}`);
  let tampering: string | undefined;
  const file = input.file;
  if (file) {
    const differs = 'problem' in file ? file.problem : outcomeMismatch(file.report, read.outcomes);
    // The stream is scored, not the file: the file's path was on pytest's command line.
    if (differs || 'problem' in file)
      tampering = [tampering, `disagrees with the pytest-json-report file, which is not scored: ${differs}`].filter(Boolean).join('; ');
    else report = file.report;
  }
  return {
    kind: 'scored',
    report,
    integrity: read.integrity,
    ...(tampering ? { tampering: `pytest's report stream ${tampering}` } : {}),
  };
}

/** Where a report's outcomes differ from those derived from the streamed phases; undefined when they agree. */
export function outcomeMismatch(report: TestReport, outcomes: ReadonlyMap<string, string>): string | undefined {
  let differ = 0;
  let first: string | undefined;
  const seen = new Set<string>();
  for (const t of report.tests) {
    seen.add(t.nodeid);
    const streamed = outcomes.get(t.nodeid);
    if (streamed === t.outcome) continue;
    differ++;
    first ??= `${t.nodeid} is ${t.outcome} in the report, ${streamed ?? 'never run'} by its phases`;
  }
  let missing = 0;
  for (const id of outcomes.keys()) if (!seen.has(id)) missing++;
  if (!differ && !missing) return undefined;
  const parts = [
    differ ? `${plural(differ, 'test')} ${differ === 1 ? 'differs' : 'differ'} (${first})` : '',
    missing ? `${plural(missing, 'test')} whose phases were streamed ${missing === 1 ? 'is' : 'are'} not in the report` : '',
  ];
  return parts.filter(Boolean).join('; ');
}
