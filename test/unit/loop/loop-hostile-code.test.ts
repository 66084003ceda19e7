// Code under test that tries to change its own score (issue 9): files git ignores that change
// how pytest runs. Real scripted agents, real pytest, the real loop.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { machineSeedStore, seedInterpreter, seedKey } from '../../../src/core/pytest/bytecode-seed';
import { runCurrentTests } from '../../../src/core/checkout/run-current-tests';
import { prepareBytecodeSeed } from '../../../src/core/pytest/run-pytest';
import { pytestConfinement } from '../../../src/core/runtime/task-confinement';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { createRun, startRun } from '../../../src/core/loop/run-loop';
import { CodeRepo } from '../../../src/core/loop/code-repo';
import { loadChartData } from '../../../src/core/scoring/load-chart-data';

import { missingSandbox } from '../helpers/require-sandbox';
import { FORGE_REPORT, FORGERY_TRIGGERS } from '../helpers/hostile-code';
import { DemoWorld, PYTHON, SANDBOX, exists, historyGit, loopOptions, pytestSettings, pythonScript, runtime, scripted } from './demo-fixture';

/** The flag a run carries besides where bubblewrap is missing and skipping its security test was allowed. */
const UNCONFINED = SANDBOX ? [] : ['not-isolated'];

let world: DemoWorld;
let scripts: string;

/** A pytest plugin (or conftest.py) that turns every failure into a pass. */
const FORCEPASS_PLUGIN = [
  'import pytest',
  '@pytest.hookimpl(hookwrapper=True)',
  'def pytest_runtest_makereport(item, call):',
  '    outcome = yield',
  '    report = outcome.get_result()',
  '    if report.failed:',
  '        report.outcome = "passed"',
  '        report.longrepr = None',
  '',
].join('\n');

describe('code under test that tries to change its score', () => {
  before(async () => {
    world = await DemoWorld.create('loop-hostile-code');
    scripts = world.scratch('scripts');
    await fs.mkdir(scripts, { recursive: true });
    // Sourceless bytecode, which git ignores (*.pyc): a sitecustomize that loads a pytest plugin
    // turning every failure into a pass. No source file changes, so the code diff is empty.
    await fs.writeFile(
      path.join(scripts, 'hidden-bytecode.py'),
      [
        'import os, py_compile, tempfile',
        'src = tempfile.mkdtemp()',
        'plugin = os.path.join(src, "forcepass.py")',
        `open(plugin, 'w').write(${JSON.stringify(FORCEPASS_PLUGIN)})`,
        'py_compile.compile(plugin, cfile="code/sweci_forcepass.pyc", doraise=True)',
        'site = os.path.join(src, "site.py")',
        'open(site, "w").write("import os\\nos.environ[\'PYTEST_PLUGINS\'] = \'sweci_forcepass\'\\n")',
        'py_compile.compile(site, cfile="code/sitecustomize.pyc", doraise=True)',
      ].join('\n') + '\n',
    );
    // Reads what no agent may see, forges the run's records, and leaves a daemon behind that
    // would keep changing the code in later iterations.
    await fs.writeFile(
      path.join(scripts, 'snoop-and-forge.py'),
      [
        'import json, os, time',
        "task_json = os.path.join('..', '.sweci', 'task.json')",
        'def peek(p):',
        '    try:',
        '        if os.path.isdir(p): return "dir %s" % sorted(os.listdir(p))',
        '        return "file %d bytes" % len(open(p, "rb").read())',
        '    except OSError as e:',
        '        return "unreadable %s" % e.errno',
        "for p in [task_json, os.environ['ORACLE'], os.environ['DATASET'], os.environ['DATASET_ROOT'], os.environ['OTHER_TASK'], os.environ['HOME_MARKER']]:",
        '    print("peek", p, peek(p), flush=True)',
        '# Another task beside this one: its code and its records.',
        "for p in [os.path.join(os.environ['OTHER_TASK'], 'app', 'code', 'README.md'), os.path.join(os.environ['OTHER_TASK'], '.sweci', 'task.json')]:",
        '    try:',
        "        open(p, 'a').write('forged')",
        "        print('other task forged', flush=True)",
        '    except OSError as e:',
        "        print('other task refused', e.errno, flush=True)",
        "lines = os.path.join('..', '.sweci', 'runs', os.environ['RUN'], 'iteration.jsonl')",
        'try:',
        "    open(lines, 'a').write(json.dumps({'gap': 0, 'iteration': 1, 'run': os.environ['RUN']}) + '\\n')",
        "    open(task_json, 'w').write('{}')",
        "    print('forged', flush=True)",
        'except OSError as e:',
        "    print('forge refused', e.errno, flush=True)",
        'if os.fork() == 0:',
        '    os.setsid()',
        '    if os.fork() == 0:',
        '        for _ in range(600):',
        "            open('daemon.log', 'a').write('beat\\n')",
        '            time.sleep(0.05)',
        '        os._exit(0)',
        '    os._exit(0)',
        "open('code/README.md', 'a').write('an honest-looking change\\n')",
      ].join('\n') + '\n',
    );
    // A conftest.py next to the code that turns failures into passes, plus a pytest section in
    // setup.cfg: committed, so scored like the reference would, but flagged.
    await fs.writeFile(
      path.join(scripts, 'forcepass-conftest.py'),
      [
        'import os',
        "if not os.path.exists('code/conftest.py'):",
        `    open('code/conftest.py', 'w').write(${JSON.stringify(FORCEPASS_PLUGIN)})`,
        "    open('code/setup.cfg', 'a').write('\\n[tool:pytest]\\naddopts = -p no:cacheprovider\\n')",
      ].join('\n') + '\n',
    );
    // Agents that echo the API key they were given into everything the iteration archives.
    await fs.writeFile(
      path.join(scripts, 'leak-architect.py'),
      [
        'import os',
        "key = os.environ['ACME_API_KEY']",
        "open('requirement.xml', 'w').write('<requirements><requirement id=\"1\"><location>README.md</location><description>key ' + key + '</description><contract>c</contract><acceptance>a</acceptance></requirement></requirements>\\n')",
        "print('architect saw', key)",
      ].join('\n') + '\n',
    );
    await fs.writeFile(
      path.join(scripts, 'leak-programmer.py'),
      [
        'import os',
        "key = os.environ['ACME_API_KEY']",
        "open('code/leak.txt', 'w').write(key + '\\n')",
        "open('code/conftest.py', 'w').write('def pytest_report_header(config):\\n    return \"leaked %s\"\\n' % key)",
      ].join('\n') + '\n',
    );
    // Eight files just under the per-file limit: together far over what one iteration may add.
    await fs.writeFile(
      path.join(scripts, 'many-big-files.py'),
      [
        'for i in range(8):',
        "    open('code/blob%d.bin' % i, 'wb').write(bytes([i]) * (900 * 1024))",
        "open('code/README.md', 'a').write('an ordinary change\\n')",
      ].join('\n') + '\n',
    );
    // Grows the table a target test is parametrized by (test_unit_roundtrip over UNITS): twenty
    // passing cases the target never had, and not one line under tests/ changed.
    await fs.writeFile(
      path.join(scripts, 'grow-table.py'),
      [
        'import glob',
        "units = glob.glob('code/**/tinyinventory/units.py', recursive=True)[0]",
        "open(units, 'a').write('\\nUNITS.update({\"fake%d\" % i: 1 for i in range(20)})\\n')",
      ].join('\n') + '\n',
    );
    // No conftest, no config: the package itself, once a test imports it, makes every failing
    // report a pass by replacing one of pytest's own methods.
    await fs.writeFile(
      path.join(scripts, 'package-forcepass.py'),
      [
        'import glob',
        "init = glob.glob('code/**/tinyinventory/__init__.py', recursive=True)[0]",
        `open(init, 'a').write(${JSON.stringify(
          [
            '',
            'import _pytest.reports as _reports',
            '_made = _reports.TestReport.from_item_and_call.__func__',
            'def _forced(cls, item, call):',
            '    report = _made(cls, item, call)',
            '    if report.failed:',
            '        report.outcome = "passed"',
            '        report.longrepr = None',
            '    return report',
            '_reports.TestReport.from_item_and_call = classmethod(_forced)',
            '',
          ].join('\n'),
        )})`,
      ].join('\n') + '\n',
    );
    // The package's import registers a forgery that rewrites, after pytest's session, any report
    // whose path is on pytest's command line with every test passed: from an exit handler, from a
    // thread that outlives pytest, or (with forged frames printed on descriptor 1) from an exit
    // handler again.
    for (const [name, trigger] of Object.entries(FORGERY_TRIGGERS)) {
      await fs.writeFile(
        path.join(scripts, `forge-${name}.py`),
        [
          'import glob',
          "init = glob.glob('code/**/tinyinventory/__init__.py', recursive=True)[0]",
          `open(init, 'a').write(${JSON.stringify(`\n${FORGE_REPORT}${trigger}`)})`,
        ].join('\n') + '\n',
      );
    }
    // Leaves a 2 MiB file beside an ordinary change.
    await fs.writeFile(
      path.join(scripts, 'big-file.py'),
      [
        "open('code/big.bin', 'wb').write(bytes(2 * 1024 * 1024))",
        "open('code/CHANGELOG.md', 'wb').write(bytes(2 * 1024 * 1024))",
        "open('code/README.md', 'a').write('an ordinary change\\n')",
      ].join('\n') + '\n',
    );
  });
  after(async () => {
    await world.dispose();
  });

  test("a sandboxed agent cannot read the oracle, the records, the dataset, another task or the user's home, cannot forge them, and leaves no process behind", async (t) => {
    if (!SANDBOX) return missingSandbox(t, 'bubblewrap cannot run here: the loop is not isolated');
    const task = await world.task();
    const layout = taskFolder(task.taskDir);
    const taskJson = await fs.readFile(layout.taskFile, 'utf8');
    const source = task.record.task.source;
    const other = await world.task('other');
    const otherReadme = await fs.readFile(path.join(taskFolder(other.taskDir).codeDir, 'README.md'), 'utf8');
    const marker = path.join(os.homedir(), `.sweci-hostile-${process.pid}`);
    await fs.writeFile(marker, "the user's own file");
    t.after(() => fs.rm(marker, { force: true }));
    const dataset = source.kind === 'dataset' ? source.zipPath : source.repoPath;
    const env = {
      ORACLE: task.record.oracleDir,
      DATASET: dataset,
      // The dataset's root holds every other task's code.zip (their targets' tests in its history).
      DATASET_ROOT: path.dirname(path.dirname(dataset)),
      OTHER_TASK: other.taskDir,
      HOME_MARKER: marker,
      RUN: 'forge',
    };
    await startRun(
      loopOptions(
        task,
        'forge',
        { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'snoop-and-forge.py'), { env }) },
        { iterations: 1 },
      ),
    );

    const records = await readIterationRecords(taskFolder(task.taskDir).run('forge').iterationsFile);
    assert.deepEqual(
      records.map((r) => r.iteration),
      [0, 1],
      'no forged line',
    );
    assert.equal(records[1].gap, records[0].gap, 'the real score');
    assert.equal(records[1].isolation, 'sandbox');
    assert.equal(await fs.readFile(layout.taskFile, 'utf8'), taskJson, 'task.json untouched');
    const log = await fs.readFile(path.join(taskFolder(task.taskDir).run('forge').iterationDir(1), 'programmer-try-1.log'), 'utf8');
    assert.match(log, /peek \.\.\/\.sweci\/task\.json unreadable 2/, 'no .sweci to read');
    // The log hides environment values (the paths given in ORACLE and DATASET) as ***, in order.
    const peeks = log.split('\n').filter((l) => l.startsWith('peek '));
    assert.deepEqual(
      peeks.slice(1),
      ['peek *** unreadable 2', 'peek *** unreadable 2', 'peek *** unreadable 2', 'peek *** unreadable 2', 'peek *** unreadable 2'],
      "neither the oracle, the dataset (this task's or any other), another task nor the user's home is there",
    );
    assert.deepEqual(
      log.split('\n').filter((l) => l.startsWith('other task')),
      ['other task refused 2', 'other task refused 2'],
    );
    assert.equal(await fs.readFile(path.join(taskFolder(other.taskDir).codeDir, 'README.md'), 'utf8'), otherReadme, "the other task's code is untouched");

    const beat = path.join(layout.appDir, 'daemon.log');
    const count = async () => (await fs.readFile(beat, 'utf8').catch(() => '')).length;
    const before = await count();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await count(), before, 'the daemon died with the agent');
  });

  test('ignored bytecode that would pass every test is not scored: pytest runs on a clean checkout of the commit', async () => {
    const task = await world.task();
    const result = await startRun(
      loopOptions(
        task,
        'bytecode',
        { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'hidden-bytecode.py')) },
        { iterations: 1 },
      ),
    );
    assert.equal(result.reason, 'paused');
    const [zero, one] = await readIterationRecords(taskFolder(task.taskDir).run('bytecode').iterationsFile);
    assert.ok(zero.gap > 0);
    const diff = await fs.readFile(path.join(taskFolder(task.taskDir).run('bytecode').iterationDir(1), 'code.diff'), 'utf8');
    assert.equal(diff, '', 'nothing the agent did is in the commit');
    assert.equal(one.gap, zero.gap, 'scored as committed: the same gap as the base');
    const code = taskFolder(task.taskDir).codeDir;
    assert.ok(await exists(path.join(code, 'sitecustomize.pyc')), "the agent's files stay in app/code");

    // The attack is real: pytest on app/code as it is (Refresh) turns failures into passes
    // (what still fails to be collected cannot be forged this way).
    const refresh = await runCurrentTests({ ...pytestSettings, task: taskFolder(task.taskDir), record: task.record, runtime });
    assert.ok(refresh.gap! < zero.gap / 2, `the working tree, bytecode included, forges a better score (gap ${refresh.gap} against ${zero.gap})`);
  });

  test('a conftest.py that forges passes is flagged as harness tampering on every iteration that has it, and can be left out of scores', async () => {
    const task = await world.task();
    const roles = { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'forcepass-conftest.py')) };
    await startRun(loopOptions(task, 'harness', roles, { iterations: 2 }));
    const [zero, one, two] = await readIterationRecords(taskFolder(task.taskDir).run('harness').iterationsFile);
    assert.deepEqual(one.harness_tampering, ['conftest.py', 'setup.cfg']);
    assert.deepEqual(two.harness_tampering, ['conftest.py', 'setup.cfg'], 'still flagged while the code has it');
    assert.deepEqual(zero.harness_tampering ?? [], []);
    assert.ok(one.gap < zero.gap, 'scored as the reference would: the forged passes count');

    // The reference's figure (--keep-flagged): the forged passes count.
    const scored = await loadChartData(taskFolder(task.taskDir), { scoring: { keepFlagged: true } });
    const honest = await loadChartData(taskFolder(task.taskDir), {});
    const excluded = await loadChartData(taskFolder(task.taskDir), { scoring: { excludeHarnessTampering: true } });
    const point = (d: typeof scored, i: number) => d.runs.find((r) => r.run === 'harness')!.points[i];
    assert.ok(point(scored, 1).a! > 0);
    assert.deepEqual(point(scored, 1).harnessTampering, ['conftest.py', 'setup.cfg']);
    // By default a tampered line scores the last honest measurement: the base's, so no change.
    assert.equal(point(honest, 1).a, 0, 'by default the forgery earns nothing');
    assert.equal(point(honest, 2).a, 0, 'nor on the next iteration that still has it');
    assert.equal(point(excluded, 1).a, null, 'left out of the score');
    assert.match(point(excluded, 1).pytestError ?? '', /Not scored: .*conftest\.py/);
    assert.equal(point(excluded, 0).a, 0, 'the base is untouched');
  });

  test('passes the target never had (a code-owned table grows a parametrized target test) are flagged inflated, and every summary marks the run', async () => {
    const task = await world.task();
    await startRun(
      loopOptions(task, 'grow', { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'grow-table.py')) }, { iterations: 1 }),
    );
    const [zero, one] = await readIterationRecords(taskFolder(task.taskDir).run('grow').iterationsFile);
    assert.equal(zero.inflated, undefined, 'the base is the measure');
    assert.equal(one.inflated_count, 20);
    assert.ok(one.inflated?.includes('tests/test_units.py::test_unit_roundtrip[fake0]'), JSON.stringify(one.inflated));
    assert.ok((one.pytest.passed ?? 0) >= (zero.pytest.passed ?? 0) + 20, 'pytest counted them');
    assert.equal(one.passed, zero.passed, 'no more of the target passes');
    assert.deepEqual(one.harness_tampering, [], 'not a conftest: only the new flag catches it');
    // The reference's figure (--keep-flagged): every pass pytest counted, the run marked.
    const data = await loadChartData(taskFolder(task.taskDir), { scoring: { keepFlagged: true } });
    const run = data.runs.find((r) => r.run === 'grow');
    assert.deepEqual(run?.flags, ['inflated', ...UNCONFINED]);
    assert.equal(run?.points[1].inflated, 20);
    // Scored as the paper defines n(c), over the tests the target passes: the twenty add nothing.
    const strict = (await loadChartData(taskFolder(task.taskDir), { scoring: { scoreTargetTestsOnly: true } })).runs.find((r) => r.run === 'grow');
    assert.equal(strict?.points[1].pytestPassed, one.passed);
    assert.equal(strict?.points[1].a, 0, 'no more of the target passes: no change');
    assert.ok((run?.points[1].a ?? 0) > 0, "the reference's count calls it progress");
    // By default the inflated passes are taken off pytest's count: less than the raw figure.
    const honest = (await loadChartData(taskFolder(task.taskDir))).runs.find((r) => r.run === 'grow');
    assert.ok((honest?.points[1].a ?? 1) < (run?.points[1].a ?? 0), `honest ${honest?.points[1].a} below raw ${run?.points[1].a}`);
    assert.equal(honest?.points[1].pytestPassed, (one.pytest.passed ?? 0) - 20, 'the twenty inflated passes are not counted');
  });

  test("a module of the package that replaces one of pytest's own functions is flagged as harness tampering by our report plugin, and can be left out of scores", async () => {
    const task = await world.task();
    const roles = { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'package-forcepass.py')) };
    await startRun(loopOptions(task, 'pkg', roles, { iterations: 1, pytest: { ...pytestSettings, format: 'builtin' } }));
    const [zero, one] = await readIterationRecords(taskFolder(task.taskDir).run('pkg').iterationsFile);
    assert.ok(one.gap < zero.gap, `the forgery raised the score with no honest change (gap ${zero.gap} → ${one.gap})`);
    const init = one.harness_tampering?.find((f) => f.endsWith('tinyinventory/__init__.py'));
    assert.ok(init, `flagged: ${JSON.stringify(one.harness_tampering)}`);
    const data = await loadChartData(taskFolder(task.taskDir), { scoring: { excludeHarnessTampering: true } });
    const point = data.runs.find((r) => r.run === 'pkg')?.points[1];
    assert.equal(point?.crashed, true, 'with sweci.integrity.excludeHarnessTampering the iteration is scored as not run');
    assert.deepEqual(data.runs.find((r) => r.run === 'pkg')?.flags, ['harness-tampering', ...UNCONFINED]);
  });

  for (const [name, what] of [
    ['atexit', 'an exit handler'],
    ['thread', 'a thread that outlives pytest'],
    ['fd1', 'forged frames on descriptor 1 and an exit handler'],
  ] as const) {
    test(`a package that rewrites pytest's report from ${what} keeps its honest gap`, async () => {
      const task = await world.task();
      const roles = { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, `forge-${name}.py`)) };
      const run = `forge-${name}`;
      await startRun(loopOptions(task, run, roles, { iterations: 1, pytest: { ...pytestSettings, format: 'builtin' } }));
      const [zero, one] = await readIterationRecords(taskFolder(task.taskDir).run(run).iterationsFile);
      assert.ok(zero.gap > 0, 'the base has failures to forge');
      assert.equal(one.pytest_error, undefined, 'scored');
      assert.equal(one.gap, zero.gap, `the forgery changed nothing (gap ${zero.gap} → ${one.gap})`);
      assert.equal(one.passed, zero.passed);
      const code = await fs.readFile(path.join(taskFolder(task.taskDir).run(run).iterationDir(1), 'code.diff'), 'utf8');
      assert.match(code, /_sweci_forge/, 'the forgery is in the scored code');
    });
  }

  test("bytecode the code under test plants for pytest's own modules dies with its run: each run starts from the seed, which no run can reach", async () => {
    const task = await world.task();
    // At import (during collection) the package compiles a forged _pytest/reports.py, one that turns
    // every failure into a pass, and writes it where the next run would load it: its own bytecode
    // prefix, stamped with the real source's size and mtime so Python takes it as up to date. The
    // Programmer plants it in iteration 1 and takes it out again in iteration 2.
    const plant = [
      'import _pytest.reports as _r, importlib._bootstrap_external as _e, importlib.util as _u, os as _o',
      '_src = _r.__file__',
      `_code = compile(open(_src).read() + ${JSON.stringify(['', '_made = TestReport.from_item_and_call.__func__', 'def _forced(cls, item, call):', '    report = _made(cls, item, call)', '    if report.failed:', '        report.outcome = "passed"', '        report.longrepr = None', '    return report', 'TestReport.from_item_and_call = classmethod(_forced)', ''].join('\n'))}, _src, "exec")`,
      '_st = _o.stat(_src)',
      '_pyc = _u.cache_from_source(_src)',
      // Its own prefix shows the seed read-only: the write fails, and the import goes on regardless.
      'try:',
      '    _o.makedirs(_o.path.dirname(_pyc), exist_ok=True)',
      '    open(_pyc, "wb").write(_e._code_to_timestamp_pyc(_code, int(_st.st_mtime), _st.st_size))',
      'except OSError:',
      '    pass',
    ].join('\n');
    const toggle = path.join(scripts, 'plant-bytecode.py');
    await fs.writeFile(
      toggle,
      [
        'import glob',
        "init = glob.glob('code/**/tinyinventory/__init__.py', recursive=True)[0]",
        'text = open(init).read()',
        "mark = '\\n# planted\\n'",
        'if mark in text:',
        "    open(init, 'w').write(text.split(mark)[0])",
        'else:',
        `    open(init, 'a').write(mark + ${JSON.stringify(plant)} + '\\n')`,
      ].join('\n') + '\n',
    );
    const roles = { architect: scripted('architect.py'), programmer: pythonScript(toggle) };
    await startRun(loopOptions(task, 'plant', roles, { iterations: 2, pytest: { ...pytestSettings, format: 'builtin' } }));
    const [zero, one, two] = await readIterationRecords(taskFolder(task.taskDir).run('plant').iterationsFile);
    assert.equal(one.gap, zero.gap, 'planting changes nothing in its own run');
    assert.equal(two.gap, zero.gap, "the honest code's real score: the planted bytecode was not loaded");

    // The seed kept the real module: no run wrote to it.
    const seeds = path.join(machineSeedStore(), seedKey(runtime.description, seedInterpreter(pytestSettings.python, true)));
    const seeded = (await fs.readdir(seeds, { recursive: true })).filter((f) => /_pytest\/reports\.cpython-\d+\.pyc$/.test(f));
    assert.equal(seeded.length, 1, `one seed holds pytest's reports module: ${JSON.stringify(seeded)}`);
    const names = spawnSync(
      PYTHON,
      ['-c', 'import marshal, sys; print(sorted(marshal.loads(open(sys.argv[1], "rb").read()[16:]).co_names))', path.join(seeds, seeded[0])],
      { encoding: 'utf8' },
    );
    assert.equal(names.status, 0, names.stderr);
    assert.match(names.stdout, /'TestReport'/);
    assert.doesNotMatch(names.stdout, /_forced/);

    // The attack is real: two pytest runs that share a bytecode prefix, the planting code first and
    // the honest code next, score the honest code better than it is.
    const planted = world.scratch('planted-code');
    const honest = world.scratch('honest-code');
    await fs.cp(taskFolder(task.taskDir).codeDir, honest, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
    await fs.cp(honest, planted, { recursive: true });
    const init = (await fs.readdir(planted, { recursive: true })).find((f) => f.endsWith('tinyinventory/__init__.py'))!;
    await fs.appendFile(path.join(planted, init), `\n# planted\n${plant}\n`);
    const failures = (code: string, prefix: string) => {
      const r = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
        cwd: code,
        encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: 'src:.', PYTHONPYCACHEPREFIX: prefix, PYTHONDONTWRITEBYTECODE: '' },
      });
      return Number(/(\d+) failed/.exec(r.stdout)?.[1] ?? 0);
    };
    const shared = world.scratch('shared-prefix');
    const fresh = failures(honest, world.scratch('fresh-prefix'));
    assert.ok(fresh > 0, 'the honest code fails some tests');
    failures(planted, shared);
    assert.equal(failures(honest, shared), 0, `with the planted bytecode every failure passes (${fresh} fail honestly)`);
  });

  test("neither an agent nor the code under test can poison the machine's bytecode seed: the next iteration and another task score honestly", async (t) => {
    if (!SANDBOX) return missingSandbox(t, 'bubblewrap cannot run here: the seed is only out of reach of confined runs');
    const task = await world.task();
    const store = machineSeedStore();
    const key = seedKey(runtime.description, seedInterpreter(pytestSettings.python, true));
    // A forged _pytest/reports.pyc (every failure a pass), stamped with the real source's size and
    // mtime, written to every place the seed could be known by: the prefix Python shows it
    // (PYTHONPYCACHEPREFIX, where the seed's folders are), the store under the real home (its path
    // is in the code, as an attacker who read SWE-CI's source would put it), the home and cache it
    // sees, and any seed folder it can list there. Each attempt is said on stderr once the process
    // ends (pytest shows nothing a module prints while it collects).
    const poison = (who: string) =>
      [
        'import _pytest.reports as _r, importlib._bootstrap_external as _e, importlib.util as _u, os as _o, glob as _g, atexit as _a',
        '_said = []',
        '_a.register(lambda: _o.write(2, "".join(_said).encode()))',
        '_src = _r.__file__',
        `_code = compile(open(_src).read() + ${JSON.stringify(['', '_made = TestReport.from_item_and_call.__func__', 'def _forced(cls, item, call):', '    report = _made(cls, item, call)', '    if report.failed:', '        report.outcome = "passed"', '        report.longrepr = None', '    return report', 'TestReport.from_item_and_call = classmethod(_forced)', ''].join('\n'))}, _src, "exec")`,
        '_st = _o.stat(_src)',
        '_data = _e._code_to_timestamp_pyc(_code, int(_st.st_mtime), _st.st_size)',
        '_mirror = _o.path.relpath(_u.cache_from_source(_src), _o.environ.get("PYTHONPYCACHEPREFIX", "/")) if _o.environ.get("PYTHONPYCACHEPREFIX") else _o.path.join(_o.path.dirname(_src).lstrip("/"), _o.path.basename(_u.cache_from_source(_src)))',
        `_stores = [${JSON.stringify(store)}, _o.path.expanduser("~/.cache/swe-ci/bytecode-seeds"), _o.path.join(_o.environ.get("XDG_CACHE_HOME", "/nonexistent"), "swe-ci", "bytecode-seeds")]`,
        `_targets = [_u.cache_from_source(_src)] + [_o.path.join(s, ${JSON.stringify(key)}, _mirror) for s in _stores]`,
        '_targets += [p for s in _stores for p in _g.glob(_o.path.join(s, "**", "_pytest", "reports.cpython-*.pyc"), recursive=True)]',
        'for _t in dict.fromkeys(_targets):',
        '    try:',
        '        _o.makedirs(_o.path.dirname(_t), exist_ok=True)',
        '        try: _o.chmod(_t, 0o666)',
        '        except OSError: pass',
        '        open(_t, "wb").write(_data)',
        `        _said.append("seed-poison ${who} wrote %s\\n" % _t)`,
        '    except OSError as _x:',
        `        _said.append("seed-poison ${who} refused %s %s\\n" % (_t, _x.errno))`,
      ].join('\n');
    // The Programmer tries it itself, then plants the same code in the package (iteration 1) and
    // takes it out again (iteration 2).
    const agent = path.join(scripts, 'poison-seed.py');
    await fs.writeFile(
      agent,
      [
        'import glob',
        'exec(' + JSON.stringify(poison('agent')) + ')',
        "init = glob.glob('code/**/tinyinventory/__init__.py', recursive=True)[0]",
        'text = open(init).read()',
        "mark = '\\n# poison\\n'",
        'if mark in text:',
        "    open(init, 'w').write(text.split(mark)[0])",
        'else:',
        "    open(init, 'a').write(mark + " + JSON.stringify(poison('code')) + " + '\\n')",
      ].join('\n') + '\n',
    );
    const digests = async (): Promise<Record<string, string>> => {
      const seed = path.join(store, key);
      const out: Record<string, string> = {};
      for (const rel of await fs.readdir(seed, { recursive: true })) {
        const st = await fs.lstat(path.join(seed, rel));
        if (!st.isDirectory())
          out[rel] = `${st.mode.toString(8)} ${createHash('sha256')
            .update(await fs.readFile(path.join(seed, rel)))
            .digest('hex')}`;
      }
      return out;
    };

    const roles = { architect: scripted('architect.py'), programmer: pythonScript(agent) };
    await prepareBytecodeSeed(runtime, {
      python: pytestSettings.python,
      bytecodeSeedDir: store,
      confine: pytestConfinement(taskFolder(task.taskDir), task.record, 'none'),
    });
    const seedBefore = await digests();
    assert.ok(
      Object.keys(seedBefore).some((f) => /_pytest\/reports\.cpython-\d+\.pyc$/.test(f)),
      "the seed holds pytest's reports module",
    );
    await startRun(loopOptions(task, 'poison', roles, { iterations: 2, pytest: { ...pytestSettings, format: 'builtin' } }));
    const [zero, one, two] = await readIterationRecords(taskFolder(task.taskDir).run('poison').iterationsFile);

    assert.equal(one.gap, zero.gap, 'poisoning changes nothing in its own run');
    assert.equal(two.gap, zero.gap, "the honest code's real score: no poisoned bytecode was loaded");
    assert.deepEqual(await digests(), seedBefore, 'the seed is as it was built, byte for byte');

    // The attack ran, everywhere, and nowhere was it let write.
    const iter = (n: number) => taskFolder(task.taskDir).run('poison').iterationDir(n);
    const agentLog = await fs.readFile(path.join(iter(1), 'programmer-try-1.log'), 'utf8');
    const pytestLog = await fs.readFile(path.join(iter(1), 'pytest-output.txt'), 'utf8');
    // What each said of the real store: refused. (A private home of its own, or its own /tmp, it may write.)
    const attempts = (log: string, who: string) =>
      log
        .split('\n')
        .filter((l) => l.startsWith(`seed-poison ${who} `))
        .map((l) => l.split(' '))
        .map(([, , verdict, where]) => ({ verdict, where }));
    const real = path.join(store, key);
    for (const [who, log] of [
      ['agent', agentLog],
      ['code', pytestLog],
    ] as const) {
      const seen = attempts(log, who);
      assert.ok(
        seen.some((a) => a.verdict === 'refused' && a.where.startsWith(`${real}/`)),
        `the ${who} tried the real store: ${log}`,
      );
      assert.deepEqual(
        seen.filter((a) => a.verdict === 'wrote' && a.where.startsWith(`${store}/`)),
        [],
        `the ${who} wrote nothing in the store: ${log}`,
      );
    }
    // The run's own prefix shows the seed's folders, read-only: refused there too (30: EROFS).
    assert.ok(
      attempts(pytestLog, 'code').some((a) => a.verdict === 'refused' && a.where.includes('/pycache/')),
      pytestLog,
    );
    assert.match(await fs.readFile(path.join(iter(1), 'code.diff'), 'utf8'), /# poison/, 'the poison is in the scored code');
    assert.doesNotMatch(await fs.readFile(path.join(iter(2), 'code.diff'), 'utf8'), /^\+.*_forced/m, 'and out of it again');

    // Another task on the same machine, after: its honest base scores as it did.
    const other = await world.task('poison-other');
    const refreshed = await runCurrentTests({ ...pytestSettings, format: 'builtin', task: taskFolder(other.taskDir), record: other.record, runtime });
    assert.equal(refreshed.gap, zero.gap, "another task's base keeps its gap");
  });

  test('a secret in the command line or the model is never written to run.json', async () => {
    const task = await world.task();
    const secret = 'sk-test-0123456789abcdef';
    const programmer = pythonScript(path.join(scripts, 'forcepass-conftest.py'));
    const settings = {
      ...programmer.settings,
      command: `${(programmer.settings as { command: string }).command} --api-key ${secret}`,
      model: `acme/${secret}`,
    };
    const info = await createRun(
      loopOptions(task, 'secret', { architect: scripted('architect.py'), programmer: { ...programmer, settings, secretEnv: { ACME_API_KEY: secret } } }),
    );
    const text = await fs.readFile(taskFolder(task.taskDir).run('secret').runFile, 'utf8');
    assert.ok(!text.includes(secret), text);
    assert.match(info.roles.programmer.command ?? '', /--api-key \*\*\*$/);
    assert.equal(info.roles.programmer.model, 'acme/***');
  });

  test('a secret an agent echoes into its outputs is archived as ***: requirement, code diff, pytest output, report, logs', async () => {
    const task = await world.task();
    const secret = 'sk-live-abcdef0123456789';
    // A stored key reaches an agent only when its role names it and it calls its model itself (the open network, no endpoint).
    const withKey = (setup: ReturnType<typeof pythonScript>) => {
      const settings = { ...setup.settings, apiKeys: ['ACME_API_KEY'] } as typeof setup.settings;
      return {
        settings,
        driver: createDriver(settings, { host: runtime, model: { ...DEFAULT_MODEL_ACCESS, network: 'open' } }),
        secretEnv: { ACME_API_KEY: secret },
      };
    };
    const roles = {
      architect: withKey(pythonScript(path.join(scripts, 'leak-architect.py'))),
      programmer: withKey(pythonScript(path.join(scripts, 'leak-programmer.py'))),
    };
    await startRun(loopOptions(task, 'leak', roles, { iterations: 1, pytest: { ...pytestSettings, format: 'builtin' } }));
    const archive = taskFolder(task.taskDir).run('leak').iterationDir(1);
    const names = await fs.readdir(archive);
    for (const name of ['requirement.xml', 'code.diff', 'pytest-output.txt', 'report.json', 'summary.jsonl']) assert.ok(names.includes(name), name);
    for (const name of names) {
      const text = await fs.readFile(path.join(archive, name), 'utf8');
      assert.ok(!text.includes(secret), `${name} holds the secret`);
    }
    assert.match(await fs.readFile(path.join(archive, 'code.diff'), 'utf8'), /\+\*\*\*/);
    assert.match(await fs.readFile(path.join(archive, 'pytest-output.txt'), 'utf8'), /leaked \*\*\*/);
    assert.ok(!(await fs.readFile(taskFolder(task.taskDir).run('leak').iterationsFile, 'utf8')).includes(secret));
  });

  test("a file over the size limit, or past the iteration's total, is flagged and left out of the commit and code.diff; a diff past its cap is cut with a note", async () => {
    const task = await world.task();
    const changelog = await fs.readFile(path.join(taskFolder(task.taskDir).codeDir, 'CHANGELOG.md'), 'utf8');
    const roles = { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'big-file.py')) };
    await startRun(loopOptions(task, 'big', roles, { iterations: 1, maxFileMb: 1 }));
    const [zero, one] = await readIterationRecords(taskFolder(task.taskDir).run('big').iterationsFile);
    assert.deepEqual(one.oversized, ['CHANGELOG.md', 'big.bin']);
    assert.match(await historyGit(task.taskDir, 'show', `${one.commit}:README.md`), /an ordinary change\n$/);
    assert.equal((await historyGit(task.taskDir, 'ls-tree', '--name-only', one.commit)).split('\n').includes('big.bin'), false, 'not committed');
    const diff = await fs.readFile(path.join(taskFolder(task.taskDir).run('big').iterationDir(1), 'code.diff'), 'utf8');
    assert.match(diff, /\+an ordinary change/);
    assert.doesNotMatch(diff, /big\.bin/);
    // Not left behind either: a 2 GiB file would otherwise stay in app/ after the run.
    assert.equal(await exists(path.join(taskFolder(task.taskDir).codeDir, 'big.bin')), false, 'the oversized file is removed from app/code');
    assert.equal(
      await fs.readFile(path.join(taskFolder(task.taskDir).codeDir, 'CHANGELOG.md'), 'utf8'),
      changelog,
      'a tracked file gets its committed version back',
    );
    assert.match(await fs.readFile(path.join(taskFolder(task.taskDir).codeDir, 'README.md'), 'utf8'), /an ordinary change\n$/, 'what was committed stays');
    // pytest scored the commit, written beside it: neither oversized file as the agent left it.
    const scoring = taskFolder(task.taskDir).scoringCodeDir;
    assert.equal(await exists(path.join(scoring, 'big.bin')), false, 'the oversized file is not in the scoring checkout');
    assert.equal(await fs.readFile(path.join(scoring, 'CHANGELOG.md'), 'utf8'), changelog, 'the scoring checkout has the committed version');
    assert.match(await fs.readFile(path.join(scoring, 'README.md'), 'utf8'), /an ordinary change\n$/, 'and the committed change');

    // Per-file limits alone let any number of files just under them in: the iteration's total is bounded too.
    const many = await world.task();
    const bulk = { architect: scripted('architect.py'), programmer: pythonScript(path.join(scripts, 'many-big-files.py')) };
    await startRun(loopOptions(many, 'bulk', bulk, { iterations: 1, maxFileMb: 1, maxIterationMb: 3 }));
    const [, bulkOne] = await readIterationRecords(taskFolder(many.taskDir).run('bulk').iterationsFile);
    const committed = (await historyGit(many.taskDir, 'ls-tree', '--name-only', bulkOne.commit)).split('\n').filter((n) => n.startsWith('blob'));
    assert.equal(committed.length, 3, `3 of 8 files of 900 KiB fit in 3 MiB: ${committed.join(', ')}`);
    assert.equal(bulkOne.oversized?.length, 5);
    assert.deepEqual(
      [...committed, ...(bulkOne.oversized ?? [])].sort(),
      [...Array(8).keys()].map((i) => `blob${i}.bin`),
    );
    assert.match(await historyGit(many.taskDir, 'show', `${bulkOne.commit}:README.md`), /an ordinary change\n$/, 'the small change goes in first');

    const repo = await CodeRepo.open(taskFolder(task.taskDir));
    const cut = world.scratch('cut.diff');
    await repo.diffToFile(zero.commit, one.commit, cut, 40);
    const text = await fs.readFile(cut, 'utf8');
    assert.match(text, /\n# code\.diff cut at 40 of \d+ bytes; the whole diff: git --git-dir=\.sweci\/history\.git diff [0-9a-f]{12} [0-9a-f]{12}\n$/);
    assert.ok(text.length < 300);
  });
});
