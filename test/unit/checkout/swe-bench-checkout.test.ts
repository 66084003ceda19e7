// A SWE-bench-style instance checked out end to end: a generated repository, a real test patch
// made with git, real FAIL_TO_PASS / PASS_TO_PASS lists, real pytest. Bad instances are refused
// before anything is written; the test patch's files are put back after a hostile edit.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkOutTask } from '../../../src/core/checkout/check-out-task';
import { instanceResolution } from '../../../src/core/checkout/instance-target';
import { loadReport } from '../../../src/core/checkout/report-store';
import { runCurrentTests } from '../../../src/core/checkout/run-current-tests';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { namedTaskSecrets } from '../../../src/core/runtime/task-confinement';
import { resolveSweBenchTask } from '../../../src/core/task/swe-bench-task';
import { UserError } from '../../../src/core/util/errors';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { readTaskRecord } from '../../../src/core/workspace/materialize';
import { TestRepo, git } from '../task/git-fixture';
import { pytestSettings, runtime as loopRuntime, scripted } from '../loop/demo-fixture';
import { startRun } from '../../../src/core/loop/run-loop';
import { renderDefaultPrompt } from '../../../src/core/loop/default-prompt';
import { readAgentSettings } from '../../../src/core/agents/agent-settings';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';

type CheckOutOptions = Parameters<typeof checkOutTask>[1];

let tmp: string;
let repo: TestRepo;
let base: string;
let testPatch: string;
let n = 0;
const fresh = (name: string) => path.join(tmp, `${name}-${++n}`);

const F2P = ['tests/test_ops.py::test_mul', 'tests/test_more.py::test_mul_zero'];
const P2P = ['tests/test_ops.py::test_add'];

const runtime = new LocalRuntime();
const options = (name: string): CheckOutOptions => ({
  python: 'python3',
  timeoutMs: 120_000,
  format: 'junit',
  task: taskFolder(fresh(name)),
  oracleDir: fresh(`${name}-oracle`),
  runtime,
  runTests: true,
});

/** Writes an instances file (JSON Lines) and returns its path. */
async function instancesFile(name: string, fields: Record<string, unknown> = {}): Promise<string> {
  const file = fresh(`${name}.jsonl`);
  const instance = {
    instance_id: 'acme__calc-1',
    repo: 'acme/calc',
    base_commit: base,
    test_patch: testPatch,
    FAIL_TO_PASS: JSON.stringify(F2P),
    PASS_TO_PASS: JSON.stringify(P2P),
    problem_statement: 'mul is wrong',
    patch: 'the gold patch: never shown to an agent',
    ...fields,
  };
  await fs.writeFile(file, `${JSON.stringify(instance)}\n`);
  return file;
}

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );

describe('SWE-bench-style instance checkout', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-swebench-')));
    repo = await TestRepo.create(path.join(tmp, 'calc'));
    base = await repo.commit('base', {
      'src/calc/__init__.py': '',
      'src/calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n',
      'tests/test_ops.py': 'from calc.ops import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
      'tests/test_old.py': 'def test_old():\n    assert True\n',
      '.gitignore': '*.egg-info/\n',
      '.github/workflows/ci.yml': 'on: push\n',
    });
    // The test patch, made the way SWE-bench makes it: a diff of test files only.
    await fs.appendFile(path.join(repo.dir, 'tests/test_ops.py'), '\n\ndef test_mul():\n    assert mul(2, 3) == 6\n');
    await fs.writeFile(path.join(repo.dir, 'tests/test_more.py'), 'from calc.ops import mul\n\n\ndef test_mul_zero():\n    assert mul(0, 7) == 0\n');
    git(repo.dir, ['add', '-A']);
    testPatch = git(repo.dir, ['diff', '--cached', base]) + '\n';
    git(repo.dir, ['reset', '-q', '--hard', base]);
    // Later upstream history holds the fix: the oracle must never show it to an agent.
    await repo.commit('fix mul', { 'src/calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' });
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('checkout applies the test patch on the base; the gap is FAIL_TO_PASS; fixing the code resolves it the SWE-bench way', async () => {
    const file = await instancesFile('ok');
    const spec = await resolveSweBenchTask(file, undefined, { reposDir: tmp });
    assert.equal(spec.source.kind, 'swe-bench');
    assert.equal(spec.baseSha, base);
    const opts = options('ok');
    const result = await checkOutTask(spec, opts);
    assert.equal(result.current?.run.kind, 'ran', result.current?.run.reason);
    assert.equal(result.current?.gap, 2);

    const layout = taskFolder(opts.task.root);
    const summary = (await fs.readFile(layout.summaryFile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { test: string }).test);
    assert.deepEqual(summary.sort(), [...F2P].sort(), 'the non-passed tests are the FAIL_TO_PASS ones');
    assert.equal(
      await fs.readFile(path.join(layout.codeDir, 'src/calc/ops.py'), 'utf8'),
      'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n',
    );
    assert.ok(await exists(path.join(layout.codeDir, 'tests/test_more.py')), "the patch's new test file is in app/code");
    assert.ok(await exists(path.join(layout.codeDir, 'tests/test_old.py')), "the base's other tests stay");
    // SWE-bench evaluates in the whole repository: the base's .git* files stay (a SWE-CI task drops them, as the reference does).
    assert.equal(await fs.readFile(path.join(layout.codeDir, '.gitignore'), 'utf8'), '*.egg-info/\n');
    assert.ok(await exists(path.join(layout.codeDir, '.github/workflows/ci.yml')));
    const ran = await loadReport(layout.current.report);
    assert.deepEqual(
      [...new Set(ran?.tests.map((t) => t.nodeid.split('::')[0]))].sort(),
      ['tests/test_more.py', 'tests/test_ops.py'],
      'pytest runs the files of the test patch, as SWE-bench does',
    );

    const record = await readTaskRecord(taskFolder(opts.task.root));
    assert.deepEqual(record?.testPaths, ['tests/test_more.py', 'tests/test_ops.py']);
    assert.match(record?.task.targetSha ?? '', /^[0-9a-f]{40}$/);
    const target = await loadReport(oracleLayout(opts.oracleDir).targetReportFile);
    assert.deepEqual(
      target?.tests.map((t) => [t.nodeid, t.outcome]),
      [...F2P, ...P2P].map((id) => [id, 'passed']),
    );

    // What an agent must never see: the oracle, the clone (with the fix in its history) and the instances file (with the gold patch).
    const hidden = namedTaskSecrets(taskFolder(opts.task.root), record).map((s) => s.path);
    for (const secret of [opts.oracleDir, repo.dir, file]) assert.ok(hidden.includes(secret), `${secret} is hidden`);

    await fs.writeFile(path.join(layout.codeDir, 'src/calc/ops.py'), 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n');
    const fixed = await runCurrentTests({ ...opts, runtime, record: record });
    assert.equal(fixed.gap, 0);
    const verdict = instanceResolution(fixed.report!, spec.source.kind === 'swe-bench' ? spec.source.instance : assert.fail());
    assert.deepEqual(verdict, { resolved: true, failToPass: [2, 2], passToPass: [1, 1] });

    // The same instance into the same folder is the same task; the oracle's target sha is stable.
    const again = await checkOutTask(spec, { ...opts, runTests: false });
    assert.equal(again.record.task.targetSha, record?.task.targetSha);
  });

  test('the same loop runs on an instance: a sandboxed scripted agent fixes the code, the run is solved and the instance resolved', async () => {
    const spec = await resolveSweBenchTask(await instancesFile('loop'), undefined, { repoPath: repo.dir });
    const opts = options('loop');
    await checkOutTask(spec, opts);
    const fix = { 'src/calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' };
    const roles = { architect: scripted('architect.py'), programmer: scripted('edit.py', { env: { SWECI_SCRIPTED_EDITS: JSON.stringify(fix) } }) };
    const result = await startRun({ task: taskFolder(opts.task.root), run: 'agent', roles, runtime: loopRuntime, pytest: pytestSettings, maxIterations: 3 });
    assert.equal(result.reason, 'solved');
    const lines = await readIterationRecords(taskFolder(opts.task.root).run('agent').iterationsFile);
    assert.deepEqual(
      lines.map((r) => [r.iteration, r.gap]),
      [
        [0, 2],
        [1, 0],
      ],
    );
    const record = (await readTaskRecord(taskFolder(opts.task.root)))!;
    const last = await loadReport(taskFolder(opts.task.root).current.report);
    assert.equal(instanceResolution(last!, spec.source.kind === 'swe-bench' ? spec.source.instance : assert.fail()).resolved, true);
    assert.equal(record.task.source.kind, 'swe-bench');
  });

  test('the Architect gets the problem_statement only when sweci.architect.problemStatement is on; the Programmer never', async () => {
    const spec = await resolveSweBenchTask(await instancesFile('statement'), undefined, { repoPath: repo.dir });
    const opts = options('statement');
    await checkOutTask(spec, { ...opts, runTests: false });
    const settings = (extra: Record<string, unknown>) => {
      const values: Record<string, unknown> = {
        'architect.agent': 'custom',
        'architect.customCommand': 'true',
        'programmer.agent': 'custom',
        'programmer.customCommand': 'true',
        ...extra,
      };
      return (key: string) => values[key];
    };
    const off = await renderDefaultPrompt('architect', taskFolder(opts.task.root), readAgentSettings('architect', settings({})));
    assert.doesNotMatch(off, /mul is wrong/);
    const on = readAgentSettings('architect', settings({ 'architect.problemStatement': true }));
    assert.match(await renderDefaultPrompt('architect', taskFolder(opts.task.root), on), /<issue>\nmul is wrong\n<\/issue>/);
    const programmer = readAgentSettings('programmer', settings({ 'programmer.problemStatement': true }));
    assert.equal(programmer.kind !== 'human' && programmer.problemStatement, undefined, 'read for the Architect only');
    assert.doesNotMatch(await renderDefaultPrompt('programmer', taskFolder(opts.task.root), programmer), /mul is wrong/);
  });

  test("an agent's edits to the test patch's files are undone before pytest runs; nothing is written through a link", async () => {
    const spec = await resolveSweBenchTask(await instancesFile('hostile'), 'acme__calc-1', { repoPath: repo.dir });
    const opts = options('hostile');
    await checkOutTask(spec, opts);
    const record = (await readTaskRecord(taskFolder(opts.task.root)))!;
    const code = taskFolder(opts.task.root).codeDir;
    // A forged test file, a deleted one, and tests/ turned into a link to a folder outside.
    const outside = fresh('outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'test_ops.py'), 'def test_mul():\n    assert True\n\ndef test_add():\n    assert True\n');
    await fs.writeFile(path.join(outside, 'test_more.py'), 'def test_mul_zero():\n    assert True\n');
    await fs.rm(path.join(code, 'tests'), { recursive: true });
    await fs.symlink(outside, path.join(code, 'tests'));
    const run = await runCurrentTests({ ...opts, runtime, record });
    assert.deepEqual(run.restoredTests, ['tests', 'tests/test_more.py', 'tests/test_ops.py']);
    assert.equal(run.gap, 2, 'the forged tests did not count');
    assert.equal(
      await fs.readFile(path.join(outside, 'test_more.py'), 'utf8'),
      'def test_mul_zero():\n    assert True\n',
      'nothing was written through the link',
    );
    assert.ok((await fs.lstat(path.join(code, 'tests'))).isDirectory());

    await fs.writeFile(path.join(code, 'tests/test_ops.py'), 'def test_mul():\n    assert True\n\ndef test_add():\n    assert True\n');
    const again = await runCurrentTests({ ...opts, runtime, record });
    assert.deepEqual(again.restoredTests, ['tests/test_ops.py']);
    assert.equal(again.gap, 2);
  });

  const refused = async (name: string, fields: Record<string, unknown>, why: RegExp) => {
    const file = await instancesFile(name, fields);
    const opts = options(name);
    await assert.rejects((async () => checkOutTask(await resolveSweBenchTask(file, undefined, { reposDir: tmp }), opts))(), (err: unknown) => {
      assert.ok(err instanceof UserError, String(err));
      assert.ok(err.message.includes(file), err.message);
      assert.ok(err.message.includes('acme__calc-1'), err.message);
      assert.match(err.message, why);
      return true;
    });
    assert.equal(await exists(opts.task.root), false, 'nothing is written in the task folder');
    assert.equal(await exists(opts.oracleDir), false, 'no oracle is left');
  };

  test('a test patch that does not apply is refused, naming the file, the instance and the field; nothing is written', async () => {
    const broken = testPatch.replace('    assert add(2, 3) == 5', '    assert add(2, 3) == 55');
    await refused('no-apply', { test_patch: broken }, /test_patch does not apply on base_commit/);
  });

  test('FAIL_TO_PASS or PASS_TO_PASS naming a test pytest does not collect is refused; nothing is written', async () => {
    await refused('no-f2p', { FAIL_TO_PASS: [...F2P, 'tests/test_more.py::test_nowhere'] }, /FAIL_TO_PASS names tests\/test_more\.py::test_nowhere/);
    await refused('no-p2p', { PASS_TO_PASS: ['tests/test_gone.py::test_add'] }, /PASS_TO_PASS names tests\/test_gone\.py::test_add/);
  });

  test('a base_commit the clone does not have, a missing field, and no clone of the repo are refused before anything is written', async () => {
    await refused('no-base', { base_commit: 'deadbeef'.repeat(5) }, /base_commit deadbeef.* is not a commit/);
    await refused('no-field', { FAIL_TO_PASS: undefined }, /FAIL_TO_PASS is missing/);
    await refused('no-clone', { repo: 'acme/elsewhere' }, /no clone of acme\/elsewhere/);
  });
});
