// pytest's JUnit XML (built into pytest, the fallback when pytest-json-report is missing) → TestReport.
//
// Differences from json-report that cannot be recovered from JUnit:
// - there is no "xpassed": a non-strict xpass is a plain passing testcase, so it counts as
//   passed (a strict xpass is a failure in both formats);
// - a skip does not say in which phase it happened; it is recorded at setup (marker skips);
// - only failing phases are reported; phases that must have passed before them are filled in;
// - XML turns a carriage return in a traceback into a line break.
// What can be recovered is: a test pytest writes twice (a call failure, then a teardown error)
// is one test with both phases; a module skipped at collection is not a test (json-report
// keeps it among the collectors); a skip's text is put back in json-report's tuple form.
import { XMLParser } from 'fast-xml-parser';
import type { PhaseResult, ReportSummary, TestCase, TestOutcome, TestPhase, TestReport } from './test-report';
import { junitNodeId } from './junit-node-id';
import { ReportLimitError, ReportParseError } from './report-error';
import { xmlShapeProblem } from './report-shape';

export interface JunitParseOptions {
  /**
   * Tells whether a relative posix path is a test module. Used only where the file must be
   * guessed from `classname` (xunit2 has no `file` attribute).
   */
  isTestFile?: (relPath: string) => boolean;
  /** pytest's exit code, recorded on the report (JUnit does not carry it). */
  exitCode?: number;
}

type Node = Record<string, unknown>;

const ARRAY_TAGS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  // Tracebacks keep their exact whitespace.
  trimValues: false,
  // Decodes numeric references such as &#10; that pytest writes inside attributes.
  htmlEntities: true,
  isArray: (tag) => ARRAY_TAGS.has(tag),
});

/** pytest's message for a strict xfail that passed, written as <skipped>; json-report calls it failed. */
const STRICT_XPASS_MESSAGE = 'xfail-marked test passes unexpectedly';

export function parseJunitXml(xml: string, options: JunitParseOptions = {}): TestReport {
  // Measured first: a parser's memory grows with nesting and element count, not only with bytes.
  const shape = xmlShapeProblem(xml);
  if (shape) throw new ReportLimitError(`The JUnit XML report is not parsed: ${shape}.`);
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (err) {
    throw new ReportParseError(`The JUnit XML report is not well-formed: ${(err as Error).message}`);
  }
  const suites = rootSuites(doc);
  if (!suites) throw new ReportParseError('The JUnit XML report has no <testsuites> or <testsuite> element.');

  const cases: Node[] = [];
  let durationSec: number | undefined;
  const visit = (suite: Node): void => {
    const t = Number(suite.time);
    if (Number.isFinite(t) && suite.time !== undefined) durationSec = (durationSec ?? 0) + t;
    for (const tc of asArray(suite.testcase)) if (isNode(tc)) cases.push(tc);
    for (const inner of asArray(suite.testsuite)) if (isNode(inner)) visit(inner);
  };
  for (const s of suites) visit(s);

  // Files named by xunit1 `file` attributes resolve the module/class boundary for the rest.
  const knownFiles = new Set<string>();
  for (const tc of cases) if (typeof tc.file === 'string') knownFiles.add(tc.file.replace(/\\/g, '/'));
  const isTestFile = (rel: string): boolean => knownFiles.has(rel) || (options.isTestFile?.(rel) ?? false);

  const byId = new Map<string, TestCase>();
  for (const tc of cases) {
    if (isCollectionSkip(tc)) continue;
    const test = testFromCase(tc, isTestFile);
    const earlier = byId.get(test.nodeid);
    byId.set(test.nodeid, earlier ? mergeCases(earlier, test) : test);
  }
  const tests = [...byId.values()];
  return { format: 'junit', exitCode: options.exitCode, summary: summarize(tests), tests, durationSec };
}

/** pytest's testcase for a module skipped while it was collected: no test ran. */
function isCollectionSkip(tc: Node): boolean {
  const skip = asArray(tc.skipped)[0];
  return skip !== undefined && attr(skip, 'message') === 'collection skipped' && asArray(tc.failure).length === 0 && asArray(tc.error).length === 0;
}

const RANK: Record<TestOutcome, number> = { passed: 0, xpassed: 1, skipped: 2, xfailed: 3, failed: 4, error: 5 };

/**
 * One test written as two testcases (pytest writes the teardown error of a test whose call failed
 * separately): each phase keeps the failure over a filled-in pass, the outcome the worse one
 * (error, as json-report says for a failing teardown).
 */
function mergeCases(a: TestCase, b: TestCase): TestCase {
  const phases = { ...a.phases };
  for (const phase of ['setup', 'call', 'teardown'] as const) {
    const next = b.phases[phase];
    if (next && (!phases[phase] || (phases[phase].outcome === 'passed' && next.outcome !== 'passed'))) phases[phase] = next;
  }
  const durationSec = a.durationSec === undefined && b.durationSec === undefined ? undefined : (a.durationSec ?? 0) + (b.durationSec ?? 0);
  return { ...a, outcome: RANK[b.outcome] > RANK[a.outcome] ? b.outcome : a.outcome, phases, ...(durationSec === undefined ? {} : { durationSec }) };
}

function rootSuites(doc: Node): Node[] | undefined {
  if (isNode(doc.testsuites)) return asArray(doc.testsuites.testsuite).filter(isNode);
  // <testsuites/> with no suite at all: an empty run.
  if (doc.testsuites === '') return [];
  if (doc.testsuite !== undefined) return asArray(doc.testsuite).filter(isNode);
  return undefined;
}

function testFromCase(tc: Node, isTestFile: (rel: string) => boolean): TestCase {
  const classname = str(tc.classname) ?? '';
  const name = str(tc.name) ?? '';
  const { nodeid, file } = junitNodeId({ classname, name, file: str(tc.file) }, isTestFile);
  const line = Number(tc.line);
  const phases: Partial<Record<TestPhase, PhaseResult>> = {};
  let outcome: TestOutcome = 'passed';

  for (const f of asArray(tc.failure)) {
    phases.setup = { outcome: 'passed' };
    phases.call = failed(f);
    outcome = 'failed';
  }
  for (const e of asArray(tc.error)) {
    const message = attr(e, 'message') ?? '';
    // pytest writes "failed on teardown with ..." / "failed on setup with ..."; anything else
    // (collection failure, internal error) happened before the test ran.
    const phase: TestPhase = message.startsWith('failed on teardown') ? 'teardown' : 'setup';
    if (phase === 'teardown') {
      phases.setup ??= { outcome: 'passed' };
      phases.call ??= { outcome: 'passed' };
    }
    phases[phase] = failed(e);
    // As in json-report, a failing setup or teardown makes the whole test an error.
    outcome = 'error';
  }
  const skip = asArray(tc.skipped)[0];
  if (skip !== undefined && outcome === 'passed') {
    const type = attr(skip, 'type');
    const message = attr(skip, 'message') ?? '';
    const longrepr = text(skip) || message;
    if (type === 'pytest.xfail') {
      outcome = 'xfailed';
      phases.setup = { outcome: 'passed' };
      phases.call = { outcome: 'skipped', longrepr };
    } else if (message === STRICT_XPASS_MESSAGE) {
      outcome = 'failed';
      phases.setup = { outcome: 'passed' };
      phases.call = { outcome: 'failed', longrepr };
    } else {
      outcome = 'skipped';
      phases.setup = { outcome: 'skipped', longrepr: skipLongrepr(longrepr) };
    }
  }
  const time = Number(tc.time);
  const durationSec = tc.time !== undefined && Number.isFinite(time) && time >= 0 ? time : undefined;
  return {
    nodeid,
    outcome,
    file,
    lineno: Number.isFinite(line) && tc.line !== undefined ? line : undefined,
    phases,
    ...(durationSec === undefined ? {} : { durationSec }),
  };
}

/**
 * json-report writes a skip as Python's repr of pytest's (path, line, reason) tuple,
 * `('/c/tests/test_a.py', 8, 'Skipped: why')`; JUnit writes `/c/tests/test_a.py:8: why`.
 */
function skipLongrepr(junitText: string): string {
  const m = /^(.*):(\d+): ([\s\S]*)$/.exec(junitText);
  if (!m) return junitText;
  return `(${pythonStringRepr(m[1])}, ${m[2]}, ${pythonStringRepr(`Skipped: ${m[3]}`)})`;
}

/** Python's repr() of a str, for the characters a path or a skip reason holds. */
function pythonStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

function failed(el: unknown): PhaseResult {
  const message = attr(el, 'message');
  return { outcome: 'failed', longrepr: text(el) || (message ?? ''), crash: message !== undefined ? { message } : undefined };
}

/** Counts in json-report's summary shape: non-zero outcomes, then total and collected. */
function summarize(tests: TestCase[]): ReportSummary {
  const counts = new Map<string, number>();
  for (const t of tests) counts.set(t.outcome, (counts.get(t.outcome) ?? 0) + 1);
  const summary: ReportSummary = {};
  for (const k of ['passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed']) {
    const n = counts.get(k);
    if (n) summary[k] = n;
  }
  summary.total = tests.length;
  summary.collected = tests.length;
  return summary;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function attr(el: unknown, key: string): string | undefined {
  return isNode(el) ? str(el[key]) : undefined;
}

/** Element text: the parser gives a bare string for an element without attributes. */
function text(el: unknown): string {
  if (typeof el === 'string') return el;
  return isNode(el) ? (str(el['#text']) ?? '') : '';
}
