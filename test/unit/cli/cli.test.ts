// The headless CLI as a user runs it: a real process, real git, real pytest. In the task image
// (Docker): cli-docker.test.ts.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TestRepo } from '../task/git-fixture';
import { cli, libRepo, sweciWithCache } from './cli-fixture';

let tmp: string;
let repo: TestRepo;

const sweci = (...args: string[]) => sweciWithCache(tmp, ...args);

describe('sweci CLI', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-cli-')));
    repo = await libRepo(path.join(tmp, 'lib'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('checkout, status and test on a local git pair', async () => {
    const into = path.join(tmp, 'task');
    // The default report format: pytest-json-report if installed, else our own plugin.
    const co = sweci('checkout', '--repo', repo.dir, '--base', 'HEAD~1', '--target', 'HEAD', '--into', into);
    assert.equal(co.code, 0, co.err);
    assert.match(co.out, /pytest ran: gap 1/);
    const st = sweci('status', into);
    assert.equal(st.code, 0, st.err);
    assert.match(st.out, /0 \/ 1 passed · gap 1/);
    assert.match(st.out, /failed\s+tests\/test_core\.py::test_add/);
    const t = sweci('test', into, '--format', 'builtin');
    assert.equal(t.code, 0, t.err);
    assert.match(t.out, /gap 1/);
    const last = JSON.parse(await fs.readFile(path.join(into, '.sweci', 'reports', 'current.run.json'), 'utf8')) as { command: string; reportFormat: string };
    assert.equal(last.reportFormat, 'builtin');
    // The report comes back on the plugin's private stream: no report path on pytest's command line.
    assert.match(last.command, / -p sweci_pytest_report --sweci-stream$/);
    assert.doesNotMatch(last.command, /report\.json/);
    // The oracle went to the cache, not the task folder, in a folder named by the task's id.
    const id = /checked out (\S+) into/.exec(co.out)?.[1];
    assert.ok(id, co.out);
    assert.ok(spawnSync('ls', [path.join(tmp, 'cache', 'swe-ci', 'oracles', id)]).status === 0);
  });

  test('checkout --instances: a SWE-bench-style instance from a folder of clones; a second instance in the file needs --task', async () => {
    const { execFileSync } = await import('node:child_process');
    const baseSha = execFileSync('git', ['-C', repo.dir, 'rev-parse', 'HEAD~1'], { encoding: 'utf8' }).trim();
    const testPatch = [
      'diff --git a/tests/test_more.py b/tests/test_more.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/tests/test_more.py',
      '@@ -0,0 +1,7 @@',
      '+from lib.core import add',
      '+',
      '+def test_zero():',
      '+    assert add(0, 0) == 0',
      '+',
      '+def test_three():',
      '+    assert add(1, 2) == 3',
      '',
    ].join('\n');
    const instance = (id: string) => ({
      instance_id: id,
      repo: 'acme/lib',
      base_commit: baseSha,
      test_patch: testPatch,
      FAIL_TO_PASS: ['tests/test_more.py::test_three'],
      PASS_TO_PASS: ['tests/test_more.py::test_zero'],
    });
    const file = path.join(tmp, 'instances.json');
    await fs.writeFile(file, JSON.stringify([instance('acme__lib-1'), instance('acme__lib-2')]));
    const into = path.join(tmp, 'instance-task');
    const unnamed = sweci('checkout', '--instances', file, '--repos', tmp, '--into', into, '--runtime', 'local');
    assert.equal(unnamed.code, 1, unnamed.out + unnamed.err);
    assert.match(unnamed.err, /holds 2 instances; name one \(acme__lib-1, acme__lib-2\)/);
    await assert.rejects(fs.access(into), 'nothing was written');
    const co = sweci('checkout', '--instances', file, '--task', 'acme__lib-2', '--repos', tmp, '--into', into, '--runtime', 'local', '--format', 'junit');
    assert.equal(co.code, 0, co.err);
    assert.match(co.out, /checked out acme__lib-2 into/);
    assert.match(co.out, /pytest ran: gap 1/);
    const st = sweci('status', into);
    assert.match(st.out, /1 \/ 2 passed · gap 1/);
    assert.match(st.out, /SWE-bench: not resolved · FAIL_TO_PASS 0\/1 · PASS_TO_PASS 1\/1/);
  });

  test('SIGTERM or SIGHUP to `sweci test` stops pytest and everything the tests started', async () => {
    const into = path.join(tmp, 'task-signal');
    const co = sweci('checkout', '--repo', repo.dir, '--base', 'HEAD~1', '--target', 'HEAD', '--into', into);
    assert.equal(co.code, 0, co.err);
    const beat = path.join(into, 'app', 'code', 'beat.log');
    // A conftest that starts a detached daemon and then hangs the session: both write a heartbeat.
    await fs.writeFile(
      path.join(into, 'app', 'code', 'conftest.py'),
      [
        'import os, time',
        'def pytest_sessionstart(session):',
        '    if os.fork() == 0:',
        '        os.setsid()',
        '        while True:',
        `            open(${JSON.stringify(beat)}, 'a').write('daemon\\n'); time.sleep(0.05)`,
        '    while True:',
        `        open(${JSON.stringify(beat)}, 'a').write('pytest\\n'); time.sleep(0.05)`,
      ].join('\n') + '\n',
    );
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      await fs.rm(beat, { force: true });
      const child = spawn(process.execPath, [cli, 'test', into], { stdio: 'ignore', env: { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache') } });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      // A cap on a wait for a state (pytest's first beat), generous for a loaded machine. Past it,
      // sweci is killed outright: left running (its pytest hangs for ever) it kept the file from ending.
      const deadline = Date.now() + 120_000;
      while (!(await fs.readFile(beat, 'utf8').catch(() => '')).includes('daemon')) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          assert.fail('pytest never started');
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill(signal);
      await exited;
      await new Promise((r) => setTimeout(r, 500));
      const size = (await fs.stat(beat)).size;
      await new Promise((r) => setTimeout(r, 500));
      assert.equal((await fs.stat(beat)).size, size, `after ${signal}, nothing writes any more`);
    }
  });

  test('when pytest does not run, test and status say why (the first error line) and where its output is', async () => {
    const into = path.join(tmp, 'task-broken');
    assert.equal(
      sweci('checkout', '--repo', repo.dir, '--base', 'HEAD~1', '--target', 'HEAD', '--into', into, '--format', 'junit', '--runtime', 'local').code,
      0,
    );
    // A conftest outside tests/ (not restored from the target) that cannot import.
    await fs.writeFile(path.join(into, 'app', 'code', 'conftest.py'), 'import sweci_missing_dependency\n');
    const t = sweci('test', into, '--format', 'junit');
    assert.equal(t.code, 1);
    assert.match(t.out, /pytest did not run: pytest exited with code \d .*: ModuleNotFoundError: No module named 'sweci_missing_dependency'/);
    const output = path.join(into, '.sweci', 'reports', 'current.pytest-output.txt');
    assert.ok(t.out.includes(`pytest's output: ${output}`), t.out);
    assert.match(await fs.readFile(output, 'utf8'), /ImportError while loading conftest/);
    const st = sweci('status', into);
    assert.equal(st.code, 0, st.err);
    assert.match(st.out, /^last run \(.*\): pytest did not run: .*sweci_missing_dependency/m);
    assert.match(st.out, /the report below is from the last run where pytest ran:\n.*gap 1/);
  });

  test('the default oracle folder is keyed by the task id; a clash names --oracle', async () => {
    const other = await TestRepo.create(path.join(tmp, 'other-lib'));
    await other.commit('base', { 'src/o/__init__.py': '', 'tests/test_o.py': 'def test_o():\n    assert False\n' });
    await other.commit('target', { 'tests/test_o.py': 'def test_o():\n    assert True\n' });
    // Two tasks in folders of the same name: each gets its own oracle.
    const a = sweci(
      'checkout',
      '--repo',
      repo.dir,
      '--base',
      'HEAD~1',
      '--target',
      'HEAD',
      '--into',
      path.join(tmp, 'a', 'work'),
      '--format',
      'junit',
      '--runtime',
      'local',
    );
    const b = sweci(
      'checkout',
      '--repo',
      other.dir,
      '--base',
      'HEAD~1',
      '--target',
      'HEAD',
      '--into',
      path.join(tmp, 'b', 'work'),
      '--format',
      'junit',
      '--runtime',
      'local',
    );
    assert.equal(a.code, 0, a.err);
    assert.equal(b.code, 0, b.err);
    const oracles = await fs.readdir(path.join(tmp, 'cache', 'swe-ci', 'oracles'));
    assert.ok(oracles.some((n) => n.startsWith('lib-')) && oracles.some((n) => n.startsWith('other-lib-')), oracles.join(', '));
    const lib = oracles.find((n) => n.startsWith('lib-'))!;
    const clash = sweci(
      'checkout',
      '--repo',
      other.dir,
      '--base',
      'HEAD~1',
      '--target',
      'HEAD',
      '--into',
      path.join(tmp, 'c'),
      '--runtime',
      'local',
      '--oracle',
      path.join(tmp, 'cache', 'swe-ci', 'oracles', lib),
    );
    assert.equal(clash.code, 1);
    assert.match(clash.err, /holds the oracle of another task .* Give it with --oracle <dir>\./);
  });

  test('bad input: a clear message and exit code 1, nothing written', async () => {
    const into = path.join(tmp, 'never');
    const r = sweci('checkout', '--repo', repo.dir, '--base=--upload-pack=x', '--target', 'HEAD', '--into', into);
    assert.equal(r.code, 1);
    assert.match(r.err, /^error: .*starts with "-"/m);
    const ambiguous = sweci('checkout', '--repo', repo.dir, '--base', '--upload-pack=x', '--into', into);
    assert.equal(ambiguous.code, 2, 'a malformed command line is a usage error');
    assert.match(ambiguous.err, /^error: .*--base/m);
    assert.doesNotMatch(ambiguous.err, /TypeError|\n\s+at /, 'no stack trace');
    await assert.rejects(fs.access(into));
    const notTask = sweci('test', tmp);
    assert.equal(notTask.code, 1);
    assert.match(notTask.err, /is not a SWE-CI task folder/);
    const format = sweci('test', tmp, '--format', 'xml');
    assert.equal(format.code, 1);
    assert.match(format.err, /^error: --format must be one of auto, json-report, builtin, junit, not "xml"\./m);
    const env = sweci('test', tmp, '--env', 'NOVALUE');
    assert.equal(env.code, 1);
    assert.match(env.err, /^error: --env takes NAME=VALUE, not "NOVALUE"\./m);
    const usage = sweci();
    assert.equal(usage.code, 2);
    assert.match(usage.out, /^Usage: sweci \[options\] \[command\]/m);
  });
});
