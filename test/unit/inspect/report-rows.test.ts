// The iteration view's test report: the archived report read through the parsers' model, one row
// per test with its outcome, duration and the first lines of why, failures first; sent to the
// webview with recorded text as text, a filter, and the raw report a click away (issue 31, item 9).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportRows } from '../../../src/core/inspect/report-rows';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { parseJunitXml } from '../../../src/core/pytest/parse-junit';
import type { TestReport } from '../../../src/core/pytest/test-report';
import { reportContent } from '../../../src/extension/inspect/report-page';
import { isIterationHostMessage, type IterationPage } from '../../../src/shared/iteration-protocol';
import { nodeIdParts } from '../../../webview-ui/node-id-parts';
import { readReportFixture } from '../pytest/fixtures';
import { iterationDetails } from './iteration-fixtures';

const json = parseJsonReport(readReportFixture('base.report.json'));
const junit = parseJunitXml(readReportFixture('base.junit-xunit1.xml'));

test('failures come first (errors, then failures), then the expected outcomes, then what passed; by node id within each', () => {
  const rows = reportRows(json);
  assert.equal(rows.length, json.tests.length);
  const outcomes = rows.map((r) => r.outcome);
  assert.deepEqual([...new Set(outcomes)], ['error', 'failed', 'xpassed', 'skipped', 'xfailed', 'passed']);
  const failed = rows.filter((r) => r.outcome === 'failed').map((r) => r.nodeid);
  assert.deepEqual(failed, [...failed].sort());
});

test('each row says how long the test took (its phases together), from json-report and from JUnit', () => {
  const sub = reportRows(json).find((r) => r.nodeid === 'tests/test_ops.py::test_sub')!;
  // setup + call + teardown as the report recorded them.
  assert.ok(Math.abs(sub.durationSec! - (7.012500009295763e-5 + 0.0002120679996551189 + 9.541300005366793e-5)) < 1e-12);
  for (const r of reportRows(junit)) assert.equal(typeof r.durationSec, 'number', `${r.nodeid} has its JUnit time`);
});

test('the message is the failure’s first lines (pytest’s E lines), a skip’s reason, an error’s phase; none for a pass', () => {
  const rows = new Map(reportRows(json).map((r) => [r.nodeid, r]));
  assert.equal(rows.get('tests/test_ops.py::test_sub')?.message, 'assert -2 == 2\n+  where -2 = sub(5, 3)');
  assert.equal(rows.get('tests/test_ops.py::test_skipped')?.message, 'Skipped: not relevant');
  assert.equal(rows.get('tests/test_fixtures.py::test_uses_power')?.message, 'setup: RuntimeError: calc.power is missing');
  assert.equal(rows.get('tests/test_fixtures.py::test_teardown_error')?.message, 'teardown: RuntimeError: teardown saw no power');
  assert.equal(rows.get('tests/test_ops.py::test_add')?.message, undefined);
  // A long traceback is cut to its first lines.
  const long: TestReport = {
    format: 'json-report',
    summary: {},
    tests: [
      {
        nodeid: 't.py::x',
        outcome: 'failed',
        phases: { call: { outcome: 'failed', longrepr: Array.from({ length: 9 }, (_, i) => `E   line ${i}`).join('\n') } },
      },
    ],
  };
  assert.equal(reportRows(long)[0].message?.split('\n').length, 3, 'three lines of the message');
  // pytest's blank E lines (between an assertion and its diff) are left out.
  const diff: TestReport = { ...long, tests: [{ ...long.tests[0], phases: { call: { outcome: 'failed', longrepr: 'E   assert 1 == 2\nE     \nE   - 2' } } }] };
  assert.equal(reportRows(diff)[0].message, 'assert 1 == 2\n- 2');
});

const HOSTILE = '</pre><script>alert(1)</script>';

const details = () => iterationDetails();

type ReportPage = Extract<IterationPage, { kind: 'report' }>;

test('the report is sent as a table with a filter, its tests as links, recorded text as text, and the raw report a button away', () => {
  const hostile: TestReport = {
    format: 'json-report',
    summary: {},
    tests: [
      ...json.tests,
      { nodeid: `t.py::x[${HOSTILE}]`, outcome: 'failed', durationSec: 1.5, phases: { call: { outcome: 'failed', longrepr: `E   ${HOSTILE}` } } },
    ],
  };
  const { title, page } = reportContent(details(), { file: '/x/report.json', raw: true, rows: reportRows(hostile) });
  assert.ok(isIterationHostMessage({ type: 'show', page }), 'the page passes the protocol');
  const p = page as ReportPage;
  assert.equal(title, 'agent-1 #2 test report');
  assert.deepEqual(p.header.heading, [{ text: 'agent-1' }, { text: 'iteration 2 of 3 · test report', muted: true }]);
  assert.ok('rows' in p.table);
  const t = p.table;
  // Recorded text is carried as it is (the webview puts it in as text).
  const mine = t.rows.find((r) => r.nodeid === `t.py::x[${HOSTILE}]`);
  assert.deepEqual(mine, { outcome: 'failed', nodeid: `t.py::x[${HOSTILE}]`, duration: '1.50 s', message: HOSTILE });
  // The filter's outcomes: those present, in the report's order (all outcomes and not passed are the webview's).
  assert.deepEqual(
    t.counts.map((c) => c.outcome),
    ['error', 'failed', 'xpassed', 'skipped', 'xfailed', 'passed'],
  );
  assert.deepEqual(t.counts.slice(0, 2), [
    { outcome: 'error', n: 2 },
    { outcome: 'failed', n: 10 },
  ]);
  assert.equal(t.failing, 12);
  assert.equal(t.more, 0);
  assert.equal(t.rows.find((r) => r.nodeid === 'tests/test_ops.py::test_sub')?.nodeid, 'tests/test_ops.py::test_sub', 'a link that opens the test');
  assert.deepEqual(nodeIdParts('tests/test_ops.py::test_sub'), ['tests/', 'test_ops.py::', 'test_sub'], 'a node id breaks between its parts');
  assert.deepEqual(p.header.actions, [
    { action: 'close-test-report', label: 'Back to Iteration', title: 'The iteration’s scores, tests, requirement.xml and roles' },
    { action: 'open-raw-report', label: 'Open Raw Report', title: 'report.json as it is archived', disabled: false },
  ]);
  // Rows in the order reportRows gives: the first is an error.
  assert.equal(t.rows[0].outcome, 'error');
  assert.ok(
    t.rows.some((r) => r.duration === '<1 ms'),
    'a test under a millisecond',
  );
  assert.ok(!JSON.stringify(p).includes('/x/report.json'), 'no path in the page');

  const none = reportContent(details(), { file: '/x/report.json', raw: false, missing: 'pytest did not run at this iteration.' }).page as ReportPage;
  assert.deepEqual(none.table, { missing: 'pytest did not run at this iteration.' });
  assert.equal(none.header.actions[1].disabled, true);
});
