import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildSummaryLines, NOT_COLLECTED_DESCRIPTION } from '../../../src/core/gap/summary';
import type { TestReport } from '../../../src/core/pytest/test-report';
import { REFERENCE_DETAIL_DIR, jsonPair, junitPair, referenceLines, withPlaceholder } from './reference-fixture';

describe('buildSummaryLines: parity with the reference summary.jsonl', () => {
  test('json-report pair: the same set of lines (detail path replaced by a placeholder)', () => {
    const ours = buildSummaryLines(jsonPair.current, jsonPair.target, { detailDir: '/somewhere/else/non-passed' });
    assert.equal(ours.length, referenceLines.length);
    assert.deepEqual(new Set(ours.map(withPlaceholder)), new Set(referenceLines.map(withPlaceholder)));
  });

  test('with the reference folder, lines differ only by our .json suffix', () => {
    const ours = buildSummaryLines(jsonPair.current, jsonPair.target, { detailDir: REFERENCE_DETAIL_DIR });
    const expected = referenceLines.map((l) => l.replace(/(Detailed traceback is recorded in [^"]*)"\}$/, '$1.json"}'));
    assert.deepEqual(new Set(ours), new Set(expected));
  });

  test('JUnit xunit1 pair: the same lines as well', () => {
    const ours = buildSummaryLines(junitPair.current, junitPair.target, { detailDir: '/x' });
    assert.deepEqual(new Set(ours.map(withPlaceholder)), new Set(referenceLines.map(withPlaceholder)));
  });

  test('lines are JSON with keys test, description', () => {
    for (const line of buildSummaryLines(jsonPair.current, jsonPair.target, { detailDir: '/x' })) {
      assert.deepEqual(Object.keys(JSON.parse(line) as object), ['test', 'description']);
    }
  });
});

describe('buildSummaryLines: constructed cases', () => {
  const target: TestReport = {
    format: 'json-report',
    summary: {},
    tests: [
      { nodeid: 'tests/test_ü.py::test_名前["quoted"\\]', outcome: 'passed', phases: {} },
      { nodeid: 'tests/t.py::test_nolongrepr', outcome: 'passed', phases: {} },
      { nodeid: 'tests/t.py::test_gone', outcome: 'passed', phases: {} },
    ],
  };
  const current: TestReport = {
    format: 'json-report',
    summary: {},
    tests: [
      {
        nodeid: 'tests/test_ü.py::test_名前["quoted"\\]',
        outcome: 'failed',
        phases: { setup: { outcome: 'passed' }, call: { outcome: 'failed', longrepr: '  tb\nE   AssertionError: ä\tb\n\n' } },
      },
      { nodeid: 'tests/t.py::test_nolongrepr', outcome: 'skipped', phases: { setup: { outcome: 'skipped' } } },
    ],
  };
  const lines = buildSummaryLines(current, target, { detailDir: '/app/non-passed' });

  test('non-ASCII is written as is, quotes, backslashes and tabs escaped like Python json.dumps', () => {
    assert.equal(
      lines[0],
      '{"test": "tests/test_ü.py::test_名前[\\"quoted\\"\\\\]", "description": "Test failed at call stage. Reason: E   AssertionError: ä\\tb. Detailed traceback is recorded in /app/non-passed/tests_test_ü.py__test_名前__quoted___.json"}',
    );
  });

  test('no phase with a longrepr: stage and reason are empty, as the reference writes it', () => {
    assert.equal(
      lines[1],
      '{"test": "tests/t.py::test_nolongrepr", "description": "Test skipped. . Detailed traceback is recorded in /app/non-passed/tests_t.py__test_nolongrepr.json"}',
    );
  });

  test('not collected: the reference sentence verbatim', () => {
    assert.equal(lines[2], `{"test": "tests/t.py::test_gone", "description": ${JSON.stringify(NOT_COLLECTED_DESCRIPTION)}}`);
    assert.equal(
      NOT_COLLECTED_DESCRIPTION,
      "This test was not properly collected or executed in the current run, so no detailed traceback is available. However, it was recorded as 'passed' in the target report.",
    );
  });

  test('nothing non-passed: no lines', () => {
    assert.deepEqual(buildSummaryLines(target, target, { detailDir: '/x' }), []);
  });
});
