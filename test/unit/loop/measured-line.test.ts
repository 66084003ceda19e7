// The measured fields of a line, computed one way for the base line, an agent iteration and a
// replayed developer commit: gap = target-passed tests not passing now, passed = the others.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measuredFields } from '../../../src/core/loop/measured-line';
import type { TestOutcome, TestReport } from '../../../src/core/pytest/test-report';

function report(outcomes: Record<string, TestOutcome>): TestReport {
  const tests = Object.entries(outcomes).map(([nodeid, outcome]) => ({ nodeid, outcome, phases: {} }));
  return { format: 'json-report', summary: { passed: tests.filter((t) => t.outcome === 'passed').length, total: tests.length }, tests };
}

const target = report({ 't::a': 'passed', 't::b': 'passed', 't::c': 'passed', 't::d': 'failed' });

test('a run: gap counts the target-passed tests that do not pass now; passed is the rest; the summary is copied', () => {
  const now = report({ 't::a': 'passed', 't::b': 'failed', 't::d': 'passed', 't::e': 'passed' });
  const m = measuredFields(now, target);
  assert.deepEqual(m, { gap: 2, pytest: { passed: 3, total: 4 }, passed: 1, target_passed: 3 });
  assert.notEqual(m.pytest, now.summary, 'a copy, not the report object');
});

test('pytest did not run: gap −1, an empty summary, passed null, as the reference records a crash', () => {
  assert.deepEqual(measuredFields(undefined, target), { gap: -1, pytest: {}, passed: null, target_passed: 3 });
});
