import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { passedIds } from '../../../src/core/pytest/test-report';
import { ReportParseError } from '../../../src/core/pytest/report-error';
import { readReportFixture } from './fixtures';

function countOutcomes(tests: { outcome: string }[]): Record<string, number> {
  const c: Record<string, number> = {};
  for (const t of tests) c[t.outcome] = (c[t.outcome] ?? 0) + 1;
  return c;
}

describe('parseJsonReport on the real fixture reports', () => {
  const base = parseJsonReport(readReportFixture('base.report.json'));
  const target = parseJsonReport(readReportFixture('target.report.json'));

  test('summary is the report summary, as the README states', () => {
    assert.deepEqual(base.summary, { passed: 10, failed: 9, error: 2, skipped: 1, xfailed: 1, xpassed: 1, total: 24, collected: 24 });
    assert.deepEqual(target.summary, { passed: 24, skipped: 1, xfailed: 1, xpassed: 1, total: 27, collected: 27 });
  });

  test('outcome counts of the tests agree with the summary', () => {
    assert.deepEqual(countOutcomes(base.tests), { passed: 10, failed: 9, error: 2, skipped: 1, xfailed: 1, xpassed: 1 });
    assert.equal(base.tests.length, 24);
    assert.equal(target.tests.length, 27);
    assert.equal(passedIds(target).size, 24);
  });

  test('format, exit code and duration', () => {
    assert.equal(base.format, 'json-report');
    assert.equal(base.exitCode, 1);
    assert.equal(target.exitCode, 0);
    assert.ok(base.durationSec && base.durationSec > 0);
  });

  test('file is the node id before the first ::, lineno is taken as is', () => {
    const weird = base.tests.find((t) => t.nodeid === 'tests/test_ops.py::TestDiv::test_div_str_ids[weird id [1]::x]');
    assert.ok(weird);
    assert.equal(weird.file, 'tests/test_ops.py');
    assert.equal(weird.lineno, 25);
    const power = base.tests.find((t) => t.nodeid === 'tests/test_power.py::test_power');
    assert.equal(power?.lineno, 0);
  });

  test('phases carry outcome, longrepr and crash', () => {
    const td = base.tests.find((t) => t.nodeid === 'tests/test_fixtures.py::test_teardown_error');
    assert.ok(td);
    assert.equal(td.outcome, 'error');
    assert.equal(td.phases.setup?.outcome, 'passed');
    assert.equal(td.phases.setup?.longrepr, undefined);
    assert.equal(td.phases.call?.outcome, 'passed');
    assert.equal(td.phases.teardown?.outcome, 'failed');
    assert.match(td.phases.teardown?.longrepr ?? '', /E {3}RuntimeError: teardown saw no power$/);
    assert.equal(td.phases.teardown?.crash?.lineno, 16);
    const setupErr = base.tests.find((t) => t.nodeid === 'tests/test_fixtures.py::test_uses_power');
    assert.equal(setupErr?.phases.call, undefined);
    assert.equal(setupErr?.phases.setup?.outcome, 'failed');
  });

  test('tests that did not pass keep their entry as source text (the same JSON); passed ones carry none', () => {
    const parsed = JSON.parse(readReportFixture('base.report.json')) as { tests: Array<{ outcome: string }> };
    assert.equal(base.tests.length, parsed.tests.length);
    base.tests.forEach((t, i) => {
      if (parsed.tests[i].outcome === 'passed') assert.equal(t.source, undefined);
      else assert.deepEqual(JSON.parse(t.source ?? 'null'), parsed.tests[i]);
    });
  });

  test('bad input is a ReportParseError with a clear message', () => {
    assert.throws(
      () => parseJsonReport('{"tests": [ '),
      (e: Error) => e instanceof ReportParseError && /not valid JSON/.test(e.message),
    );
    assert.throws(() => parseJsonReport('{"summary": {}}'), /no "tests" list/);
    assert.throws(() => parseJsonReport('{"tests": [{"outcome": "passed"}]}'), /lacks "nodeid"/);
  });
});
