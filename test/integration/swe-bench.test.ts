// In the real extension host: a SWE-bench-style instance (a generated repository, a real test
// patch, real FAIL_TO_PASS / PASS_TO_PASS lists) checked out through the command opens in the
// same views: the Non-Passed view lists its FAIL_TO_PASS tests, the Task view says what it is.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, until } from './helpers';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A clone with one commit, and an instance whose test patch adds a failing and a passing test. */
function makeInstance(): { repo: string; file: string } {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-swebench-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  };
  git(repo, 'init', '--quiet', '-b', 'main');
  write('src/calc/__init__.py', '');
  write('src/calc/ops.py', 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  write('tests/test_ops.py', 'from calc.ops import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n');
  git(repo, 'add', '-A');
  const patch = git(repo, 'diff', '--cached', base) + '\n';
  git(repo, 'reset', '--quiet', '--hard', base);
  const file = path.join(path.dirname(repo), `${path.basename(repo)}.jsonl`);
  const instance = {
    instance_id: 'acme__calc-7',
    repo: 'acme/calc',
    base_commit: base,
    test_patch: patch,
    FAIL_TO_PASS: JSON.stringify(['tests/test_ops.py::test_mul']),
    PASS_TO_PASS: JSON.stringify(['tests/test_ops.py::test_add']),
  };
  fs.writeFileSync(file, JSON.stringify(instance) + '\n');
  return { repo, file };
}

suite('A SWE-bench-style instance', function () {
  this.timeout(300_000);
  let taskDir: string;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await sweci.releaseEnvironment();
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  suiteTeardown(() => {
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  test('Check Out Task with an instance: the Non-Passed view lists its FAIL_TO_PASS tests; the Task view names the instance', async () => {
    const sweci = await api();
    const { repo, file } = makeInstance();
    const result = await sweci.checkOutTask({ source: 'swe-bench', instancesFile: file, repoPath: repo, targetDir: taskDir });
    assert.equal(result?.current?.run.kind, 'ran', result?.current?.run.reason);
    assert.equal(result.current.gap, 1);
    const rows = await until('the Non-Passed view', () => (sweci.nonPassedRows().length > 0 ? sweci.nonPassedRows() : undefined));
    assert.deepEqual(
      rows.map((r) => r.nodeid),
      ['tests/test_ops.py::test_mul'],
    );
    const source = sweci.taskInfoRows().find((r) => r.tooltip.includes('SWE-bench instance acme__calc-7'));
    assert.ok(source, JSON.stringify(sweci.taskInfoRows()));
  });

  test('a bad instance file says what is wrong and writes nothing', async () => {
    const sweci = await api();
    const { repo, file } = makeInstance();
    fs.writeFileSync(file, JSON.stringify({ instance_id: 'acme__calc-8', repo: 'acme/calc' }) + '\n');
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-swebench-target-'));
    await assert.rejects(
      sweci.checkOutTask({ source: 'swe-bench', instancesFile: file, repoPath: repo, targetDir: target, open: false }),
      /acme__calc-8\): FAIL_TO_PASS is missing/,
    );
    assert.deepEqual(fs.readdirSync(target), []);
  });
});
