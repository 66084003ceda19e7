// Where Test Explorer points a failure: real pytest-json-report reports (test/fixtures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { failureLocation } from '../../../src/core/gap/failure-location';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import type { TestCase, TestReport } from '../../../src/core/pytest/test-report';
import { fixturesDir } from '../helpers/repo-root';

const ROOT = '/home/someone/task/app/code';
function report(rel: string): TestReport {
  // The parity fixtures write the project's folder as @ROOT@; any absolute folder will do.
  return parseJsonReport(fs.readFileSync(path.join(fixturesDir, rel), 'utf8').replaceAll('@ROOT@', ROOT));
}
function byId(r: TestReport, id: string): TestCase {
  const t = r.tests.find((x) => x.nodeid === id);
  assert.ok(t, `${id} is in the report`);
  return t;
}
const base = report('pytest-reports/base.report.json');
const parity = report('report-parity/docker/base.report.json');

test('a failed assert points at its line in the test (1-based, as pytest prints it)', () => {
  const loc = failureLocation(byId(base, 'tests/test_ops.py::test_sub'));
  assert.deepEqual(loc, { phase: 'call', file: 'tests/test_ops.py', line: 10, frames: [{ file: 'tests/test_ops.py', line: 10, func: 'test_sub' }] });
});

test('a setup error points at the fixture where it raised, not at the test function', () => {
  const t = byId(base, 'tests/test_fixtures.py::test_uses_power');
  const loc = failureLocation(t);
  assert.equal(loc?.phase, 'setup');
  assert.equal(loc?.file, 'tests/test_fixtures.py');
  assert.equal(loc?.line, 8);
  assert.equal(loc?.frames.at(-1)?.func, 'needs_power');
  assert.notEqual(loc?.line, (t.lineno ?? -1) + 1, 'not the test definition');
});

test('a teardown error points at the fixture line after its yield', () => {
  const loc = failureLocation(byId(base, 'tests/test_fixtures.py::test_teardown_error'));
  assert.deepEqual([loc?.phase, loc?.file, loc?.line], ['teardown', 'tests/test_fixtures.py', 16]);
  const conftest = failureLocation(byId(parity, 'tests/test_outcomes.py::test_teardown_check'));
  assert.deepEqual([conftest?.phase, conftest?.file, conftest?.line], ['teardown', 'tests/conftest.py', 19]);
});

test('the deepest frame wins: a helper in the test file, or the code under test in src/', () => {
  const helper = failureLocation(byId(base, 'tests/test_stats.py::test_mean'));
  assert.deepEqual(
    helper?.frames.map((f) => `${f.file}:${f.line}`),
    ['tests/test_stats.py:12', 'tests/test_stats.py:7'],
  );
  assert.equal(helper?.line, 7);
  const src = failureLocation(byId(parity, 'tests/test_outcomes.py::test_division'));
  assert.deepEqual([src?.file, src?.line], ['src/awk/__init__.py', 6]);
  assert.deepEqual(
    src?.frames.map((f) => f.func),
    ['test_division', 'ratio'],
  );
  // The host report has pytest 3.11's ^^^ markers under source lines: same answer.
  const host = failureLocation(byId(report('report-parity/host/target.report.json'), 'tests/test_outcomes.py::test_division'));
  assert.deepEqual([host?.file, host?.line], ['src/awk/__init__.py', 6]);
});

test('a unittest failure stays in the test though the crash is in the standard library', () => {
  const t = byId(base, 'tests/test_unit.py::AddCase::test_sub_unittest');
  assert.match(t.phases.call?.crash?.path ?? '', /unittest\/case\.py$/);
  assert.deepEqual([failureLocation(t)?.file, failureLocation(t)?.line], ['tests/test_unit.py', 11]);
});

test('a missing fixture names the test by absolute path: made relative to the code folder', () => {
  const t = byId(parity, 'tests/test_outcomes.py::test_unknown_fixture');
  assert.deepEqual([failureLocation(t, ROOT)?.file, failureLocation(t, ROOT)?.line, failureLocation(t, ROOT)?.phase], ['tests/test_outcomes.py', 21, 'setup']);
  // Without knowing the code folder, the absolute path is not the code's.
  assert.equal(failureLocation(t), undefined);
});

test('files with brackets and dots in their folders, and tests inherited from another file', () => {
  assert.equal(failureLocation(byId(parity, 'tests/case[1]/test_bracket_dir.py::test_in_bracket_dir'))?.file, 'tests/case[1]/test_bracket_dir.py');
  assert.deepEqual(
    [
      failureLocation(byId(parity, 'tests/v1.2/test_dotted.py::TestDotted::test_inherited'))?.file,
      failureLocation(byId(parity, 'tests/v1.2/test_dotted.py::TestDotted::test_inherited'))?.line,
    ],
    ['tests/v1.2/cases_base.py', 6],
  );
});

test('every failed or errored test of the real reports gets a location inside the code, except a strict xpass', () => {
  for (const r of [base, parity]) {
    for (const t of r.tests.filter((x) => x.outcome === 'failed' || x.outcome === 'error')) {
      const loc = failureLocation(t, ROOT);
      if (t.phases.call?.longrepr?.startsWith('[XPASS(strict)]')) assert.equal(loc, undefined);
      else assert.ok(loc && loc.line > 0 && !loc.file.startsWith('/'), `${t.nodeid}: ${JSON.stringify(loc)}`);
    }
  }
  assert.equal(failureLocation(byId(base, 'tests/test_ops.py::test_add')), undefined, 'a passed test has none');
});

test('frames outside the code (the standard library, site-packages, /app/code in a container) are told apart', () => {
  // A call phase that failed with this traceback (and no crash location to fall back on).
  const failed = byId(base, 'tests/test_ops.py::test_sub');
  const longrepr = [
    'tests/test_x.py:4: in test_x',
    '    helper()',
    '/app/code/src/pkg/mod.py:9: in helper',
    '    json.loads("")',
    `${ROOT}/tests/a.py:7: in inner`,
    '../outside.py:2: in beside',
    '/usr/lib/python3.11/json/__init__.py:346: in loads',
    '    return _default_decoder.decode(s)',
    '.venv/lib/python3.11/site-packages/lib.py:3: in f',
    'E   json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
  ].join('\n');
  const loc = failureLocation({ ...failed, phases: { call: { outcome: 'failed', longrepr } } }, ROOT);
  assert.deepEqual(loc?.frames, [
    { file: 'tests/test_x.py', line: 4, func: 'test_x' },
    { file: 'src/pkg/mod.py', line: 9, func: 'helper' },
    { file: 'tests/a.py', line: 7, func: 'inner' },
  ]);
  assert.deepEqual([loc?.file, loc?.line], ['tests/a.py', 7], 'the deepest frame inside the code');
});
