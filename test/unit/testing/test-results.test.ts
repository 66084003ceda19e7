// The states and messages Test Explorer shows for a real report, and a partial pytest run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testResults } from '../../../src/core/gap/test-results';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import type { TestCase } from '../../../src/core/pytest/test-report';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { fixturesDir } from '../helpers/repo-root';
import { CALC_SRC, MIXED_TESTS, PYTHON, makeProject, removeProject } from '../pytest/python-project';

const read = (rel: string) => parseJsonReport(fs.readFileSync(path.join(fixturesDir, rel), 'utf8'));
const base = read('pytest-reports/base.report.json');
const target = read('pytest-reports/target.report.json');

test("states follow pytest outcomes; the target's tests that are not collected are errors", () => {
  const results = testResults(base, { target });
  const count = (s: string) => results.filter((r) => r.state === s).length;
  // base: passed 10, xpassed 1 → passed; failed 9; error 2; skipped 1 + xfailed 1 → skipped.
  assert.deepEqual([count('passed'), count('failed'), count('skipped')], [11, 9, 2]);
  const notCollected = results.filter((r) => /does not collect/.test(r.message ?? ''));
  assert.equal(notCollected.length, 3);
  assert.equal(count('errored'), 2 + 3);
  assert.equal(results.length, base.tests.length + 3);
  const outcomes: Array<TestCase['outcome']> = ['passed', 'xpassed', 'failed', 'error', 'skipped', 'xfailed'];
  const stateOf = (outcome: TestCase['outcome']): string => testResults({ ...base, tests: [{ ...base.tests[0], outcome, phases: {} }] })[0].state;
  assert.deepEqual(outcomes.map(stateOf), ['passed', 'passed', 'failed', 'errored', 'skipped', 'skipped']);
});

test("failures carry the error on their first line (what is shown inline), then pytest's report, and their location; a fixture error says its phase", () => {
  const results = new Map(testResults(base).map((r) => [r.nodeid, r]));
  const sub = results.get('tests/test_ops.py::test_sub');
  assert.match(sub?.message ?? '', /^assert -2 == 2\n\ntests\/test_ops.py:10: in test_sub\n/);
  assert.equal(sub?.location?.line, 10);
  const teardown = results.get('tests/test_fixtures.py::test_teardown_error');
  assert.match(teardown?.message ?? '', /^Error at teardown: RuntimeError: teardown saw no power\n\ntests\/test_fixtures.py:16: in noisy_teardown\n/);
  // Without the report's crash message (JUnit, say), the traceback's first E line is the error.
  const noCrash = { ...base, tests: base.tests.map((t) => ({ ...t, phases: { call: t.phases.call && { ...t.phases.call, crash: undefined } } })) };
  const fromE = new Map(testResults(noCrash).map((r) => [r.nodeid, r])).get('tests/test_ops.py::test_sub');
  assert.match(fromE?.message ?? '', /^assert -2 == 2\n\ntests\/test_ops.py:10:/);
  assert.deepEqual([teardown?.location?.file, teardown?.location?.line], ['tests/test_fixtures.py', 16]);
  assert.equal(results.get('tests/test_ops.py::test_add')?.message, undefined);
});

const made: string[] = [];
after(() => made.forEach(removeProject));

test('pytest on chosen node ids runs those tests only, and their failures are located', async () => {
  const root = makeProject({ ...CALC_SRC, ...MIXED_TESTS });
  made.push(root);
  const reportFile = path.join(`${root}-out`, 'raw-report');
  made.push(path.dirname(reportFile));
  const run = await runPytest(new LocalRuntime(), {
    python: PYTHON,
    codeDir: root,
    reportFile,
    format: 'builtin',
    nodeIds: ['tests/test_ops.py::test_sub', 'tests/test_fixtures.py', 'tests/test_ops.py::TestMore::test_param[weird id [1]::x]'],
  });
  assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? `${run.reason}\n${run.output}` : '');
  if (run.kind !== 'ran') return;
  assert.match(run.command, /-m pytest tests\/test_ops.py::test_sub tests\/test_fixtures.py /);
  const results = new Map(testResults(run.report, { codeDir: root }).map((r) => [r.nodeid, r]));
  assert.deepEqual([...results.keys()].sort(), [
    'tests/test_fixtures.py::test_setup_error',
    'tests/test_fixtures.py::test_teardown_error',
    'tests/test_ops.py::TestMore::test_param[weird id [1]::x]',
    'tests/test_ops.py::test_sub',
  ]);
  assert.equal(results.get('tests/test_ops.py::TestMore::test_param[weird id [1]::x]')?.state, 'passed');
  // pytest's line of a decorated test is its decorator's (what pastDecorators corrects).
  assert.equal(run.report.tests.find((t) => t.nodeid.startsWith('tests/test_ops.py::TestMore::test_param'))?.lineno, 13);
  assert.deepEqual([results.get('tests/test_ops.py::test_sub')?.state, results.get('tests/test_ops.py::test_sub')?.location?.line], ['failed', 10]);
  // The fixtures raise on lines 6 (setup) and 12 (after the yield); the tests are at 15 and 19.
  const setup = results.get('tests/test_fixtures.py::test_setup_error');
  assert.deepEqual([setup?.state, setup?.location?.phase, setup?.location?.line], ['errored', 'setup', 6]);
  const teardown = results.get('tests/test_fixtures.py::test_teardown_error');
  assert.deepEqual([teardown?.state, teardown?.location?.phase, teardown?.location?.line], ['errored', 'teardown', 12]);
});
