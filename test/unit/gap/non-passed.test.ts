import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { classify, nonPassedIds } from '../../../src/core/gap/non-passed';
import type { TestReport } from '../../../src/core/pytest/test-report';
import { jsonPair, junitPair, referenceIds } from './reference-fixture';

describe('nonPassedIds', () => {
  test('json-report pair: the reference set of 14', () => {
    const ids = nonPassedIds(jsonPair.current, jsonPair.target);
    assert.equal(ids.length, 14);
    assert.deepEqual(new Set(ids), new Set(referenceIds));
  });

  test('JUnit xunit1 pair: the same set', () => {
    assert.deepEqual(new Set(nonPassedIds(junitPair.current, junitPair.target)), new Set(referenceIds));
  });

  test('without a current report, every test the target passes', () => {
    assert.equal(nonPassedIds(undefined, jsonPair.target).length, 24);
  });

  test('target passed − current passed, nothing else', () => {
    const r = (tests: [string, TestReport['tests'][number]['outcome']][]): TestReport => ({
      format: 'json-report',
      summary: {},
      tests: tests.map(([nodeid, outcome]) => ({ nodeid, outcome, phases: {} })),
    });
    const target = r([
      ['a', 'passed'],
      ['b', 'passed'],
      ['c', 'failed'],
      ['d', 'xpassed'],
      ['e', 'passed'],
    ]);
    const current = r([
      ['a', 'passed'],
      ['b', 'failed'],
      ['c', 'passed'],
      ['d', 'failed'],
      ['e', 'xpassed'],
    ]);
    assert.deepEqual(nonPassedIds(current, target), ['b', 'e']);
  });
});

describe('classify', () => {
  const detailDir = path.resolve('/tmp/some-task/app/non-passed');
  const entries = classify(jsonPair.current, jsonPair.target, { detailDir });
  const get = (id: string) => entries.find((e) => e.nodeid === id);

  test('kinds on the fixture: 9 failed, 2 errors, 3 not collected', () => {
    const counts: Record<string, number> = {};
    for (const e of entries) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    assert.deepEqual(counts, { failed: 9, error: 2, 'not-collected': 3 });
  });

  test('an error at setup and one at teardown, with reason and traceback head', () => {
    const setup = get('tests/test_fixtures.py::test_uses_power');
    assert.deepEqual(
      { kind: setup?.kind, outcome: setup?.outcome, stage: setup?.stage, reason: setup?.reason, file: setup?.file, lineno: setup?.lineno },
      { kind: 'error', outcome: 'error', stage: 'setup', reason: 'E   RuntimeError: calc.power is missing', file: 'tests/test_fixtures.py', lineno: 18 },
    );
    assert.equal(
      setup?.tracebackHead,
      'tests/test_fixtures.py:8: in needs_power\n    raise RuntimeError("calc.power is missing")\nE   RuntimeError: calc.power is missing',
    );
    assert.equal(setup?.detailFile, path.join(detailDir, 'tests_test_fixtures.py__test_uses_power.json'));
    const td = get('tests/test_fixtures.py::test_teardown_error');
    assert.equal(td?.kind, 'error');
    assert.equal(td?.stage, 'teardown');
  });

  test('a failure at call', () => {
    const sub = get('tests/test_ops.py::test_sub');
    assert.equal(sub?.kind, 'failed');
    assert.equal(sub?.stage, 'call');
    assert.equal(sub?.reason, 'E    +  where -2 = sub(5, 3)');
    assert.equal(sub?.lineno, 8);
  });

  test('not collected: no outcome, no detail file, file and line from the target', () => {
    const nc = get('tests/test_registry.py::test_operation_is_callable[power]');
    assert.equal(nc?.kind, 'not-collected');
    assert.equal(nc?.outcome, undefined);
    assert.equal(nc?.detailFile, undefined);
    assert.equal(nc?.file, 'tests/test_registry.py');
    assert.equal(nc?.lineno, 4);
  });

  test('skipped, xfailed and xpassed now are the skipped kind', () => {
    const report = (outcomes: [string, TestReport['tests'][number]['outcome']][]): TestReport => ({
      format: 'junit',
      summary: {},
      tests: outcomes.map(([nodeid, outcome]) => ({ nodeid, outcome, phases: {} })),
    });
    const target = report([
      ['t.py::a', 'passed'],
      ['t.py::b', 'passed'],
      ['t.py::c', 'passed'],
    ]);
    const current = report([
      ['t.py::a', 'skipped'],
      ['t.py::b', 'xfailed'],
      ['t.py::c', 'xpassed'],
    ]);
    const got = classify(current, target);
    assert.deepEqual(
      got.map((e) => [e.kind, e.outcome, e.file, e.detailFile]),
      [
        ['skipped', 'skipped', 't.py', undefined],
        ['skipped', 'xfailed', 't.py', undefined],
        ['skipped', 'xpassed', 't.py', undefined],
      ],
    );
  });

  test('JUnit pair classifies the same way as json-report', () => {
    const fromJunit = classify(junitPair.current, junitPair.target, { detailDir });
    const pick = (es: typeof entries) =>
      es
        .map((e) => ({ id: e.nodeid, kind: e.kind, stage: e.stage, reason: e.reason, file: e.file, lineno: e.lineno, detail: e.detailFile }))
        .sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(pick(fromJunit), pick(entries));
  });
});

describe('headline (what the tree shows first)', () => {
  const byId = (pair: typeof jsonPair) => new Map(classify(pair.current, pair.target).map((e) => [e.nodeid, e]));

  test('is the first E line, not the reference reason (the last line)', () => {
    const sub = byId(jsonPair).get('tests/test_ops.py::test_sub');
    assert.equal(sub?.headline, 'assert -2 == 2');
    assert.equal(sub?.reason, 'E    +  where -2 = sub(5, 3)');
  });

  test('an error at teardown shows its exception', () => {
    const e = byId(jsonPair).get('tests/test_fixtures.py::test_teardown_error');
    assert.equal(e?.stage, 'teardown');
    assert.equal(e?.headline, 'RuntimeError: teardown saw no power');
  });

  test('JUnit gives the same headlines', () => {
    const json = byId(jsonPair);
    for (const [id, entry] of byId(junitPair)) {
      if (entry.kind === 'not-collected') continue;
      assert.equal(entry.headline, json.get(id)?.headline, id);
    }
  });

  test('not-collected tests have none', () => {
    for (const e of byId(jsonPair).values()) if (e.kind === 'not-collected') assert.equal(e.headline, undefined);
  });
});
