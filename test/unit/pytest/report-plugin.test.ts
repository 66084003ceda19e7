// Our report plugin's own behaviour, with real pytest (parity with pytest-json-report is in
// report-plugin-parity.test.ts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPORT_PLUGIN_MODULE, reportPluginDir } from '../../../src/core/pytest/report-plugin';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { hasJsonReport } from '../../../src/core/pytest/detect-json-report';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { CALC_SRC, PYTHON, makeProject, removeProject } from './python-project';

const rt = new LocalRuntime();
const made: string[] = [];
after(() => made.forEach(removeProject));

function project(files: Record<string, string>): string {
  const root = makeProject(files);
  made.push(root, `${root}-out`);
  return root;
}

test("a project's conftest may implement pytest-json-report's hooks: they load and run as with the real plugin", async () => {
  const root = project({
    ...CALC_SRC,
    'tests/conftest.py': [
      'def pytest_json_modifyreport(json_report):',
      '    json_report["from_conftest"] = True',
      '',
      'def pytest_json_runtest_metadata(item, call):',
      '    if call.when == "call":',
      '        return {"seen": call.when}',
      '',
    ].join('\n'),
    'tests/test_one.py': 'from calc import add\n\ndef test_one():\n    assert add(1, 1) == 2\n',
  });
  const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile: path.join(`${root}-out`, 'raw-report'), format: 'builtin' });
  assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? `${run.reason}\n${run.output}` : '');
  const raw = JSON.parse(fs.readFileSync(run.reportFile, 'utf8')) as { from_conftest?: boolean; tests: Array<{ metadata?: unknown }> };
  assert.equal(raw.from_conftest, true);
  assert.deepEqual(raw.tests[0].metadata, { seen: 'call' });
  assert.match(run.output, /SWE-CI report -+\nreport saved to: /);
});

test('loaded without --sweci-report it writes nothing and changes nothing', () => {
  const root = project({ 'tests/test_one.py': 'def test_one():\n    pass\n' });
  const r = spawnSync(PYTHON, ['-m', 'pytest', 'tests', '-p', REPORT_PLUGIN_MODULE, '-p', 'no:cacheprovider', '-q'], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: reportPluginDir(), PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /SWE-CI report/);
  // Only files count: a plugin of this interpreter (pytest-benchmark) makes an empty folder of its own.
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile());
  assert.deepEqual(files, [path.join('tests', 'test_one.py')]);
});

test('pytest older than 7 is refused with a message that says what to do', () => {
  const script = [
    'import pytest, sweci_pytest_report as plugin',
    'pytest.__version__ = "6.2.5"',
    'class Config:',
    '    def getoption(self, name):',
    '        return "/tmp/never-written" if name == "sweci_report" else None',
    'try:',
    '    plugin.pytest_configure(Config())',
    'except pytest.UsageError as err:',
    '    print("refused:", err)',
  ].join('\n');
  const r = spawnSync(PYTHON, ['-c', script], { env: { ...process.env, PYTHONPATH: reportPluginDir(), PYTHONDONTWRITEBYTECODE: '1' }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^refused: SWE-CI's report plugin needs pytest 7 or later; this interpreter has pytest 6\.2\.5\. Install pytest-json-report, or set sweci\.pytest\.reportFormat to junit\./,
  );
});

test('json-report asked for where the plugin is not installed: did not run, and the reason says what to do', async (t) => {
  if (await hasJsonReport(rt, PYTHON, process.cwd())) return t.skip('pytest-json-report is installed here');
  const root = project({ 'tests/test_one.py': 'def test_one():\n    pass\n' });
  const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile: path.join(`${root}-out`, 'raw-report'), format: 'json-report' });
  assert.equal(run.kind, 'did-not-run');
  if (run.kind === 'did-not-run') {
    assert.match(run.reason, /^pytest exited with code 4 \(command line usage error\): unrecognized arguments: --json-report/);
    assert.ok(
      run.reason.endsWith(
        `pytest-json-report is not installed for ${PYTHON}: install it there, or set sweci.pytest.reportFormat to auto (SWE-CI's own plugin writes the same report).`,
      ),
      run.reason,
    );
  }
});

test("auto's probe for pytest-json-report is not fooled by a module the code under test plants", async () => {
  // A fake pytest_jsonreport next to the code: importable from the code folder, but no pytest plugin.
  const root = project({ 'pytest_jsonreport.py': 'FAKE = True\n', 'tests/test_one.py': 'def test_one():\n    pass\n' });
  const fresh = new LocalRuntime(); // the probe's answer is kept per runtime
  const run = await runPytest(fresh, { python: PYTHON, codeDir: root, reportFile: path.join(`${root}-out`, 'raw-report') });
  assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? run.reason : '');
  assert.equal(run.format, 'builtin');
});
