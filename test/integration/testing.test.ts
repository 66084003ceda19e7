// In the real extension host: Test Explorer shows a task's tests from its reports, with each
// failure's message at the line where it failed (a fixture's line for setup/teardown errors),
// and its Run profile runs one test without changing the task's recorded report.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type LockInfo } from '../../src/core/records/process-lock';
import type { TestItemRow } from '../../src/extension/testing/test-controller';
import { api, until } from './helpers';

// A two-commit repository: the target fixes div() and adds calc.VERSION, which two fixtures need.
const OPS_BASE = ['def add(a, b):', '    return a + b', '', '', 'def div(a, b):', '    raise NotImplementedError("div")', ''].join('\n');
const OPS_TARGET = OPS_BASE.replace('raise NotImplementedError("div")', 'return a / b');
const TEST_OPS = [
  'import pytest', //                                             1
  'from calc import add, div',
  '',
  '',
  'def test_add():', //                                           5
  '    assert add(2, 3) == 5',
  '',
  '',
  'def test_div():', //                                           9
  '    assert div(6, 3) == 2',
  '',
  '',
  'class TestMath:', //                                           13
  '    @pytest.mark.parametrize("a,b", [(1, 2), (3, 4)])',
  '    def test_add_pairs(self, a, b):', //                       15
  '        assert add(a, b) == a + b',
  '',
  '    def test_div_one(self):', //                               18
  '        assert div(5, 1) == 5',
  '',
].join('\n');
const TEST_FIXTURES = [
  'import pytest',
  'import calc',
  '',
  '',
  '@pytest.fixture',
  'def version():',
  '    return calc.VERSION', //                                    7: setup raises here
  '',
  '',
  '@pytest.fixture',
  'def checked():',
  '    yield 1',
  '    assert hasattr(calc, "VERSION"), "calc has no VERSION"', // 13: teardown raises here
  '',
  '',
  'def test_version(version):', //                                16
  '    assert version == "1.0"',
  '',
  '',
  'def test_checked(checked):', //                                20
  '    assert checked == 1',
  '',
].join('\n');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

function makeRepo(): { repo: string; base: string; target: string } {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-testing-repo-'));
  git(repo, 'init', '--quiet', '-b', 'main');
  write(repo, {
    'src/calc/__init__.py': 'from .ops import add, div\n',
    'src/calc/ops.py': OPS_BASE,
    'tests/test_ops.py': 'def test_placeholder():\n    pass\n',
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  fs.rmSync(path.join(repo, 'tests', 'test_ops.py'));
  write(repo, {
    'src/calc/__init__.py': 'from .ops import add, div\n\nVERSION = "1.0"\n',
    'src/calc/ops.py': OPS_TARGET,
    'tests/test_ops.py': TEST_OPS,
    'tests/test_fixtures.py': TEST_FIXTURES,
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'target');
  return { repo, base, target: git(repo, 'rev-parse', 'HEAD') };
}

function find(rows: readonly TestItemRow[], id: string): TestItemRow | undefined {
  for (const r of rows) {
    if (r.id === id) return r;
    const c = find(r.children, id);
    if (c) return c;
  }
  return undefined;
}

suite('Test Explorer', function () {
  this.timeout(300_000);
  let taskDir: string;
  let codeDir: string;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    // Earlier suites may have left their task here: start from an empty folder.
    await sweci.releaseEnvironment();
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
    const { repo, base, target } = makeRepo();
    const result = await sweci.checkOutTask({ source: 'git', repoPath: repo, baseRef: base, targetRef: target, targetDir: taskDir });
    assert.ok(result, 'the git pair was checked out');
    assert.equal(result.current?.run.kind, 'ran', 'pytest ran on the base');
    codeDir = taskFolder(taskDir).codeDir;
  });

  suiteTeardown(() => {
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  test("the items are the report's tests: files, a class, parametrized cases, at their definition lines", async () => {
    const sweci = await api();
    const rows = await until('Test Explorer items', () => (find(sweci.testItems(), 'tests/test_ops.py::test_div') ? sweci.testItems() : undefined));
    assert.deepEqual(rows.map((r) => r.id).sort(), ['tests/test_fixtures.py', 'tests/test_ops.py']);
    const file = find(rows, 'tests/test_ops.py')!;
    assert.equal(file.uri, path.join(codeDir, 'tests', 'test_ops.py'));
    assert.deepEqual(
      file.children.map((c) => c.id),
      ['tests/test_ops.py::test_add', 'tests/test_ops.py::test_div', 'tests/test_ops.py::TestMath'],
    );
    assert.equal(find(rows, 'tests/test_ops.py::test_div')?.line, 9);
    const cls = find(rows, 'tests/test_ops.py::TestMath')!;
    assert.equal(cls.line, 13, 'a class is found by scanning its file');
    const pairs = find(rows, 'tests/test_ops.py::TestMath::test_add_pairs')!;
    assert.equal(pairs.line, 15);
    assert.deepEqual(
      pairs.children.map((c) => [c.label, c.line]),
      [
        ['[1-2]', 15],
        ['[3-4]', 15],
      ],
    );
    assert.equal(find(rows, 'tests/test_fixtures.py::test_checked')?.line, 20);
  });

  test("the current run's results: states, and messages at the failing line (a fixture's for setup and teardown errors)", async () => {
    const sweci = await api();
    const results = await until('the results', () => (sweci.lastTestResults().length >= 7 ? sweci.lastTestResults() : undefined));
    const byId = new Map(results.map((r) => [r.id, r]));
    assert.deepEqual(Object.fromEntries([...byId].map(([id, r]) => [id, r.state])), {
      'tests/test_ops.py::test_add': 'passed',
      'tests/test_ops.py::test_div': 'failed',
      'tests/test_ops.py::TestMath::test_add_pairs[1-2]': 'passed',
      'tests/test_ops.py::TestMath::test_add_pairs[3-4]': 'passed',
      'tests/test_ops.py::TestMath::test_div_one': 'failed',
      'tests/test_fixtures.py::test_version': 'errored',
      'tests/test_fixtures.py::test_checked': 'errored',
    });
    // div() raises in the code under test: the message points there, not at the test.
    const div = byId.get('tests/test_ops.py::test_div')!;
    assert.deepEqual([div.file, div.line], ['src/calc/ops.py', 6]);
    assert.match(div.message ?? '', /NotImplementedError: div/);
    const setup = byId.get('tests/test_fixtures.py::test_version')!;
    assert.deepEqual([setup.file, setup.line], ['tests/test_fixtures.py', 7], 'the fixture line, not the test at 16');
    assert.match(setup.message ?? '', /^Error at setup:/);
    const teardown = byId.get('tests/test_fixtures.py::test_checked')!;
    assert.deepEqual([teardown.file, teardown.line], ['tests/test_fixtures.py', 13], 'the line after the yield, not the test at 20');
    assert.match(teardown.message ?? '', /^Error at teardown:[\s\S]*calc has no VERSION/);
  });

  test("Run on one test runs it alone in the task's environment and leaves the recorded report alone", async () => {
    const sweci = await api();
    const reportFile = taskFolder(taskDir).current.report;
    const recorded = fs.readFileSync(reportFile, 'utf8');
    const finishedAt = sweci.taskState()?.lastRun?.finishedAt;
    // The user fixes div() by hand; only the chosen test runs.
    const ops = path.join(codeDir, 'src', 'calc', 'ops.py');
    fs.writeFileSync(ops, OPS_TARGET);
    try {
      const results = await sweci.runTestItems(['tests/test_ops.py::test_div']);
      assert.deepEqual(
        results.map((r) => [r.id, r.state]),
        [['tests/test_ops.py::test_div', 'passed']],
      );
      assert.equal(fs.readFileSync(reportFile, 'utf8'), recorded, 'current.report.json is untouched');
      assert.equal(sweci.taskState()?.lastRun?.finishedAt, finishedAt, 'no current-code run was recorded');
      assert.ok(
        sweci.nonPassedRows().some((r) => r.nodeid === 'tests/test_ops.py::test_div'),
        'the gap still counts it',
      );

      // A group runs all of its tests: the class with its parametrized cases.
      const group = await sweci.runTestItems(['tests/test_ops.py::TestMath']);
      assert.deepEqual(group.map((r) => `${r.id} ${r.state}`).sort(), [
        'tests/test_ops.py::TestMath::test_add_pairs[1-2] passed',
        'tests/test_ops.py::TestMath::test_add_pairs[3-4] passed',
        'tests/test_ops.py::TestMath::test_div_one passed',
      ]);

      // A full run (Refresh) records the report and Test Explorer follows it.
      await sweci.refresh();
      assert.notEqual(sweci.taskState()?.lastRun?.finishedAt, finishedAt);
      const after = await until("the new run's results", () => {
        const r = sweci.lastTestResults();
        return r.length >= 7 ? r : undefined;
      });
      assert.equal(after.find((r) => r.id === 'tests/test_ops.py::test_div')?.state, 'passed');
      assert.equal(after.find((r) => r.id === 'tests/test_fixtures.py::test_version')?.state, 'errored');

      // Run All through the profile is that same full run: div() broken again is recorded.
      fs.writeFileSync(ops, OPS_BASE);
      const refreshedAt = sweci.taskState()?.lastRun?.finishedAt;
      const all = await sweci.runTestItems();
      assert.notEqual(sweci.taskState()?.lastRun?.finishedAt, refreshedAt, 'Run All recorded a current-code run');
      assert.equal(all.length, 7);
      assert.equal(all.find((r) => r.id === 'tests/test_ops.py::test_div')?.state, 'failed');
      const onDisk = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as { tests: { nodeid: string; outcome: string }[] };
      assert.equal(onDisk.tests.find((t) => t.nodeid === 'tests/test_ops.py::test_div')?.outcome, 'failed', 'Run All recorded its report');
      assert.ok(sweci.nonPassedRows().some((r) => r.nodeid === 'tests/test_ops.py::test_div'));
    } finally {
      fs.writeFileSync(ops, OPS_BASE);
    }
  });

  test('a Run while another process holds the task errors on the test and runs nothing', async () => {
    const sweci = await api();
    // A live process of another "window" holds the task's lock.
    const holder = spawn('sleep', ['300'], { stdio: 'ignore' });
    const lockFile = taskFolder(taskDir).lockFile;
    const info: LockInfo = { pid: holder.pid!, hostname: os.hostname(), started: new Date().toISOString(), purpose: 'the loop', token: 'it-holder' };
    fs.writeFileSync(lockFile, JSON.stringify(info));
    const finishedAt = sweci.taskState()?.lastRun?.finishedAt;
    try {
      const results = await sweci.runTestItems(['tests/test_ops.py::test_add']);
      assert.deepEqual(
        results.map((r) => [r.id, r.state]),
        [['tests/test_ops.py::test_add', 'errored']],
      );
      assert.match(results[0].message ?? '', /Another window or process is running the loop on this task/);
      assert.equal(sweci.taskState()?.lastRun?.finishedAt, finishedAt);
    } finally {
      holder.kill();
      fs.rmSync(lockFile, { force: true });
    }
  });

  test('when pytest cannot run, Run and Run All error on their tests with the reason and show no stale result', async () => {
    const sweci = await api();
    const init = path.join(codeDir, 'src', 'calc', '__init__.py');
    const good = fs.readFileSync(init, 'utf8');
    try {
      fs.writeFileSync(init, 'def broken(:\n');
      const one = await sweci.runTestItems(['tests/test_ops.py::test_add']);
      assert.deepEqual(
        one.map((r) => [r.id, r.state]),
        [['tests/test_ops.py::test_add', 'errored']],
      );
      assert.match(one[0].message ?? '', /pytest exited with code [2-5]/);
      const all = await sweci.runTestItems();
      assert.equal(sweci.taskState()?.lastRun?.kind, 'did-not-run');
      assert.equal(all.length, 7);
      assert.ok(
        all.every((r) => r.state === 'errored' && /pytest exited with code [2-5]/.test(r.message ?? '')),
        JSON.stringify(all),
      );
    } finally {
      fs.writeFileSync(init, good);
    }
    await sweci.refresh();
    assert.equal(sweci.taskState()?.lastRun?.kind, 'ran');
    const results = await until('the results after a good run', () =>
      sweci.lastTestResults().some((r) => r.state === 'passed') ? sweci.lastTestResults() : undefined,
    );
    assert.equal(results.find((r) => r.id === 'tests/test_ops.py::test_add')?.state, 'passed');
  });
});
