import { test, describe, before, after } from 'node:test';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { materializeTask, readTaskRecord, restoreTargetTests } from '../../../src/core/workspace/materialize';
import { oracleLayout, UPSTREAM_BASE_REF, UPSTREAM_TARGET_REF } from '../../../src/core/workspace/layout';
import { taskFromGitPair } from '../../../src/core/task/git-pair';
import type { TaskSpec } from '../../../src/core/task/task-spec';
import { UserError } from '../../../src/core/util/errors';
import { copyTree, listFiles } from '../../../src/core/util/copy-tree';
import { TestRepo, git } from '../task/git-fixture';
import { zipFolder } from '../task/zip-fixture';

let tmp: string;
let repo: TestRepo;
let base: string;
let target: string;
let spec: TaskSpec;
let n = 0;

const SECRET = 'TARGET_ONLY_SECRET_7f3a';

function fresh(name: string): string {
  return path.join(tmp, `${name}-${++n}`);
}

function gitOk(cwd: string, args: string[]): boolean {
  try {
    execFileSync('git', args, { cwd, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

describe('materializeTask', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-mat-')));
    repo = await TestRepo.create(path.join(tmp, 'upstream-lib'));
    base = await repo.commit('base', {
      'README.md': '# lib\n',
      '.gitignore': 'build/\n',
      '.github/workflows/ci.yml': 'on: push\n',
      'src/lib/__init__.py': 'from .core import add\n',
      'src/lib/core.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_core.py': 'from lib.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
      'tests/old_only.py': 'OLD = 1\n',
      'test/legacy.py': 'LEGACY = 1\n',
      'build/ignored-but-tracked.txt': 'tracked anyway\n',
      'src/.gitignore': '*.dat\n',
      'src/lib/table.dat': 'data\n',
      'scripts/run.sh': '#!/bin/sh\necho run\n',
    });
    execFileSync('chmod', ['+x', path.join(repo.dir, 'scripts/run.sh')]);
    git(repo.dir, ['add', '-A']);
    git(repo.dir, ['add', '-f', 'build/ignored-but-tracked.txt', 'src/lib/table.dat']);
    git(repo.dir, ['commit', '-q', '--amend', '--no-edit'], { GIT_AUTHOR_DATE: '2024-01-01T12:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T12:00:00Z' });
    base = git(repo.dir, ['rev-parse', 'HEAD']);
    await repo.commit('middle', { 'src/lib/core.py': 'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n' });
    target = await repo.commit('target', {
      'src/lib/core.py': `def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n\n# ${SECRET}\n`,
      'src/lib/extra.py': `X = "${SECRET}"\n`,
      'tests/test_core.py': 'from lib.core import add, sub\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_sub():\n    assert sub(3, 2) == 1\n',
      'tests/old_only.py': null,
      'tests/data/sample.txt': 'sample\n',
      'test/legacy.py': 'LEGACY = 2\n',
    });
    spec = await taskFromGitPair(repo.dir, base, target);
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('git pair: fresh repo at the base with the target tests, oracle outside', async () => {
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    const messages: string[] = [];
    const record = await materializeTask(spec, { task: taskFolder(taskDir), oracleDir, onProgress: (m) => messages.push(m) });
    assert.ok(messages.length >= 4);
    assert.equal(record.schema, 1);
    assert.equal(record.task.baseSha, base);
    assert.equal(record.task.targetSha, target);
    assert.equal(record.oracleDir, oracleDir);
    const code = taskFolder(taskDir).codeDir;

    // Exactly one commit; no upstream object, no remote.
    const all = execFileSync('git', ['log', '--all', '--format=%H %an <%ae> %s'], { cwd: code, encoding: 'utf8' }).trim().split('\n');
    assert.equal(all.length, 1);
    assert.equal(all[0], `${record.baseCommit} SWE-CI <sweci@localhost> SWE-CI base ${base.slice(0, 12)}`);
    assert.equal(gitOk(code, ['cat-file', '-e', target]), false, 'target object must not exist in app/code');
    assert.equal(gitOk(code, ['cat-file', '-e', base]), false, 'base object must not exist in app/code');
    assert.equal(execFileSync('git', ['remote'], { cwd: code, encoding: 'utf8' }).trim(), '');
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: code, encoding: 'utf8' }), '', 'clean after commit');
    assert.equal(execFileSync('git', ['config', '--local', 'user.email'], { cwd: code, encoding: 'utf8' }).trim(), 'sweci@localhost');

    // Base code, pruned top level, target tests.
    assert.equal(await fs.readFile(path.join(code, 'src/lib/core.py'), 'utf8'), 'def add(a, b):\n    return a + b\n');
    for (const gone of ['.gitignore', '.github', 'test', 'src/lib/extra.py', 'tests/old_only.py']) {
      assert.equal(await exists(path.join(code, gone)), false, `${gone} must not be in app/code`);
    }
    assert.equal(await fs.readFile(path.join(code, 'build/ignored-but-tracked.txt'), 'utf8'), 'tracked anyway\n');
    // A nested .gitignore stays, and what it ignores but upstream tracked is still committed.
    const tracked = execFileSync('git', ['ls-files'], { cwd: code, encoding: 'utf8' }).split('\n');
    assert.ok(tracked.includes('src/lib/table.dat') && tracked.includes('src/.gitignore'));
    assert.ok(((await fs.stat(path.join(code, 'scripts/run.sh'))).mode & 0o111) !== 0, 'exec bit kept');
    const targetTests = git(repo.dir, ['ls-tree', '-r', '--name-only', target, 'tests']).split('\n').sort();
    assert.deepEqual(
      (await listFiles(path.join(code, 'tests'))).map((f) => `tests/${f}`),
      targetTests,
    );
    for (const f of targetTests) {
      assert.equal(
        await fs.readFile(path.join(code, f), 'utf8'),
        git(repo.dir, ['show', `${target}:${f}`]) + (f.endsWith('.txt') || f.endsWith('.py') ? '\n' : ''),
      );
    }

    // Nothing of the oracle under the task folder.
    for (const f of await listFiles(taskDir)) {
      const text = await fs.readFile(path.join(taskDir, f)).catch(() => Buffer.alloc(0));
      assert.ok(!text.includes(SECRET), `${f} leaks target-only code`);
    }
    assert.deepEqual((await fs.readdir(taskDir)).sort(), ['.sweci', 'app']);

    // The oracle: target code without .git*/test, tests kept; a bare upstream with pinned refs.
    const oracle = oracleLayout(oracleDir);
    assert.ok((await fs.readFile(path.join(oracle.targetCodeDir, 'src/lib/extra.py'), 'utf8')).includes(SECRET));
    assert.equal(await exists(path.join(oracle.targetCodeDir, 'test')), false);
    assert.equal(await exists(path.join(oracle.targetCodeDir, '.github')), false);
    assert.equal(await exists(path.join(oracle.targetTestsDir, 'data/sample.txt')), true);
    assert.equal(git(oracle.upstreamDir, ['rev-parse', UPSTREAM_BASE_REF]), base);
    assert.equal(git(oracle.upstreamDir, ['rev-parse', UPSTREAM_TARGET_REF]), target);
    assert.equal(git(oracle.upstreamDir, ['rev-parse', '--is-bare-repository']), 'true');

    assert.deepEqual(await readTaskRecord(taskFolder(taskDir)), record);
  });

  test('re-materialising the same task is idempotent; another task is refused', async () => {
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    const record = await materializeTask(spec, { task: taskFolder(taskDir), oracleDir });
    const taskFile = taskFolder(taskDir).taskFile;
    const before = (await fs.stat(taskFile)).mtimeMs;
    await fs.writeFile(path.join(taskFolder(taskDir).codeDir, 'work-in-progress.py'), 'x = 1\n');
    const again = await materializeTask(spec, { task: taskFolder(taskDir), oracleDir });
    assert.deepEqual(again, record);
    assert.equal((await fs.stat(taskFile)).mtimeMs, before);
    assert.equal(await fs.readFile(path.join(taskFolder(taskDir).codeDir, 'work-in-progress.py'), 'utf8'), 'x = 1\n');

    const other = await taskFromGitPair(repo.dir, base, git(repo.dir, ['rev-parse', 'HEAD~1']));
    await assert.rejects(materializeTask(other, { task: taskFolder(taskDir), oracleDir: fresh('oracle') }), /already holds another task/);
  });

  test('a second task folder reuses a complete oracle of the same task', async () => {
    const oracleDir = fresh('oracle');
    await materializeTask(spec, { task: taskFolder(fresh('task')), oracleDir });
    const messages: string[] = [];
    const record = await materializeTask(spec, { task: taskFolder(fresh('task')), oracleDir, onProgress: (m) => messages.push(m) });
    assert.ok(messages.includes('Reusing the existing oracle'));
    assert.equal(record.task.targetSha, target);
    const otherSpec = await taskFromGitPair(repo.dir, git(repo.dir, ['rev-parse', 'HEAD~1']), target);
    await assert.rejects(materializeTask(otherSpec, { task: taskFolder(fresh('task')), oracleDir }), /holds the oracle of another task/);
  });

  test('a non-empty folder that is not a task is refused and left alone', async () => {
    const taskDir = fresh('task');
    await fs.mkdir(taskDir);
    await fs.writeFile(path.join(taskDir, 'notes.txt'), 'mine');
    const oracleDir = fresh('oracle');
    await assert.rejects(materializeTask(spec, { task: taskFolder(taskDir), oracleDir }), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /is not empty and is not a SWE-CI task folder\. Choose an empty folder/);
      return true;
    });
    assert.deepEqual(await fs.readdir(taskDir), ['notes.txt']);
    assert.equal(await exists(oracleDir), false);
  });

  test('the oracle must be outside the task folder', async () => {
    const taskDir = fresh('task');
    await assert.rejects(materializeTask(spec, { task: taskFolder(taskDir), oracleDir: path.join(taskDir, '.oracle') }), /must be outside the task folder/);
    await assert.rejects(materializeTask(spec, { task: taskFolder(path.join(tmp, 'o', 'task')), oracleDir: path.join(tmp, 'o') }), /must be outside/);
    assert.equal(await exists(taskDir), false);
  });

  test('an unknown sha writes nothing in the task folder and leaves no oracle', async () => {
    const taskDir = fresh('task');
    await fs.mkdir(taskDir); // pre-existing empty folder stays, empty
    const oracleDir = fresh('oracle');
    const bad: TaskSpec = { ...spec, baseSha: 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef' };
    await assert.rejects(materializeTask(bad, { task: taskFolder(taskDir), oracleDir }), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /base "deadbeefdeadbeef[0-9a-f]*" is not a commit in/);
      return true;
    });
    assert.deepEqual(await fs.readdir(taskDir), []);
    assert.equal(await exists(oracleDir), false);
  });

  test('a target without tests/ fails cleanly and removes what it created', async () => {
    const r2 = await TestRepo.create(path.join(tmp, 'no-tests'));
    const b = await r2.commit('b', { 'src/a.py': 'A = 1\n' });
    const t = await r2.commit('t', { 'src/a.py': 'A = 2\n', 'test/x.py': 'x' });
    const s2 = await taskFromGitPair(r2.dir, b, t);
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    await fs.mkdir(oracleDir);
    await assert.rejects(materializeTask(s2, { task: taskFolder(taskDir), oracleDir }), /has no tests\/ folder at its top level/);
    assert.equal(await exists(taskDir), false);
    assert.deepEqual(await fs.readdir(oracleDir), [], 'pre-existing empty oracle folder emptied again');
  });

  test('a target whose tests/ is a symbolic link to a host folder is refused; nothing of that folder is copied', async () => {
    // A hostile repository: the target commit's tests/ points at a folder of this machine.
    const host = fresh('host-secrets');
    await fs.mkdir(host);
    await fs.writeFile(path.join(host, 'test_secret.py'), `KEY = "${SECRET}-host"\n`);
    const r2 = await TestRepo.create(path.join(tmp, 'linked-tests'));
    const b = await r2.commit('b', { 'src/a.py': 'A = 1\n', 'tests/test_a.py': 'def test_a():\n    pass\n' });
    await fs.rm(path.join(r2.dir, 'tests'), { recursive: true });
    await fs.symlink(host, path.join(r2.dir, 'tests'));
    const t = await r2.commit('t', { 'src/a.py': 'A = 2\n' });
    const s2 = await taskFromGitPair(r2.dir, b, t);
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    await assert.rejects(
      materializeTask(s2, { task: taskFolder(taskDir), oracleDir }),
      (err: unknown) =>
        err instanceof UserError && /the target commit [0-9a-f]{12} has tests as a symbolic link \(to .*host-secrets.*\), not a folder/.test(err.message),
    );
    assert.equal(await exists(taskDir), false, 'no task folder (so no commit of the host folder)');
    assert.equal(await exists(oracleDir), false);
  });

  test("a link inside the target's tests/ (tests/sub -> a host folder) is refused at checkout; the host folder never joins the oracle", async () => {
    const host = fresh('host-tests');
    await fs.mkdir(host);
    await fs.writeFile(path.join(host, 'test_host.py'), `KEY = "${SECRET}-inner"\n`);
    const r2 = await TestRepo.create(path.join(tmp, 'inner-link'));
    const b = await r2.commit('b', { 'src/a.py': 'A = 1\n', 'tests/test_a.py': 'def test_a():\n    pass\n' });
    await fs.symlink(host, path.join(r2.dir, 'tests', 'sub'));
    const t = await r2.commit('t', { 'src/a.py': 'A = 2\n' });
    const s2 = await taskFromGitPair(r2.dir, b, t);
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    await assert.rejects(
      materializeTask(s2, { task: taskFolder(taskDir), oracleDir }),
      (err: unknown) => err instanceof UserError && /has symbolic links in tests\/ \(tests\/sub\)/.test(err.message),
    );
    assert.equal(await exists(taskDir), false, 'no task folder');
    assert.equal(await exists(oracleDir), false, 'no oracle');
  });

  test('copyTree never follows a symbolic link, not even the folder it is asked to copy', async () => {
    const host = fresh('host-folder');
    await fs.mkdir(host);
    await fs.writeFile(path.join(host, 'secret.txt'), SECRET);
    const link = fresh('link');
    await fs.symlink(host, link);
    await assert.rejects(copyTree(link, fresh('dest')), /is a symbolic link; it is not copied/);
  });

  test('cancellation removes everything and throws AbortError', async () => {
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    const ac = new AbortController();
    await assert.rejects(
      materializeTask(spec, {
        task: taskFolder(taskDir),
        oracleDir,
        signal: ac.signal,
        onProgress: (m) => {
          if (m.startsWith('Checking out the base')) ac.abort();
        },
      }),
      { name: 'AbortError' },
    );
    assert.equal(await exists(taskDir), false);
    assert.equal(await exists(oracleDir), false);
  });

  test('dataset source: unzips code.zip (repo inside a top folder), short shas become full', async () => {
    const zipDir = fresh('dataset');
    const zipPath = path.join(zipDir, 'data', 'x', 'code.zip');
    await fs.mkdir(path.dirname(zipPath), { recursive: true });
    zipFolder(repo.dir, zipPath, 'upstream-lib/');
    const dspec: TaskSpec = {
      id: 'x',
      baseSha: base.slice(0, 7),
      targetSha: target.slice(0, 10),
      expectedGap: 1,
      source: { kind: 'dataset', datasetDir: zipDir, split: 'default', zipPath, row: { task_id: 'x' } },
    };
    const taskDir = fresh('task');
    const oracleDir = fresh('oracle');
    const record = await materializeTask(dspec, { task: taskFolder(taskDir), oracleDir });
    assert.equal(record.task.baseSha, base);
    assert.equal(record.task.targetSha, target);
    assert.equal(record.task.expectedGap, 1);
    assert.equal(await exists(path.join(oracleDir, '.unzip')), false, 'scratch unzip removed');
    const code = taskFolder(taskDir).codeDir;
    assert.equal(gitOk(code, ['cat-file', '-e', target]), false);
    assert.ok(await exists(path.join(code, 'tests/data/sample.txt')));
    // Same task again (short shas in the spec, full in the record): idempotent.
    assert.deepEqual(await materializeTask(dspec, { task: taskFolder(taskDir), oracleDir }), record);
  });

  test('a zip without a repository is refused', async () => {
    const zipPath = path.join(fresh('dataset'), 'code.zip');
    await fs.mkdir(path.dirname(zipPath), { recursive: true });
    const plain = fresh('plain');
    await fs.mkdir(plain);
    await fs.writeFile(path.join(plain, 'a.py'), 'A = 1\n');
    zipFolder(plain, zipPath);
    const dspec: TaskSpec = { ...spec, source: { kind: 'dataset', datasetDir: tmp, split: 'default', zipPath, row: {} } };
    const oracleDir = fresh('oracle');
    await assert.rejects(materializeTask(dspec, { task: taskFolder(fresh('task')), oracleDir }), /does not contain a git repository/);
    assert.equal(await exists(oracleDir), false);
  });

  test('restoreTargetTests puts the target tests back and lists what differed', async () => {
    const taskDir = fresh('task');
    const record = await materializeTask(spec, { task: taskFolder(taskDir), oracleDir: fresh('oracle') });
    const tests = path.join(taskFolder(taskDir).codeDir, 'tests');
    assert.deepEqual(await restoreTargetTests(record, taskFolder(taskDir)), []);
    const original = await fs.readFile(path.join(tests, 'test_core.py'), 'utf8');
    await fs.writeFile(path.join(tests, 'test_core.py'), 'def test_add():\n    assert True\n');
    await fs.writeFile(path.join(tests, 'test_added.py'), 'def test_x(): pass\n');
    await fs.rm(path.join(tests, 'data/sample.txt'));
    await fs.mkdir(path.join(tests, '__pycache__'), { recursive: true });
    await fs.writeFile(path.join(tests, '__pycache__', 'x.cpython-311.pyc'), 'junk');
    assert.deepEqual(await restoreTargetTests(record, taskFolder(taskDir)), ['tests/data/sample.txt', 'tests/test_added.py', 'tests/test_core.py']);
    assert.equal(await fs.readFile(path.join(tests, 'test_core.py'), 'utf8'), original);
    assert.equal(await exists(path.join(tests, 'test_added.py')), false);
    assert.deepEqual(await restoreTargetTests(record, taskFolder(taskDir)), []);
    // tests/ replaced by a file
    await fs.rm(tests, { recursive: true });
    await fs.writeFile(tests, 'not a folder');
    assert.ok((await restoreTargetTests(record, taskFolder(taskDir))).includes('tests'));
    assert.equal(await fs.readFile(path.join(tests, 'test_core.py'), 'utf8'), original);
  });

  test('readTaskRecord: none, corrupt JSON, wrong shape', async () => {
    const dir = fresh('records');
    assert.equal(await readTaskRecord(taskFolder(dir)), undefined);
    const file = taskFolder(dir).taskFile;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{ "schema": 1, ');
    await assert.rejects(
      readTaskRecord(taskFolder(dir)),
      (err: unknown) => err instanceof UserError && /task\.json is corrupt \(not valid JSON\)\. Check the task out again/.test(err.message),
    );
    await fs.writeFile(file, JSON.stringify({ schema: 1, oracleDir: '/o', createdAt: 'x', baseCommit: 'y', task: { id: 'a', baseSha: 'b' } }));
    await assert.rejects(readTaskRecord(taskFolder(dir)), /"task\.targetSha" is missing/);
    await fs.writeFile(file, JSON.stringify({ schema: 2 }));
    await assert.rejects(readTaskRecord(taskFolder(dir)), /unknown schema 2/);
  });
});
