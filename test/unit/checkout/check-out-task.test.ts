// checkOutTask end to end in plain node: real git, real pytest, real files.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkOutTask } from '../../../src/core/checkout/check-out-task';
import { loadReport } from '../../../src/core/checkout/report-store';
import { runCurrentTests } from '../../../src/core/checkout/run-current-tests';
import { loadTaskState } from '../../../src/core/checkout/task-state';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { taskFromGitPair } from '../../../src/core/task/git-pair';
import { UserError } from '../../../src/core/util/errors';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { TestRepo } from '../task/git-fixture';
import { writeZip } from '../task/zip-fixture';
import { inDiscardBin, listTree } from '../helpers/list-tree';
import { ObservedRuntime } from '../helpers/observed-runtime';
import { machineSeedStore, seedInterpreter, seedKey } from '../../../src/core/pytest/bytecode-seed';
import { isSameOrInside } from '../../../src/core/util/paths';

type CheckOutOptions = Parameters<typeof checkOutTask>[1];

let tmp: string;
let repo: TestRepo;
let base: string;
let target: string;
let n = 0;
let savedCache: string | undefined;
const fresh = (name: string) => path.join(tmp, `${name}-${++n}`);

const runtime = new LocalRuntime();
const options = (name: string, extra: Partial<CheckOutOptions> = {}): CheckOutOptions => ({
  python: 'python3',
  timeoutMs: 120_000,
  format: 'junit',
  task: taskFolder(fresh(name)),
  oracleDir: fresh(`${name}-oracle`),
  runtime,
  runTests: true,
  ...extra,
});

describe('checkOutTask', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-checkout-')));
    // This machine's caches (the bytecode seeds) start empty, in the test's own folder.
    savedCache = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = path.join(tmp, 'cache');
    repo = await TestRepo.create(path.join(tmp, 'lib'));
    base = await repo.commit('base', {
      'src/lib/__init__.py': '',
      'src/lib/core.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_core.py': 'from lib.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
    });
    target = await repo.commit('target', {
      'src/lib/core.py': 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n',
      'tests/test_core.py':
        'import pytest\nfrom lib.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\n' +
        'def test_mul():\n    from lib.core import mul\n    assert mul(2, 3) == 6\n\n' +
        'def test_kept():\n    assert True\n',
    });
  });
  after(async () => {
    if (savedCache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedCache;
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('materialises, runs the target and the base, and writes app/non-passed', async () => {
    const spec = await taskFromGitPair(repo.dir, base, target);
    const opts = options('ok');
    const progress: string[] = [];
    const result = await checkOutTask(spec, { ...opts, onProgress: (m) => progress.push(m) });
    assert.equal(result.current?.run.kind, 'ran');
    assert.equal(result.current?.gap, 2);
    const layout = taskFolder(opts.task.root);
    const lines = (await fs.readFile(layout.summaryFile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { test: string });
    assert.deepEqual(lines.map((l) => l.test).sort(), ['tests/test_core.py::test_add', 'tests/test_core.py::test_mul']);
    const oracleReport = await loadReport(oracleLayout(opts.oracleDir).targetReportFile);
    assert.equal(oracleReport?.summary.passed, 3, 'the oracle report lives in the oracle folder');
    assert.ok(progress.some((m) => /oracle/.test(m)) && progress.some((m) => /base/.test(m)), progress.join(' | '));

    const state = await loadTaskState(taskFolder(opts.task.root));
    assert.deepEqual(state?.counts, { passedNow: 1, passedByTarget: 3, gap: 2 });
    assert.deepEqual(state?.entries.map((e) => e.kind).sort(), ['failed', 'failed']);
  });

  test("the bytecode seed is built once per machine, ahead of the target's run; another task's checkout builds none", async () => {
    const spec = await taskFromGitPair(repo.dir, base, target);
    const seeding = (r: ObservedRuntime) => r.requests.filter((q) => isSameOrInside(machineSeedStore(), q.cwd));
    const pytestRuns = (r: ObservedRuntime) => r.requests.filter((q) => q.args.includes('pytest'));
    await fs.rm(machineSeedStore(), { recursive: true, force: true });
    const first = new ObservedRuntime(runtime);
    await checkOutTask(spec, { ...options('seed-a'), runtime: first });
    assert.equal(seeding(first).length, 1, 'one seed build');
    assert.equal(pytestRuns(first)[0], seeding(first)[0], "the seed is built before the target's run, which starts from it");
    assert.equal(pytestRuns(first).length, 3, 'the seed, the target, the base');
    await fs.access(path.join(machineSeedStore(), seedKey(runtime.description, seedInterpreter('python3', true)), '.complete'));

    const second = new ObservedRuntime(runtime);
    await checkOutTask(spec, { ...options('seed-b'), runtime: second });
    assert.deepEqual(seeding(second), [], "the machine's seed serves every task");
    assert.equal(pytestRuns(second).length, 2, 'the target and the base');
  });

  test("the target's tests run while the task folder is made; cancelled then, nothing of the checkout is left", async (t) => {
    const spec = await taskFromGitPair(repo.dir, base, target);
    const progress: string[] = [];
    await checkOutTask(spec, { ...options('overlap'), onProgress: (m) => progress.push(m) });
    const targetRun = progress.findIndex((m) => /on the target/.test(m));
    assert.ok(targetRun >= 0 && targetRun < progress.indexOf('Task folder ready'), progress.join(' | '));

    const hanging = await repo.commit('hanging target', { 'tests/conftest.py': 'import time\ntime.sleep(600)\n' });
    // The later tests commit on top of the repository's head: take the hanging conftest away
    // again (left, it made the next test's target sleep its 600 s before failing).
    t.after(() => repo.commit('not hanging', { 'tests/conftest.py': null }));
    const opts = options('overlap-cancel');
    const abort = new AbortController();
    const started = Date.now();
    await assert.rejects(
      checkOutTask(await taskFromGitPair(repo.dir, base, hanging), {
        ...opts,
        signal: abort.signal,
        // By then the target's pytest is under way (hanging in its conftest).
        onProgress: (m) => (/fresh repository/.test(m) ? abort.abort() : undefined),
      }),
      (err: unknown) => err instanceof Error && err.name === 'AbortError',
    );
    // Well under the conftest's 600 s, however slow the machine: stopped, not waited for.
    assert.ok(Date.now() - started < 300_000, "the target's pytest was stopped, not waited for");
    await assert.rejects(fs.access(opts.task.root), 'the task folder is gone');
    await assert.rejects(fs.access(opts.oracleDir), 'the oracle is gone, with no output of the stopped run');
  });

  test('without runTests (an untrusted window) it materialises and runs nothing', async () => {
    const spec = await taskFromGitPair(repo.dir, base, target);
    const opts = options('untrusted', { runTests: false });
    const result = await checkOutTask(spec, opts);
    assert.equal(result.current, undefined);
    const layout = taskFolder(opts.task.root);
    await assert.rejects(fs.access(layout.reportsDir), 'no report was written');
    await assert.rejects(fs.access(layout.summaryFile));
    await assert.rejects(fs.access(oracleLayout(opts.oracleDir).targetReportFile), 'the target was not run either');
    const state = await loadTaskState(taskFolder(opts.task.root));
    assert.equal(state?.counts, undefined);
  });

  test('a target whose tests cannot run refuses the task and keeps pytest output', async () => {
    const brokenTarget = await repo.commit('broken target', { 'tests/test_core.py': 'def test_x(:\n    pass\n' });
    const spec = await taskFromGitPair(repo.dir, base, brokenTarget);
    const opts = options('broken');
    await assert.rejects(checkOutTask(spec, opts), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /pytest did not run on the target: pytest exited with code 2/);
      assert.match(err.message, /sweci\.python/);
      return true;
    });
    const output = await fs.readFile(path.join(opts.oracleDir, 'target.pytest-output.txt'), 'utf8');
    assert.match(output, /SyntaxError|invalid syntax|ERROR/);
  });

  test('a base run that times out is recorded as "did not run", its output kept, the last report untouched', async () => {
    const spec = await taskFromGitPair(repo.dir, base, target);
    const opts = options('timeout');
    const first = await checkOutTask(spec, opts);
    const layout = taskFolder(opts.task.root);
    const reportBefore = await fs.readFile(layout.current.report, 'utf8');
    const summaryBefore = await fs.readFile(layout.summaryFile, 'utf8');
    assert.equal(first.current?.run.kind, 'ran');

    // The code now hangs at import; the next run must be killed by the timeout.
    await fs.writeFile(path.join(layout.codeDir, 'src/lib/core.py'), 'import time\ntime.sleep(60)\n');
    const again = await runCurrentTests({
      python: 'python3',
      timeoutMs: 1500,
      format: 'junit',
      task: taskFolder(opts.task.root),
      record: first.record,
      runtime,
    });
    assert.equal(again.run.kind, 'did-not-run');
    assert.match(again.run.reason ?? '', /did not finish within \d+ s/);
    assert.equal(again.report, undefined);
    assert.equal((JSON.parse(await fs.readFile(layout.current.run, 'utf8')) as { kind: string }).kind, 'did-not-run');
    assert.equal(await fs.readFile(layout.current.report, 'utf8'), reportBefore, 'the last good report is kept');
    assert.equal(await fs.readFile(layout.summaryFile, 'utf8'), summaryBefore, 'non-passed is not rewritten');
    await fs.access(layout.current.output);
    const state = await loadTaskState(taskFolder(opts.task.root));
    assert.equal(state?.lastRun?.kind, 'did-not-run');
    assert.equal(state?.counts?.gap, 2, 'the view keeps showing the last report');
  });

  test('cancelling a run kills pytest and records nothing: the previous run stays', async (t) => {
    const spec = await taskFromGitPair(repo.dir, base, target);
    const opts = options('cancel');
    const first = await checkOutTask(spec, opts);
    const layout = taskFolder(opts.task.root);
    const runBefore = await fs.readFile(layout.current.run, 'utf8');
    const outputBefore = await fs.readFile(layout.current.output, 'utf8');
    // The code hangs at import once it has said so in a file: the run is cancelled then.
    const marker = path.join(layout.codeDir, 'importing');
    await fs.writeFile(path.join(layout.codeDir, 'src/lib/core.py'), `import time\nopen(${JSON.stringify(marker)}, 'w').close()\ntime.sleep(600)\n`);
    const abort = new AbortController();
    const poll = setInterval(() => existsSync(marker) && abort.abort(), 50);
    t.after(() => clearInterval(poll));
    const started = Date.now();
    await assert.rejects(
      runCurrentTests({
        python: 'python3',
        timeoutMs: 60_000,
        format: 'junit',
        task: taskFolder(opts.task.root),
        record: first.record,
        runtime,
        signal: abort.signal,
      }),
      (err: unknown) => err instanceof Error && err.name === 'AbortError',
    );
    assert.ok(abort.signal.aborted, 'pytest ran when it was cancelled');
    // Well under the import's 600 s, however slow the machine: killed, not waited for.
    assert.ok(Date.now() - started < 300_000, 'the sleeping pytest was killed, not waited for');
    assert.equal(await fs.readFile(layout.current.run, 'utf8'), runBefore);
    assert.equal(await fs.readFile(layout.current.output, 'utf8'), outputBefore);
  });

  test('a dataset with a hostile code.zip is refused and nothing lands outside the task folder', async () => {
    const dataset = fresh('hostile-dataset');
    const zip = path.join(dataset, 'data', 'evil-1', 'code.zip');
    await fs.mkdir(path.dirname(zip), { recursive: true });
    await fs.mkdir(path.join(dataset, 'metadata'));
    await fs.writeFile(path.join(dataset, 'metadata', 'default.csv'), `task_id,current_sha,target_sha,test_gap\nevil-1,${base},${target},2\n`);
    const cases: { name: string; entries: Parameters<typeof writeZip>[1]; pattern: RegExp }[] = [
      {
        name: 'dotdot',
        entries: [
          { name: 'repo/.git/HEAD', data: 'x' },
          { name: '../../../escaped.txt', data: 'pwned' },
        ],
        pattern: /unsafe entry/,
      },
      { name: 'absolute', entries: [{ name: '/tmp/sweci-abs-escape.txt', data: 'pwned' }], pattern: /absolute path/ },
      {
        name: 'symlink',
        entries: [
          { name: 'repo/link', symlink: '../../../../..' },
          { name: 'repo/link/escaped.txt', data: 'pwned' },
        ],
        pattern: /unsafe entry/,
      },
    ];
    for (const c of cases) {
      writeZip(zip, c.entries);
      const spec = (await readDatasetTasks(dataset, 'default'))[0];
      const opts = options(`hostile-${c.name}`);
      const before = await listTree(tmp);
      await assert.rejects(checkOutTask(spec, opts), (err: unknown) => {
        assert.ok(err instanceof UserError, String(err));
        assert.match(err.message, c.pattern);
        return true;
      });
      const afterTree = (await listTree(tmp)).filter(
        (p) => !p.startsWith(path.relative(tmp, opts.oracleDir)) && !p.startsWith(path.relative(tmp, opts.task.root)),
      );
      // Nothing added, and nothing removed but what an earlier test's harness is still deleting
      // in the background (a discarded bytecode folder under another task's .sweci/discard).
      const [had, has] = [new Set(before), new Set(afterTree)];
      const changed = { added: afterTree.filter((p) => !had.has(p)), removed: before.filter((p) => !has.has(p) && !inDiscardBin(p)) };
      assert.deepEqual(changed, { added: [], removed: [] }, `${c.name}: nothing new outside the task and oracle folders`);
      await assert.rejects(fs.access('/tmp/sweci-abs-escape.txt'));
      const leftovers = await listTree(opts.task.root).catch(() => []);
      assert.deepEqual(leftovers, [], `${c.name}: the task folder holds nothing`);
    }
  });
});
