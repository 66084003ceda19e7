// pytest-json-report's JSON → TestReport. Each test that did not pass keeps its entry as the
// reference's detail file holds it (`source`), numbers and key order as Python writes them.
import { TEST_PHASES, type PhaseResult, type TestCase, type TestOutcome, type TestReport } from './test-report';
import { ReportLimitError, ReportParseError } from './report-error';
import { arrayElementTexts } from '../util/python-json';
import { isRecord } from '../util/is-record';
import { jsonShapeProblem } from './report-shape';

type Json = Record<string, unknown>;

const isObject: (v: unknown) => v is Json = isRecord;

export function parseJsonReport(text: string): TestReport {
  // Measured first: a parser's memory grows with nesting and value count, not only with bytes.
  const shape = jsonShapeProblem(text);
  if (shape) throw new ReportLimitError(`The pytest-json-report file is not parsed: ${shape}.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ReportParseError(`The pytest-json-report file is not valid JSON: ${(err as Error).message}`);
  }
  // Detail files come from the source text: JSON.parse has lost `4.0`, `1e-07` and key order.
  let sources: string[] | undefined;
  try {
    sources = arrayElementTexts(text, 'tests');
  } catch {
    sources = undefined;
  }
  return jsonReportFromObject(data, sources);
}

/** `sources`: each test entry's JSON text, when the caller has the report's text. */
export function jsonReportFromObject(data: unknown, sources?: string[]): TestReport {
  if (!isObject(data) || !Array.isArray(data.tests)) {
    throw new ReportParseError('The pytest-json-report file has no "tests" list; was it written by pytest-json-report?');
  }
  const tests: TestCase[] = [];
  const texts = sources?.length === data.tests.length ? sources : undefined;
  data.tests.forEach((entry: unknown, i: number) => {
    if (!isObject(entry) || typeof entry.nodeid !== 'string' || typeof entry.outcome !== 'string') {
      throw new ReportParseError('A test entry in the pytest-json-report file lacks "nodeid" or "outcome".');
    }
    tests.push(testFromEntry(entry, texts?.[i]));
  });
  const summary: Record<string, number> = {};
  if (isObject(data.summary)) {
    for (const [k, v] of Object.entries(data.summary)) if (typeof v === 'number') summary[k] = v;
  }
  return {
    format: 'json-report',
    exitCode: typeof data.exitcode === 'number' ? data.exitcode : undefined,
    summary,
    tests,
    durationSec: typeof data.duration === 'number' ? data.duration : undefined,
  };
}

function testFromEntry(entry: Json, text: string | undefined): TestCase {
  const nodeid = entry.nodeid as string;
  const sep = nodeid.indexOf('::');
  const phases: TestCase['phases'] = {};
  let durationSec: number | undefined;
  for (const phase of TEST_PHASES) {
    const p = entry[phase];
    if (!isObject(p)) continue;
    phases[phase] = phaseFrom(p);
    if (typeof p.duration === 'number' && Number.isFinite(p.duration)) durationSec = (durationSec ?? 0) + p.duration;
  }
  return {
    nodeid,
    outcome: entry.outcome as TestOutcome,
    file: sep >= 0 ? nodeid.slice(0, sep) : nodeid,
    lineno: typeof entry.lineno === 'number' ? entry.lineno : undefined,
    phases,
    ...(durationSec === undefined ? {} : { durationSec }),
    ...(entry.outcome !== 'passed' ? sourceOf(entry, text) : {}),
  };
}

/** The entry's JSON text: as the report held it, else re-serialised (numbers lose Python's form). */
function sourceOf(entry: Json, text: string | undefined): { source?: string } {
  if (text !== undefined) return { source: text };
  try {
    return { source: JSON.stringify(entry) };
  } catch {
    // Nested deeper than the stack goes: the detail file is built from the parsed fields.
    return {};
  }
}

function phaseFrom(p: Json): PhaseResult {
  const result: PhaseResult = { outcome: typeof p.outcome === 'string' ? p.outcome : String(p.outcome) };
  // The reference tests the key's presence, so an empty longrepr still counts.
  if ('longrepr' in p)
    result.longrepr = typeof p.longrepr === 'string' ? p.longrepr : p.longrepr === undefined || p.longrepr === null ? '' : JSON.stringify(p.longrepr);
  if (isObject(p.crash)) {
    const c = p.crash;
    result.crash = {
      path: typeof c.path === 'string' ? c.path : undefined,
      lineno: typeof c.lineno === 'number' ? c.lineno : undefined,
      message: typeof c.message === 'string' ? c.message : undefined,
    };
  }
  return result;
}
