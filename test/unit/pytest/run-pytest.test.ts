// Real pytest on real Python code, through the LocalRuntime.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { firstErrorLine } from '../../../src/core/pytest/pytest-error-line';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { hasJsonReport } from '../../../src/core/pytest/detect-json-report';
import { waitDead } from '../runtime/process-helpers';
import { CALC_SRC, MIXED_TESTS, PYTHON, listTree, makeProject, removeProject } from './python-project';
import { checkReferenceLike } from './reference-like';

const posix = process.platform !== 'win32';
const rt = new LocalRuntime();
const made: string[] = [];
function project(files: Record<string, string>): string {
  const root = makeProject(files);
  made.push(root);
  return root;
}
after(() => made.forEach(removeProject));

describe('runPytest with real pytest (JUnit)', () => {
  test('passing, failing, setup-error, teardown-error, skip and xfail tests', async () => {
    const root = project({ ...CALC_SRC, ...MIXED_TESTS });
    const code = root;
    const reportFile = path.join(root, '..', `${path.basename(root)}-reports`, 'nested', 'report.xml');
    made.push(path.dirname(path.dirname(reportFile)));
    const streamed: string[] = [];
    const run = await runPytest(rt, { python: PYTHON, codeDir: code, reportFile, format: 'junit', onOutput: (c) => streamed.push(c) });
    assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? run.reason + '\n' + run.output : '');
    if (run.kind !== 'ran') return;
    assert.equal(run.exitCode, 1);
    assert.equal(run.format, 'junit');
    assert.equal(run.reportFile, reportFile);
    assert.ok(fs.existsSync(reportFile));
    const outcomes = Object.fromEntries(run.report.tests.map((t) => [t.nodeid, t.outcome]));
    assert.deepEqual(outcomes, {
      'tests/test_fixtures.py::test_setup_error': 'error',
      'tests/test_fixtures.py::test_teardown_error': 'error',
      'tests/test_ops.py::test_add': 'passed',
      'tests/test_ops.py::test_sub': 'failed',
      'tests/test_ops.py::TestMore::test_param[one/two]': 'passed',
      'tests/test_ops.py::TestMore::test_param[weird id [1]::x]': 'passed',
      'tests/test_ops.py::TestMore::test_skip': 'skipped',
      'tests/test_ops.py::test_xfail': 'xfailed',
    });
    const byId = new Map(run.report.tests.map((t) => [t.nodeid, t]));
    assert.match(byId.get('tests/test_fixtures.py::test_setup_error')?.phases.setup?.longrepr ?? '', /RuntimeError: setup is broken/);
    assert.match(byId.get('tests/test_fixtures.py::test_teardown_error')?.phases.teardown?.longrepr ?? '', /RuntimeError: teardown is broken/);
    assert.match(byId.get('tests/test_ops.py::test_sub')?.phases.call?.longrepr ?? '', /assert -2 == 2/);
    assert.equal(byId.get('tests/test_ops.py::test_add')?.lineno, 4);
    assert.deepEqual(run.report.summary, { passed: 3, failed: 1, error: 2, skipped: 1, xfailed: 1, total: 8, collected: 8 });
    assert.equal(run.report.exitCode, 1);
    // The reference command, with -rfE's short summary in the output.
    assert.match(run.output, /short test summary info/);
    assert.match(run.output, /FAILED tests\/test_ops.py::test_sub/);
    assert.equal(streamed.join(''), run.output);
    assert.match(run.command, /-m pytest tests --color=no/);
    assert.deepEqual(run.invocation.args.slice(0, 8), ['-m', 'pytest', 'tests', '--color=no', '--tb=short', '--disable-warnings', '-rfE', `--rootdir=${code}`]);
    // PYTHONPATH=src made `calc` importable; no cache or bytecode was left in the code folder.
    assert.deepEqual(
      listTree(code).filter((p) => /pytest_cache|__pycache__|\.pyc$/.test(p)),
      [],
    );
  });

  test('format auto uses our own report plugin when pytest-json-report is not importable', async (t) => {
    if (await hasJsonReport(rt, PYTHON, process.cwd())) return t.skip('pytest-json-report is installed here');
    const root = project({ ...CALC_SRC, 'tests/test_one.py': 'def test_one():\n    assert True\n' });
    const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile: path.join(root, '.report', 'r.xml') });
    assert.equal(run.kind, 'ran');
    assert.equal(run.format, 'builtin');
    assert.equal(run.report.format, 'json-report', 'the same format as the reference reads');
    if (run.kind === 'ran') {
      assert.equal(run.exitCode, 0);
      assert.deepEqual(run.report.summary, { passed: 1, total: 1, collected: 1 });
    }
  });

  test('a collection error (syntax error) is did-not-run with exit 2 and the output kept', async () => {
    const root = project({
      ...CALC_SRC,
      'tests/test_ok.py': 'def test_ok():\n    assert True\n',
      'tests/test_broken.py': 'def test_broken(:\n    pass\n',
    });
    const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile: path.join(root, '.report', 'r.xml'), format: 'junit' });
    assert.equal(run.kind, 'did-not-run');
    if (run.kind !== 'did-not-run') return;
    assert.equal(run.exitCode, 2);
    assert.equal(run.timedOut, false);
    assert.equal(run.cancelled, false);
    assert.match(run.reason, /exited with code 2 \(interrupted/);
    assert.match(run.output, /ERROR collecting tests\/test_broken.py/);
    assert.match(run.output, /SyntaxError/);
  });

  test('no tests collected (exit 5) is did-not-run', async () => {
    const root = project({ ...CALC_SRC, 'tests/test_none.py': 'x = 1\n' });
    const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile: path.join(root, '.report', 'r.xml'), format: 'junit' });
    assert.equal(run.kind, 'did-not-run');
    assert.equal(run.exitCode, 5);
  });

  test('timeout: did-not-run, timedOut, and no python process is left', { skip: !posix && 'POSIX' }, async (t) => {
    const root = project({
      ...CALC_SRC,
      'tests/test_slow.py': [
        'import os, subprocess, time',
        '',
        'def test_slow():',
        '    child = subprocess.Popen(["sleep", "100"])',
        '    with open(os.environ["PIDS_FILE"] + ".part", "w") as f:',
        '        f.write(f"{os.getpid()} {child.pid}")',
        '    os.rename(os.environ["PIDS_FILE"] + ".part", os.environ["PIDS_FILE"])',
        '    time.sleep(100)',
        '',
      ].join('\n'),
    });
    const pidsFile = path.join(root, 'pids.txt');
    // The budget runs on a clock this test moves: it starts once the test inside pytest has
    // written its pids, however long pytest took to get there on a loaded machine.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    // pytest's environment is clean: the variable goes in as the user's pytest env does.
    const running = runPytest(rt, {
      python: PYTHON,
      codeDir: root,
      reportFile: path.join(root, '.report', 'r.xml'),
      format: 'junit',
      timeoutMs: 5000,
      env: { PIDS_FILE: pidsFile },
    });
    // Polled on setInterval, which the mock leaves alone.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (fs.existsSync(pidsFile)) resolve(void clearInterval(poll));
      }, 50);
    });
    t.mock.timers.tick(5000);
    t.mock.timers.reset();
    const run = await running;
    assert.equal(run.kind, 'did-not-run');
    if (run.kind !== 'did-not-run') return;
    assert.equal(run.timedOut, true);
    assert.equal(run.exitCode, null);
    assert.match(run.reason, /did not finish within 5 s/);
    const pids = fs.readFileSync(pidsFile, 'utf8').split(' ').map(Number);
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.equal(await waitDead(pid), true, `process ${pid} survived the timeout`);
  });

  test('cancellation: did-not-run, cancelled', { skip: !posix && 'POSIX' }, async () => {
    const root = project({
      ...CALC_SRC,
      'tests/test_slow.py': 'import os, time\n\ndef test_slow():\n    open(os.environ["STARTED_FILE"], "w").close()\n    time.sleep(100)\n',
    });
    const startedFile = path.join(root, 'started');
    const ac = new AbortController();
    // Cancelled once the test runs (its file is there), not after a fixed while.
    const poll = setInterval(() => fs.existsSync(startedFile) && ac.abort(), 50);
    const run = await runPytest(rt, {
      python: PYTHON,
      codeDir: root,
      reportFile: path.join(root, '.report', 'r.xml'),
      format: 'junit',
      signal: ac.signal,
      env: { STARTED_FILE: startedFile },
    }).finally(() => clearInterval(poll));
    assert.equal(run.kind, 'did-not-run');
    if (run.kind === 'did-not-run') {
      assert.equal(run.cancelled, true);
      assert.match(run.reason, /cancelled/);
    }
  });

  test('a stale report is deleted first: an interpreter that writes none gives did-not-run', { skip: !posix && 'POSIX' }, async () => {
    const root = project({ 'tests/test_x.py': 'def test_x():\n    pass\n' });
    const fake = path.join(root, 'fake-python');
    fs.writeFileSync(fake, '#!/bin/sh\necho "pretending to be pytest"\nexit 0\n', { mode: 0o755 });
    const reportFile = path.join(root, '.report', 'r.xml');
    fs.mkdirSync(path.dirname(reportFile));
    fs.writeFileSync(reportFile, '<testsuites><testsuite><testcase classname="tests.test_x" name="test_x" file="tests/test_x.py"/></testsuite></testsuites>');
    const run = await runPytest(rt, { python: fake, codeDir: root, reportFile, format: 'junit' });
    assert.equal(run.kind, 'did-not-run');
    if (run.kind === 'did-not-run') {
      assert.match(run.reason, /wrote no report/);
      assert.equal(run.output, 'pretending to be pytest\n');
    }
    assert.equal(fs.existsSync(reportFile), false);
  });

  test('an unreadable report gives did-not-run with the parse error', { skip: !posix && 'POSIX' }, async () => {
    const root = project({ 'tests/test_x.py': '' });
    const reportFile = path.join(root, '.report', 'r.xml');
    const fake = path.join(root, 'fake-python');
    fs.writeFileSync(fake, `#!/bin/sh\nprintf '<html/>' > '${reportFile}'\nexit 1\n`, { mode: 0o755 });
    const run = await runPytest(rt, { python: fake, codeDir: root, reportFile, format: 'junit' });
    assert.equal(run.kind, 'did-not-run');
    if (run.kind === 'did-not-run') assert.match(run.reason, /could not be read: .*testsuite/);
  });

  test("code under test that turns the report into a link (to the oracle's report) is not scored through it", { skip: !posix && 'POSIX' }, async () => {
    // The oracle: a report in which the failing test passes.
    const oracle = path.join(project({}), 'target.report.xml');
    fs.writeFileSync(oracle, '<testsuites><testsuite><testcase classname="tests.test_x" name="test_x" file="tests/test_x.py"/></testsuite></testsuites>');
    const root = project({
      'tests/test_x.py': 'def test_x():\n    assert False\n',
      // After pytest wrote its report (junitxml writes it at session finish), swap in a link.
      'conftest.py': [
        'import os',
        'def pytest_unconfigure(config):',
        '    report = config.option.xmlpath',
        '    os.remove(report)',
        `    os.symlink(${JSON.stringify(oracle)}, report)`,
        '',
      ].join('\n'),
    });
    const reportFile = path.join(root, '..', `${path.basename(root)}-linked`, 'r.xml');
    made.push(path.dirname(reportFile));
    const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile, format: 'junit' });
    assert.ok(fs.lstatSync(reportFile).isSymbolicLink(), 'the attack happened');
    assert.equal(run.kind, 'did-not-run');
    if (run.kind === 'did-not-run') assert.match(run.reason, /is a link or not a regular file: it is not read/);
  });

  test('a bad python path is a clear error (explicit format and auto)', async () => {
    const root = project({ 'tests/test_x.py': '' });
    const reportFile = path.join(root, '.report', 'r.xml');
    const bad = path.join(root, 'no', 'such', 'python3');
    for (const format of ['junit', 'auto'] as const) {
      await assert.rejects(
        runPytest(rt, { python: bad, codeDir: root, reportFile, format }),
        (e: Error) => e.message.includes(`"${bad}"`) && /PATH/.test(e.message),
      );
    }
  });
});

describe('pytest runs as the reference runs it, and leaves the code folder as it was', () => {
  // In the task image (Docker): run-pytest-docker.test.ts.
  test('locally, with our report plugin and with JUnit', async () => {
    await checkReferenceLike(rt, PYTHON, 'builtin', made);
    await checkReferenceLike(rt, PYTHON, 'junit', made);
  });

  test('a report folder that holds the code is refused before anything is deleted', async () => {
    const root = project({ 'tests/test_x.py': 'def test_x():\n    pass\n' });
    await assert.rejects(
      runPytest(rt, { python: PYTHON, codeDir: path.join(root, 'code'), reportFile: path.join(root, 'r.xml'), format: 'junit' }),
      /must not hold the code folder/,
    );
    assert.ok(fs.existsSync(path.join(root, 'tests', 'test_x.py')));
  });
});

describe('"pytest did not run" names the cause', () => {
  test('an ImportError in a conftest: its line, from real pytest', async () => {
    const root = project({ 'conftest.py': 'import sweci_no_such_module\n', 'tests/test_x.py': 'def test_x():\n    pass\n' });
    const run = await runPytest(rt, { python: PYTHON, codeDir: root, reportFile: path.join(`${root}-out`, 'r.xml'), format: 'junit' });
    made.push(`${root}-out`);
    assert.equal(run.kind, 'did-not-run');
    assert.match(
      run.kind === 'did-not-run' ? run.reason : '',
      /^pytest exited with code \d \(.*\): ModuleNotFoundError: No module named 'sweci_no_such_module'; see its output\.$/,
    );
  });

  test("firstErrorLine: traceback lines first, then a usage error, then pytest's own ERROR line", () => {
    assert.equal(
      firstErrorLine(
        "ImportError while loading conftest '/c/conftest.py'.\nconftest.py:1: in <module>\n    import x\nE   ModuleNotFoundError: No module named 'x'\n",
      ),
      "ModuleNotFoundError: No module named 'x'",
    );
    assert.equal(
      firstErrorLine('ERROR: usage: __main__.py [options] [file_or_dir]\n__main__.py: error: unrecognized arguments: --bogus\n  inifile: None\n'),
      'unrecognized arguments: --bogus',
    );
    assert.equal(firstErrorLine('ERROR: file or directory not found: tests\n'), 'file or directory not found: tests');
    assert.equal(
      firstErrorLine('E     File "/c/src/p/__init__.py", line 1\nE       def broken(:\nE                  ^\nE   SyntaxError: invalid syntax\n'),
      'SyntaxError: invalid syntax',
    );
    assert.equal(firstErrorLine('collected 0 items\n'), undefined);
    assert.equal(firstErrorLine(`E   ${'x'.repeat(500)}`)?.length, 301);
  });
});
