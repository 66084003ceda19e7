// The harness's reading of the report channel (report-stream.ts) and its verdict
// (stream-verdict.ts), on streams as our plugin writes them and as hostile code could bend them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_PREFIX, ReportStreamReader } from '../../../src/core/pytest/report-stream';
import { judgeStream } from '../../../src/core/pytest/stream-verdict';
import { summaryCounts } from '../../../src/core/pytest/summary-line';

const report = {
  exitcode: 1,
  summary: { passed: 1, failed: 1, total: 2, collected: 2 },
  tests: [
    { nodeid: 't.py::a', outcome: 'passed' },
    { nodeid: 't.py::b', outcome: 'failed' },
  ],
};
const frame = (kind: string, fields: unknown): string => `${FRAME_PREFIX}${kind} ${JSON.stringify(fields)}\n`;
const phases = (id: string, call: string): string =>
  ['setup', 'call', 'teardown'].map((when) => frame('phase', { nodeid: id, when, category: when === 'call' ? call : '', counted: true })).join('');
const honest =
  frame('start', { version: 1 }) +
  phases('t.py::a', 'passed') +
  phases('t.py::b', 'failed') +
  frame('report', report) +
  frame('end', { exitstatus: 1, integrity: {} });
const SUMMARY = '==== 1 failed, 1 passed in 0.02s ====\n';

function read(text: string, chunk = 7): ReturnType<ReportStreamReader['finish']> {
  const r = new ReportStreamReader();
  for (let i = 0; i < text.length; i += chunk) r.push(text.slice(i, i + chunk));
  return r.finish();
}

test('an honest stream, in any chunking, is scored with its outcomes', () => {
  for (const chunk of [1, 7, 4096]) {
    const v = judgeStream(read(honest, chunk), { exitCode: 1, output: SUMMARY });
    assert.equal(v.kind, 'scored', JSON.stringify(v));
    if (v.kind === 'scored')
      assert.deepEqual(
        v.report.tests.map((t) => t.outcome),
        ['passed', 'failed'],
      );
  }
});

test('a report that says passed where its phases said failed is not scored, and flagged', () => {
  const forged = honest.replace('"outcome": "failed"'.replace(': ', ':'), '"outcome":"passed"');
  assert.notEqual(forged, honest);
  const v = judgeStream(read(forged), { exitCode: 1, output: SUMMARY });
  assert.equal(v.kind, 'not-scored');
  assert.match(v.tampering ?? '', /contradicts itself: 1 test differs \(t\.py::b is passed in the report, failed by its phases\)/);
});

test("pytest's exit status, its summary line, a second start and text after the end each make a stream unscored and flagged", () => {
  const cases: Array<[string, number, string, RegExp]> = [
    [honest, 0, SUMMARY, /exit status was 1, but pytest exited with 0/],
    [honest, 1, '==== 2 passed in 0.02s ====\n', /summary line: passed 1 in the stream, 2 in pytest's summary line; failed 1 in the stream, 0/],
    [frame('start', {}) + honest, 1, SUMMARY, /started twice/],
    [honest + frame('end', { exitstatus: 0, integrity: {} }), 1, SUMMARY, /written to after its end frame/],
    [honest.slice(0, honest.indexOf(`${FRAME_PREFIX}end`)), 1, SUMMARY, /stopped before its end frame/],
    ['', 0, '', /streamed nothing/],
  ];
  for (const [text, exitCode, output, reason] of cases) {
    const v = judgeStream(read(text), { exitCode, output });
    assert.equal(v.kind, 'not-scored', String(reason));
    assert.match(v.tampering ?? '', reason);
  }
});

test('a start-up print before the plugin takes the channel is kept as output, not a frame', () => {
  const r = new ReportStreamReader();
  r.push(`hello from sitecustomize\n${honest}`);
  assert.equal(r.preamble, 'hello from sitecustomize\n');
  assert.equal(r.finish().kind, 'ended');
});

test("pytest's summary line: with bars or under -q, errors singular, no tests", () => {
  assert.deepEqual(
    [...summaryCounts('x\n=== 2 failed, 3 passed, 1 error, 4 warnings in 1.20s ===\n')!],
    [
      ['failed', 2],
      ['passed', 3],
      ['error', 1],
      ['warnings', 4],
    ],
  );
  assert.deepEqual(
    [...summaryCounts('1 passed, 2 errors in 61.00s (0:01:01)')!],
    [
      ['passed', 1],
      ['error', 2],
    ],
  );
  assert.deepEqual([...summaryCounts('===== no tests ran in 0.01s =====')!], []);
  assert.equal(summaryCounts('nothing here'), undefined);
});
