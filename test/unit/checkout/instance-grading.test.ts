// SWE-bench-style instances are graded as SWE-bench's harness grades them: an expected failure
// (XFAIL) passes, a test that did not run fails, a skip or an XPASS counts neither way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { instanceResolution, instanceSuccessRate, instanceTargetReport } from '../../../src/core/checkout/instance-target';
import { passedIds, type TestOutcome, type TestReport } from '../../../src/core/pytest/test-report';
import type { SweBenchInstance } from '../../../src/core/task/swe-bench-instance';

const instance: SweBenchInstance = {
  instanceId: 'acme__lib-1',
  repo: 'acme/lib',
  baseCommit: 'a'.repeat(40),
  testPatch: '',
  failToPass: ['tests/test_a.py::test_fixed'],
  passToPass: ['tests/test_a.py::test_kept', 'tests/test_a.py::test_known_bug'],
};

function report(outcomes: Record<string, TestOutcome>): TestReport {
  const tests = Object.entries(outcomes).map(([nodeid, outcome]) => ({ nodeid, outcome, file: 'tests/test_a.py', phases: {} }));
  return { format: 'json-report', summary: { total: tests.length }, tests };
}

test('an XFAIL on both sides passes: the gold patch of an instance with xfail tests in PASS_TO_PASS is resolved', () => {
  const v = instanceResolution(
    report({ 'tests/test_a.py::test_fixed': 'passed', 'tests/test_a.py::test_kept': 'passed', 'tests/test_a.py::test_known_bug': 'xfailed' }),
    instance,
  );
  assert.deepEqual(v, { resolved: true, failToPass: [1, 1], passToPass: [2, 2] });
});

test('a failed, erred or missing test fails; a skipped or XPASS test counts neither way', () => {
  const base = { 'tests/test_a.py::test_fixed': 'passed', 'tests/test_a.py::test_kept': 'passed' } as const;
  const verdict = (known: TestOutcome | undefined) =>
    instanceResolution(report(known ? { ...base, 'tests/test_a.py::test_known_bug': known } : base), instance).resolved;
  assert.equal(verdict('failed'), false);
  assert.equal(verdict('error'), false);
  assert.equal(verdict(undefined), false, 'a test that did not run is a failure');
  assert.equal(verdict('skipped'), true);
  assert.equal(verdict('xpassed'), true);
  assert.deepEqual(instanceResolution(report({ ...base, 'tests/test_a.py::test_known_bug': 'skipped' }), instance).passToPass, [1, 2]);
});

test('a PASS_TO_PASS test that is XFAIL on the base is XFAIL on the target side, so it never enters the non-passed set', () => {
  const onBase = report({ 'tests/test_a.py::test_fixed': 'failed', 'tests/test_a.py::test_kept': 'passed', 'tests/test_a.py::test_known_bug': 'xfailed' });
  const target = instanceTargetReport(onBase, instance, 'instances.json', '/nowhere');
  assert.deepEqual(
    target.tests.map((t) => [t.nodeid, t.outcome]),
    [
      ['tests/test_a.py::test_fixed', 'passed'],
      ['tests/test_a.py::test_kept', 'passed'],
      ['tests/test_a.py::test_known_bug', 'xfailed'],
    ],
  );
  assert.deepEqual(target.summary, { passed: 2, xfailed: 1, total: 3, collected: 3 });
  assert.deepEqual([...passedIds(target)], ['tests/test_a.py::test_fixed', 'tests/test_a.py::test_kept']);
});

test("SWE-Bench-CL's success rate: the share of the listed tests that pass (XFAIL passing), null when none are listed", () => {
  const r = report({ 'tests/test_a.py::test_fixed': 'failed', 'tests/test_a.py::test_kept': 'passed', 'tests/test_a.py::test_known_bug': 'xfailed' });
  assert.equal(instanceSuccessRate(r, instance), 2 / 3);
  assert.equal(instanceSuccessRate(report({}), instance), 0, 'nothing ran: nothing passes');
  assert.equal(instanceSuccessRate(r, { ...instance, failToPass: [], passToPass: [] }), null);
});
