// Benchmark: parse a pytest report, compute the non-passed set and the summary.jsonl lines,
// for synthetic json-report and JUnit (xunit1) reports of 1k, 10k and 50k tests; and
// separately, writing the non-passed folder. Prints medians and scaling ratios.
// Budget: parse + gap + summary of a 10k-test run within 150 ms.
//
//   npm run compile && npm run bench:report
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseJsonReport } from '../src/core/pytest/parse-json-report';
import { parseJunitXml } from '../src/core/pytest/parse-junit';
import type { TestReport } from '../src/core/pytest/test-report';
import { nonPassedIds } from '../src/core/gap/non-passed';
import { buildSummaryLines } from '../src/core/gap/summary';
import { writeNonPassed } from '../src/core/gap/write-non-passed';

const SIZES = [1_000, 10_000, 50_000];
const RUNS = 5;
const BUDGET_MS = 150;
const BUDGET_SIZE = 10_000;

// ---- synthetic data -------------------------------------------------------------------

/** A small deterministic PRNG, so every run benchmarks the same reports. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface SynthTest {
  nodeid: string;
  file: string;
  classname: string;
  name: string;
  lineno: number;
  outcome: 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed';
  /** For error: which phase failed. */
  errorPhase?: 'setup' | 'teardown';
}

function synthIds(n: number): Omit<SynthTest, 'outcome'>[] {
  const out: Omit<SynthTest, 'outcome'>[] = [];
  for (let i = 0; i < n; i++) {
    const pkg = `pkg_${i % 37}`;
    const mod = `test_module_${Math.floor(i / 40) % 250}`;
    const file = `tests/${pkg}/${mod}.py`;
    const inClass = i % 3 === 0;
    const cls = inClass ? `TestGroup${i % 7}` : '';
    const name = i % 5 === 0 ? `test_case_${i}[param-${i % 11}-a/b weird [x]::y]` : `test_case_${i}`;
    const nodeid = inClass ? `${file}::${cls}::${name}` : `${file}::${name}`;
    const classname = `tests.${pkg}.${mod}${inClass ? '.' + cls : ''}`;
    out.push({ nodeid, file, classname, name, lineno: (i * 7) % 900 });
  }
  return out;
}

function makeSides(n: number): { base: SynthTest[]; target: SynthTest[] } {
  const rand = rng(n);
  const ids = synthIds(n);
  const target: SynthTest[] = ids.map((t, i) => ({ ...t, outcome: i % 50 === 1 ? 'skipped' : i % 50 === 2 ? 'xfailed' : 'passed' }));
  const base: SynthTest[] = [];
  for (const t of target) {
    const r = rand();
    if (r < 0.03) continue; // not collected in the base
    if (t.outcome !== 'passed') base.push({ ...t });
    else if (r < 0.25) base.push({ ...t, outcome: 'failed' });
    else if (r < 0.29) base.push({ ...t, outcome: 'error', errorPhase: r < 0.27 ? 'setup' : 'teardown' });
    else if (r < 0.31) base.push({ ...t, outcome: 'skipped' });
    else base.push({ ...t, outcome: 'passed' });
  }
  return { base, target };
}

function traceback(t: SynthTest): string {
  return [
    `${t.file}:${t.lineno + 3}: in ${t.name.replace(/\[.*$/, '')}`,
    `    result = compute(value, options={"mode": "strict", "retries": 3})`,
    `src/pkg/core.py:120: in compute`,
    `    return _inner(value, **options)`,
    `src/pkg/core.py:88: in _inner`,
    `    raise ValueError(f"unexpected value {value!r}")`,
    `E   ValueError: unexpected value 'ünïcode-${t.lineno}'`,
  ].join('\n');
}

function jsonReport(tests: SynthTest[]): string {
  const phase = (outcome: string, t?: SynthTest) => {
    const p: Record<string, unknown> = { duration: 0.00012345 + t!.lineno * 1e-7, outcome };
    if (outcome === 'failed') {
      const tb = traceback(t!);
      p.crash = { path: `/app/code/${t!.file}`, lineno: t!.lineno + 3, message: tb.slice(tb.lastIndexOf('E   ') + 4) };
      p.traceback = [
        { path: t!.file, lineno: t!.lineno + 3, message: 'in test' },
        { path: 'src/pkg/core.py', lineno: 120, message: 'in compute' },
      ];
      p.longrepr = tb;
    }
    return p;
  };
  const entries = tests.map((t) => {
    const e: Record<string, unknown> = {
      nodeid: t.nodeid,
      lineno: t.lineno,
      outcome: t.outcome,
      keywords: [t.name, t.file.split('/').pop(), 'tests', 'code', ''],
    };
    switch (t.outcome) {
      case 'failed':
        Object.assign(e, { setup: phase('passed', t), call: phase('failed', t), teardown: phase('passed', t) });
        break;
      case 'error':
        if (t.errorPhase === 'setup') Object.assign(e, { setup: phase('failed', t), teardown: phase('passed', t) });
        else Object.assign(e, { setup: phase('passed', t), call: phase('passed', t), teardown: phase('failed', t) });
        break;
      case 'skipped':
        Object.assign(e, {
          setup: { ...phase('skipped', t), longrepr: `('/app/code/${t.file}', ${t.lineno}, 'Skipped: not relevant')` },
          teardown: phase('passed', t),
        });
        break;
      case 'xfailed':
        Object.assign(e, { setup: phase('passed', t), call: { ...phase('skipped', t), longrepr: traceback(t) }, teardown: phase('passed', t) });
        break;
      default:
        Object.assign(e, { setup: phase('passed', t), call: phase('passed', t), teardown: phase('passed', t) });
    }
    return e;
  });
  const summary: Record<string, number> = {};
  for (const t of tests) summary[t.outcome] = (summary[t.outcome] ?? 0) + 1;
  summary.total = tests.length;
  summary.collected = tests.length;
  return JSON.stringify({ created: 1795227147.99, duration: 12.3, exitcode: 1, root: '/app/code', environment: {}, summary, collectors: [], tests: entries });
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function junitReport(tests: SynthTest[]): string {
  const cases = tests.map((t) => {
    const open = `<testcase classname="${xmlEscape(t.classname)}" name="${xmlEscape(t.name)}" file="${t.file}" line="${t.lineno}" time="0.001"`;
    const tb = traceback(t);
    const msg = xmlEscape(tb.slice(tb.lastIndexOf('E   ') + 4));
    switch (t.outcome) {
      case 'failed':
        return `${open}><failure message="${msg}">${xmlText(tb)}</failure></testcase>`;
      case 'error':
        return `${open}><error message="failed on ${t.errorPhase} with &quot;${msg}&quot;">${xmlText(tb)}</error></testcase>`;
      case 'skipped':
        return `${open}><skipped type="pytest.skip" message="not relevant">/app/code/${t.file}:${t.lineno}: not relevant</skipped></testcase>`;
      case 'xfailed':
        return `${open}><skipped type="pytest.xfail" message="known" /></testcase>`;
      default:
        return `${open} />`;
    }
  });
  return `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="${tests.length}" time="12.3">${cases.join('')}</testsuite></testsuites>`;
}

// ---- measurement ----------------------------------------------------------------------

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function measure(fn: () => unknown): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

interface Row {
  format: string;
  size: number;
  mb: number;
  parse: number;
  gap: number;
  total: number;
  write: number;
  nonPassed: number;
}

type Parser = (text: string) => TestReport;

async function benchFormat(format: string, parse: Parser, render: (t: SynthTest[]) => string, size: number, tmp: string): Promise<Row> {
  const { base, target } = makeSides(size);
  const baseText = render(base);
  const targetText = render(target);
  const targetReport = parse(targetText);
  const detailDir = path.join(tmp, 'non-passed');
  let nonPassed = 0;

  // Per iteration the loop parses the current run's report; the target's is parsed once
  // per task, so it is not part of this figure.
  const parseMs = await measure(() => parse(baseText));
  const current = parse(baseText);
  const gapMs = await measure(() => {
    nonPassed = nonPassedIds(current, targetReport).length;
    return buildSummaryLines(current, targetReport, { detailDir });
  });
  const totalMs = await measure(() => {
    const c = parse(baseText);
    nonPassedIds(c, targetReport);
    return buildSummaryLines(c, targetReport, { detailDir });
  });
  const writeMs = await measure(() => writeNonPassed(detailDir, current, targetReport));
  return { format, size, mb: baseText.length / 1e6, parse: parseMs, gap: gapMs, total: totalMs, write: writeMs, nonPassed };
}

function pad(s: string | number, n: number): string {
  return String(s).padStart(n);
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-bench-report-'));
  const rows: Row[] = [];
  try {
    for (const [format, parse, render] of [
      ['json-report', parseJsonReport, jsonReport],
      ['junit', (t: string) => parseJunitXml(t), junitReport],
    ] as [string, Parser, (t: SynthTest[]) => string][]) {
      for (const size of SIZES) rows.push(await benchFormat(format, parse, render, size, tmp));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  console.log(`Report benchmark: median of ${RUNS} runs after 1 warm-up; node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}`);
  console.log("parse = parse the current report (the target's is parsed once per task); nonpass = size of the non-passed set;");
  console.log('gap+sum = non-passed set + summary.jsonl lines; total = parse + gap + summary, timed together;');
  console.log('write = writeNonPassed (summary.jsonl + one detail file per test that ran, atomic folder swap).\n');
  console.log(
    `${'format'.padEnd(12)}${pad('tests', 7)}${pad('MB', 7)}${pad('nonpass', 9)}${pad('parse ms', 10)}${pad('gap+sum ms', 12)}${pad('total ms', 10)}${pad('write ms', 10)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.format.padEnd(12)}${pad(r.size, 7)}${pad(r.mb.toFixed(1), 7)}${pad(r.nonPassed, 9)}${pad(r.parse.toFixed(1), 10)}${pad(r.gap.toFixed(1), 12)}${pad(r.total.toFixed(1), 10)}${pad(r.write.toFixed(1), 10)}`,
    );
  }
  console.log('\nScaling (total, write): ratio of medians; linear would be 10.0 and 5.0');
  let allOk = true;
  for (const format of ['json-report', 'junit']) {
    const by = (n: number) => rows.find((r) => r.format === format && r.size === n) as Row;
    const [a, b, c] = [by(1_000), by(10_000), by(50_000)];
    const budget = by(BUDGET_SIZE).total;
    const ok = budget <= BUDGET_MS;
    allOk &&= ok;
    console.log(
      `${format.padEnd(12)} total 10k/1k ${pad((b.total / a.total).toFixed(1), 5)}  50k/10k ${pad((c.total / b.total).toFixed(1), 5)}   write 10k/1k ${pad((b.write / a.write).toFixed(1), 5)}  50k/10k ${pad((c.write / b.write).toFixed(1), 5)}   10k total ${budget.toFixed(1)} ms ${ok ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget`,
    );
  }
  if (!allOk) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
