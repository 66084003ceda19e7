import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPORT_PLUGIN_MODULE, reportPluginDir } from '../../../src/core/pytest/report-plugin';
import assert from 'node:assert/strict';
import { parseJunitXml } from '../../../src/core/pytest/parse-junit';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import type { TestReport } from '../../../src/core/pytest/test-report';
import { ReportParseError } from '../../../src/core/pytest/report-error';
import { readReportFixture } from './fixtures';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';

const json = {
  base: parseJsonReport(readReportFixture('base.report.json')),
  target: parseJsonReport(readReportFixture('target.report.json')),
};
const x1 = {
  base: parseJunitXml(readReportFixture('base.junit-xunit1.xml')),
  target: parseJunitXml(readReportFixture('target.junit-xunit1.xml')),
};
const x2 = {
  base: parseJunitXml(readReportFixture('base.junit-xunit2.xml')),
  target: parseJunitXml(readReportFixture('target.junit-xunit2.xml')),
};

function outcomes(r: TestReport): Map<string, string> {
  return new Map(r.tests.map((t) => [t.nodeid, t.outcome]));
}

/** json-report's outcomes as JUnit can express them: a (non-strict) xpass is a pass. */
function asJunitSees(r: TestReport): Map<string, string> {
  return new Map(r.tests.map((t) => [t.nodeid, t.outcome === 'xpassed' ? 'passed' : t.outcome]));
}

describe('parseJunitXml, xunit1 (our fallback format)', () => {
  for (const side of ['base', 'target'] as const) {
    test(`${side}: every json-report node id is rebuilt exactly`, () => {
      assert.deepEqual([...outcomes(x1[side]).keys()].sort(), [...outcomes(json[side]).keys()].sort());
    });
    test(`${side}: outcomes equal json-report's except the documented xpassed → passed`, () => {
      assert.deepEqual(outcomes(x1[side]), asJunitSees(json[side]));
    });
    test(`${side}: file and 0-based lineno equal json-report's`, () => {
      const byId = new Map(json[side].tests.map((t) => [t.nodeid, t]));
      for (const t of x1[side].tests) {
        assert.equal(t.file, byId.get(t.nodeid)?.file, t.nodeid);
        assert.equal(t.lineno, byId.get(t.nodeid)?.lineno, t.nodeid);
      }
    });
  }

  test('summary counts in json-report shape (xpass counted as passed)', () => {
    assert.deepEqual(x1.base.summary, { passed: 11, failed: 9, error: 2, skipped: 1, xfailed: 1, total: 24, collected: 24 });
    assert.deepEqual(x1.target.summary, { passed: 25, skipped: 1, xfailed: 1, total: 27, collected: 27 });
    assert.equal(x1.base.format, 'junit');
    assert.ok(x1.base.durationSec && x1.base.durationSec > 0);
  });

  test('the node id with :: / spaces and brackets inside its parameter id', () => {
    const ids = x1.base.tests.map((t) => t.nodeid);
    assert.ok(ids.includes('tests/test_ops.py::TestDiv::test_div_str_ids[weird id [1]::x]'));
    assert.ok(ids.includes('tests/test_ops.py::TestDiv::test_div_str_ids[a/b]'));
    assert.ok(ids.includes('tests/test_unit.py::AddCase::test_sub_unittest'));
  });

  test('failing phases: call failure, setup error, teardown error', () => {
    const get = (id: string) => x1.base.tests.find((t) => t.nodeid === id);
    const sub = get('tests/test_ops.py::test_sub');
    assert.equal(sub?.phases.call?.outcome, 'failed');
    assert.equal(sub?.phases.call?.longrepr, 'tests/test_ops.py:10: in test_sub\n    assert sub(5, 3) == 2\nE   assert -2 == 2\nE    +  where -2 = sub(5, 3)');
    // &#10; in the attribute is decoded.
    assert.equal(sub?.phases.call?.crash?.message, 'assert -2 == 2\n +  where -2 = sub(5, 3)');
    const setupErr = get('tests/test_fixtures.py::test_uses_power');
    assert.equal(setupErr?.outcome, 'error');
    assert.equal(setupErr?.phases.setup?.outcome, 'failed');
    assert.equal(setupErr?.phases.call, undefined);
    const tdErr = get('tests/test_fixtures.py::test_teardown_error');
    assert.equal(tdErr?.outcome, 'error');
    assert.equal(tdErr?.phases.teardown?.outcome, 'failed');
    assert.equal(tdErr?.phases.call?.outcome, 'passed');
    assert.match(tdErr?.phases.teardown?.longrepr ?? '', /E {3}RuntimeError: teardown saw no power$/);
    // Same last line as json-report's longrepr, so the reference description is the same.
    const div = get('tests/test_ops.py::TestDiv::test_div_by_zero');
    assert.match(div?.phases.call?.longrepr ?? '', /E {3}Failed: DID NOT RAISE <class 'ZeroDivisionError'>$/);
  });

  test('skip and xfail', () => {
    const get = (id: string) => x1.base.tests.find((t) => t.nodeid === id);
    const jsonSkip = json.base.tests.find((t) => t.nodeid === 'tests/test_ops.py::test_skipped')?.phases.setup?.longrepr;
    assert.equal(jsonSkip, "('/app/code/tests/test_ops.py', 31, 'Skipped: not relevant')");
    assert.equal(get('tests/test_ops.py::test_skipped')?.phases.setup?.longrepr, jsonSkip, "json-report's tuple form, rebuilt");
    assert.equal(get('tests/test_ops.py::test_xfail')?.outcome, 'xfailed');
    assert.equal(get('tests/test_ops.py::test_xfail')?.phases.call?.longrepr, 'known');
  });
});

describe('parseJunitXml, xunit2 (no file attribute): best guess', () => {
  test('the fixture ids are guessed right (module segments lower-case, classes capitalised)', () => {
    assert.deepEqual(outcomes(x2.base), asJunitSees(json.base));
    assert.deepEqual(outcomes(x2.target), asJunitSees(json.target));
  });

  test('isTestFile resolves a lower-case class name the heuristic cannot', () => {
    const xml = '<testsuites><testsuite name="pytest"><testcase classname="tests.sub.test_a.lowercls" name="test_x" /></testsuite></testsuites>';
    assert.equal(parseJunitXml(xml).tests[0].nodeid, 'tests/sub/test_a/lowercls.py::test_x');
    const resolved = parseJunitXml(xml, { isTestFile: (p) => p === 'tests/sub/test_a.py' });
    assert.equal(resolved.tests[0].nodeid, 'tests/sub/test_a.py::lowercls::test_x');
    assert.equal(resolved.tests[0].file, 'tests/sub/test_a.py');
  });
});

describe('parseJunitXml, constructed edge cases', () => {
  const wrap = (cases: string) =>
    `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" time="1.5">${cases}</testsuite></testsuites>`;

  test('call failure plus teardown error on one testcase is an error with both phases', () => {
    const r = parseJunitXml(
      wrap(
        '<testcase classname="tests.test_a" name="test_both" file="tests/test_a.py" line="3"><failure message="boom">call tb</failure><error message="failed on teardown with &quot;x&quot;">td tb</error></testcase>',
      ),
    );
    const t = r.tests[0];
    assert.equal(t.outcome, 'error');
    assert.equal(t.phases.call?.longrepr, 'call tb');
    assert.equal(t.phases.teardown?.longrepr, 'td tb');
    assert.deepEqual(r.summary, { error: 1, total: 1, collected: 1 });
    assert.equal(r.durationSec, 1.5);
  });

  test('a strict xpass (<skipped> without type) is failed, as in json-report', () => {
    const r = parseJunitXml(
      wrap(
        '<testcase classname="tests.test_a" name="test_s" file="tests/test_a.py" line="1"><skipped message="xfail-marked test passes unexpectedly" /></testcase>',
      ),
    );
    assert.equal(r.tests[0].outcome, 'failed');
  });

  test('an error without a phase message counts at setup; a collection error keeps the file as node id', () => {
    const r = parseJunitXml(
      wrap('<testcase classname="" name="tests.test_bad" file="tests/test_bad.py"><error message="collection failure">SyntaxError</error></testcase>'),
    );
    assert.equal(r.tests[0].nodeid, 'tests/test_bad.py');
    assert.equal(r.tests[0].outcome, 'error');
    assert.equal(r.tests[0].phases.setup?.longrepr, 'SyntaxError');
    assert.equal(r.tests[0].lineno, undefined);
  });

  test('nested classes and nested directories', () => {
    const r = parseJunitXml(wrap('<testcase classname="tests.unit.test_a.TestOuter.TestInner" name="test_x[1.5-a b]" file="tests/unit/test_a.py" line="9" />'));
    assert.equal(r.tests[0].nodeid, 'tests/unit/test_a.py::TestOuter::TestInner::test_x[1.5-a b]');
    assert.equal(r.tests[0].lineno, 9);
  });

  test('an inherited test whose file attribute is the defining module uses classname', () => {
    const r = parseJunitXml(
      wrap(
        '<testcase classname="tests.test_child.TestChild" name="test_own" file="tests/test_child.py" line="5" />' +
          '<testcase classname="tests.test_child.TestChild" name="test_inherited" file="tests/base_tests.py" line="2" />',
      ),
    );
    assert.deepEqual(
      r.tests.map((t) => t.nodeid),
      ['tests/test_child.py::TestChild::test_own', 'tests/test_child.py::TestChild::test_inherited'],
    );
  });

  test('Windows separators in file become posix', () => {
    const r = parseJunitXml(wrap('<testcase classname="tests.test_a" name="test_w" file="tests\\test_a.py" line="0" />'));
    assert.equal(r.tests[0].nodeid, 'tests/test_a.py::test_w');
  });

  test('a lone <testsuite> root and an empty <testsuites/> are accepted', () => {
    const r = parseJunitXml('<testsuite name="pytest"><testcase classname="tests.test_a" name="t" file="tests/test_a.py" /></testsuite>');
    assert.equal(r.tests.length, 1);
    const empty = parseJunitXml('<?xml version="1.0"?><testsuites />');
    assert.equal(empty.tests.length, 0);
    assert.deepEqual(empty.summary, { total: 0, collected: 0 });
  });

  test('not JUnit at all is a ReportParseError', () => {
    assert.throws(
      () => parseJunitXml('<html><body/></html>'),
      (e: Error) => e instanceof ReportParseError,
    );
    assert.throws(() => parseJunitXml(''), ReportParseError);
  });

  test('exitCode from options is recorded', () => {
    assert.equal(parseJunitXml(wrap(''), { exitCode: 1 }).exitCode, 1);
  });
});

describe('parseJunitXml against real pytest: what JUnit writes apart is put back together', () => {
  let dir: string;
  let junit: TestReport;
  let fromJson: TestReport;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sweci-junit-'));
    mkdirSync(path.join(dir, 'tests'));
    writeFileSync(
      path.join(dir, 'tests', 'test_x.py'),
      [
        'import pytest',
        '@pytest.fixture',
        'def bad_teardown():',
        '    yield',
        '    raise RuntimeError("teardown boom")',
        'def test_both(bad_teardown):',
        '    assert 1 == 2',
        '@pytest.mark.skip(reason="it\'s not today")',
        'def test_skipped_marker():',
        '    pass',
        'def test_ok():',
        '    pass',
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'tests', 'test_modskip.py'), 'import pytest\npytest.skip("whole module", allow_module_level=True)\ndef test_never(): pass\n');
    const r = spawnSync(
      PYTHON,
      [
        '-m',
        'pytest',
        'tests',
        '-p',
        'no:cacheprovider',
        '--junitxml=out.xml',
        '-o',
        'junit_family=xunit1',
        '-p',
        REPORT_PLUGIN_MODULE,
        '--sweci-report=out.json',
      ],
      { cwd: dir, env: { ...process.env, PYTHONPATH: reportPluginDir(), PYTHONDONTWRITEBYTECODE: '1' }, encoding: 'utf8' },
    );
    assert.equal(r.status, 1, r.stderr + r.stdout);
    junit = parseJunitXml(readFileSync(path.join(dir, 'out.xml'), 'utf8'));
    fromJson = parseJsonReport(readFileSync(path.join(dir, 'out.json'), 'utf8'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a call failure and a teardown error (two testcases in the XML) are one error test with both phases', () => {
    const xml = readFileSync(path.join(dir, 'out.xml'), 'utf8');
    assert.equal(xml.match(/name="test_both"/g)?.length, 2, 'pytest writes the test twice');
    const both = junit.tests.filter((t) => t.nodeid === 'tests/test_x.py::test_both');
    assert.equal(both.length, 1);
    assert.equal(both[0].outcome, 'error');
    assert.equal(both[0].phases.call?.outcome, 'failed');
    assert.match(both[0].phases.call?.longrepr ?? '', /assert 1 == 2/);
    assert.match(both[0].phases.teardown?.longrepr ?? '', /teardown boom/);
  });

  test('the same tests, outcomes and counts as json-report; a module skipped at collection is not a test', () => {
    assert.deepEqual(outcomes(junit), outcomes(fromJson));
    assert.ok(!junit.tests.some((t) => t.nodeid.includes('test_modskip')));
    assert.deepEqual(junit.summary, fromJson.summary);
  });

  test("a skip's reason reads as json-report's, quotes included", () => {
    const id = 'tests/test_x.py::test_skipped_marker';
    const want = fromJson.tests.find((t) => t.nodeid === id)?.phases.setup?.longrepr;
    assert.match(want ?? '', /Skipped: it's not today/);
    assert.equal(junit.tests.find((t) => t.nodeid === id)?.phases.setup?.longrepr, want);
  });
});
