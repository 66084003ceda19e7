import { test, describe, before, after } from 'node:test';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  buildDemoDataset,
  buildDemoRepo,
  countKinds,
  DEMO_BATCH_TASK_IDS,
  DEMO_BATCH_WINDOWS,
  DEMO_TASK_ID,
  type DemoDataset,
} from '../../../scripts/demo-dataset';
import { DEMO_HISTORY } from '../../../scripts/demo-dataset/history';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { materializeTask } from '../../../src/core/workspace/materialize';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { exportTree, pruneTopLevel } from '../../../src/core/workspace/upstream';
import { classify } from '../../../src/core/gap/non-passed';
import { machineSeedStore } from '../../../src/core/pytest/bytecode-seed';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { passedIds, type TestReport } from '../../../src/core/pytest/test-report';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { copyTree } from '../../../src/core/util/copy-tree';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
let tmp: string;
let demo: DemoDataset;
/** The script's run with --json that built `demo`: what it printed. */
let jsonRun: { status: number | null; stdout: string; stderr: string };
const SCRIPT = path.resolve(__dirname, '../../../scripts/demo-dataset.js');

async function pytest(codeDir: string, reportFile: string): Promise<{ report: TestReport; exitCode: number }> {
  // With this machine's bytecode seed, as the loop and the builder run pytest (not what is checked here).
  const run = await runPytest(new LocalRuntime(), {
    python: PYTHON,
    codeDir,
    reportFile,
    format: 'junit',
    timeoutMs: 120_000,
    bytecodeSeedDir: machineSeedStore(),
  });
  assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? `${run.reason}\n${run.output}` : '');
  if (run.kind !== 'ran') throw new Error('unreachable');
  return { report: run.report, exitCode: run.exitCode };
}

/** The files below `dir`/`sub` (none when it is missing), each with its contents. */
async function treeFiles(dir: string, sub: string): Promise<Array<[string, string]>> {
  const root = path.join(dir, sub);
  const names = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = names.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  return Promise.all(files.sort().map(async (f): Promise<[string, string]> => [f, await fs.readFile(path.join(root, f), 'utf8')]));
}

describe('demo dataset', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-demo-test-')));
    // Built by the script with --json (the batch suite below calls buildDemoDataset itself): one
    // build serves the dataset's checks and the script's --json output.
    const out = path.join(tmp, 'dataset');
    // A cache folder of its own: the test below finds the bytecode seed the build's pytest runs used.
    const r = spawnSync(process.execPath, [SCRIPT, '--json', out], {
      encoding: 'utf8',
      env: { ...process.env, SWECI_PYTHON: PYTHON, XDG_CACHE_HOME: path.join(tmp, 'cache') },
    });
    jsonRun = { status: r.status, stdout: r.stdout, stderr: r.stderr };
    assert.equal(r.status, 0, r.stderr);
    demo = JSON.parse(r.stdout) as DemoDataset;
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('is laid out like the SWE-CI dataset and reads back as one task', async () => {
    const csv = await fs.readFile(path.join(demo.datasetDir, 'metadata', 'default.csv'), 'utf8');
    const [header, row] = csv.trim().split('\n');
    assert.equal(header, 'task_id,repo,current_sha,target_sha,current_date,target_date,test_gap');
    assert.ok(row.startsWith(`${DEMO_TASK_ID},demo/tinyinventory,${demo.baseSha},${demo.targetSha},`));
    const tasks = await readDatasetTasks(demo.datasetDir, 'default');
    assert.equal(tasks.length, 1);
    const [t] = tasks;
    assert.equal(t.id, DEMO_TASK_ID);
    assert.equal(t.baseSha, demo.baseSha);
    assert.equal(t.targetSha, demo.targetSha);
    assert.equal(t.expectedGap, demo.expectedGap);
    assert.equal(t.repo, 'demo/tinyinventory');
    assert.equal(t.baseDate, '2024-03-04T09:12:00+01:00');
    assert.equal(demo.commits.length, 11);
  });

  test('without batch, one CSV row, and tasks holds the one task the top-level fields describe', async () => {
    const csv = await fs.readFile(path.join(demo.datasetDir, 'metadata', 'default.csv'), 'utf8');
    assert.equal(csv.split('\n').length, 3, 'a header, one row and the final newline');
    assert.deepEqual(await fs.readdir(path.join(demo.datasetDir, 'data')), [DEMO_TASK_ID]);
    const { datasetDir, split, tasks, ...top } = demo;
    assert.equal(datasetDir, path.join(tmp, 'dataset'));
    assert.equal(split, 'default');
    assert.deepEqual(tasks, [top]);
  });

  test('the script prints the dataset folder on standard output, and its progress on standard error', () => {
    const out = path.join(tmp, 'script-dataset');
    const r = spawnSync(process.execPath, [SCRIPT, out], { encoding: 'utf8', env: { ...process.env, SWECI_PYTHON: PYTHON } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${out}\n`, 'only the result: a path a script can take');
    assert.match(r.stderr, /^… /m);
    assert.match(r.stderr, new RegExp(`${DEMO_TASK_ID}: gap \\d+, 10 developer commits`));
    // With --json (the run that built this suite's dataset): the whole record, the same progress.
    assert.equal(jsonRun.status, 0, jsonRun.stderr);
    assert.equal((JSON.parse(jsonRun.stdout) as DemoDataset).datasetDir, path.join(tmp, 'dataset'));
    assert.match(jsonRun.stderr, new RegExp(`${DEMO_TASK_ID}: gap \\d+, 10 developer commits`));
  });

  test("the build's pytest runs use this machine's bytecode seed (not each compiling pytest again)", async () => {
    const seeds = path.join(tmp, 'cache', 'swe-ci', 'bytecode-seeds');
    const built = await fs.readdir(seeds).catch(() => []);
    assert.equal(built.length, 1, `one seed in ${seeds}`);
    await fs.access(path.join(seeds, built[0], '.complete'));
  });

  test('shas are deterministic', async () => {
    const again = await buildDemoRepo(path.join(tmp, 'repo-again'));
    assert.deepEqual(again, demo.commits);
  });

  test('materialised: at least 15 non-passed, with failed, setup and teardown errors and not-collected', async () => {
    const [spec] = await readDatasetTasks(demo.datasetDir, 'default');
    const taskDir = path.join(tmp, 'task');
    const oracleDir = path.join(tmp, 'oracle');
    const record = await materializeTask(spec, { task: taskFolder(taskDir), oracleDir });
    const target = await pytest(oracleLayout(oracleDir).targetCodeDir, path.join(tmp, 'reports', 'target', 'r.xml'));
    assert.equal(target.exitCode, 0);
    assert.ok(target.report.tests.length >= 40);
    assert.ok(target.report.tests.every((t) => t.outcome === 'passed'));

    const current = await pytest(taskFolder(taskDir).codeDir, path.join(tmp, 'reports', 'current', 'r.xml'));
    assert.equal(current.exitCode, 1, 'pytest ran and some tests failed (exit 1), not a collection crash');
    const entries = classify(current.report, target.report);
    const kinds = countKinds(entries);
    assert.ok(entries.length >= 15, `gap ${entries.length}`);
    assert.equal(entries.length, record.task.expectedGap, 'the CSV test_gap is the measured gap');
    assert.ok(kinds.failed > 0, 'failed');
    assert.ok(kinds.errorAtSetup > 0, 'error at setup');
    assert.ok(kinds.errorAtTeardown > 0, 'error at teardown');
    assert.ok(kinds.notCollected > 0, 'not collected');
    assert.deepEqual(kinds, demo.kinds);
    assert.ok(passedIds(current.report).size >= 10, 'a mix: some target tests pass on the base');
    const notCollected = entries.filter((e) => e.kind === 'not-collected').map((e) => e.nodeid);
    assert.ok(notCollected.includes('tests/test_units.py::test_unit_roundtrip[case]'), notCollected.join(', '));
  });

  test('the history is coherent: each commit passes its own tests, and the target tests pass more and more', async () => {
    const repo = path.join(tmp, 'history');
    const shas = await buildDemoRepo(repo);
    const gitDir = path.join(repo, '.git');
    const targetTests = path.join(tmp, 'target-tests');
    await exportTree(gitDir, shas[shas.length - 1], path.join(tmp, 'target-export'));
    await copyTree(path.join(tmp, 'target-export', 'tests'), targetTests);
    // One check per commit, run a few at a time (each is two pytest runs; the last commit's own
    // tests are the target tests, so its one run is both).
    const last = shas.length - 1;
    const checkCommit = async (i: number): Promise<number> => {
      const sha = shas[i];
      const own = path.join(tmp, `own-${i}`);
      await exportTree(gitDir, sha, own);
      // Nothing the with-target tree would change (no top-level test/ to prune, tests/ the same
      // files), checked before pytest writes its caches there.
      const ownIsTarget = i === last && (await treeFiles(own, 'test')).length === 0;
      if (ownIsTarget) assert.deepEqual(await treeFiles(own, 'tests'), await treeFiles(targetTests, '.'));
      const ownRun = await pytest(own, path.join(tmp, 'reports', `own-${i}`, 'r.xml'));
      assert.equal(ownRun.exitCode, 0, `commit ${i} (${sha.slice(0, 7)}) fails its own tests`);
      if (ownIsTarget) return passedIds(ownRun.report).size;

      const withTarget = path.join(tmp, `with-target-${i}`);
      await exportTree(gitDir, sha, withTarget);
      await pruneTopLevel(withTarget, ['test', 'tests']);
      await copyTree(targetTests, path.join(withTarget, 'tests'));
      const run = await pytest(withTarget, path.join(tmp, 'reports', `with-target-${i}`, 'r.xml'));
      return passedIds(run.report).size;
    };
    const passedCounts = new Array<number>(shas.length);
    const width = Math.max(1, Math.min(4, os.cpus().length));
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < shas.length) {
          const i = next++;
          passedCounts[i] = await checkCommit(i);
        }
      }),
    );
    let previous = -1;
    for (const [i, passed] of passedCounts.entries()) {
      assert.ok(passed > previous, `commit ${i}: ${passed} target tests pass, not more than ${previous} before`);
      previous = passed;
    }
    assert.equal(previous, demo.targetPassed, 'the last commit passes every target test');
    // Authors alternate between two developers; the repo has one branch, main.
    const authors = execFileSync('git', ['log', '--format=%an'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual([...new Set(authors)].sort(), ['Mara Lind', 'Theo Okafor']);
  });
});

describe('demo dataset with batch: true', () => {
  let dir: string;
  let batch: DemoDataset;
  let history: string[];

  before(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-demo-batch-test-')));
    // An earlier demo dataset in the output folder must be replaced, stale files and all.
    const earlier = path.join(dir, 'dataset', 'data', DEMO_TASK_ID);
    await fs.mkdir(earlier, { recursive: true });
    await fs.writeFile(path.join(earlier, 'code.zip'), 'earlier');
    await fs.writeFile(path.join(dir, 'dataset', 'stale.txt'), 'earlier');
    batch = await buildDemoDataset(path.join(dir, 'dataset'), { python: PYTHON, batch: true });
    history = await buildDemoRepo(path.join(dir, 'history'));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const ids = [DEMO_TASK_ID, ...DEMO_BATCH_TASK_IDS];
  const windows = [{ taskId: DEMO_TASK_ID, base: 0, target: DEMO_HISTORY.length - 1 }, ...DEMO_BATCH_WINDOWS];

  test('writes four CSV rows, the one-task dataset first, with measured gaps of different sizes', async () => {
    assert.deepEqual(DEMO_BATCH_TASK_IDS, ['demo__tinyinventory-0002', 'demo__tinyinventory-0003', 'demo__tinyinventory-0004']);
    const csv = await fs.readFile(path.join(batch.datasetDir, 'metadata', 'default.csv'), 'utf8');
    const [header, ...rows] = csv.trim().split('\n');
    assert.equal(header, 'task_id,repo,current_sha,target_sha,current_date,target_date,test_gap');
    assert.deepEqual(
      rows.map((r) => r.split(',')[0]),
      ids,
    );
    assert.deepEqual(
      batch.tasks.map((t) => t.taskId),
      ids,
    );
    for (const [i, t] of batch.tasks.entries()) {
      const w = windows[i];
      assert.ok(t.expectedGap > 0, `${t.taskId}: gap ${t.expectedGap}`);
      assert.equal(
        rows[i],
        [t.taskId, 'demo/tinyinventory', t.baseSha, t.targetSha, DEMO_HISTORY[w.base].date, DEMO_HISTORY[w.target].date, t.expectedGap].join(','),
      );
    }
    const gaps = batch.tasks.map((t) => t.expectedGap);
    assert.ok(new Set(gaps).size > 1, `gaps ${gaps.join(', ')}`);
    await assert.rejects(fs.stat(path.join(batch.datasetDir, 'stale.txt')), 'the earlier dataset was replaced');
  });

  test('each task is a window of the same history', () => {
    assert.equal(history.length, DEMO_HISTORY.length);
    for (const [i, t] of batch.tasks.entries()) {
      const w = windows[i];
      assert.ok(w.target > w.base, t.taskId);
      assert.equal(t.baseSha, history[w.base], `${t.taskId} base`);
      assert.equal(t.targetSha, history[w.target], `${t.taskId} target`);
      assert.deepEqual(t.commits, history.slice(w.base, w.target + 1), `${t.taskId} commits`);
      assert.ok(t.targetPassed > t.basePassed, t.taskId);
    }
    // The top-level fields still describe task 0001, the whole history.
    const { datasetDir: _dir, split: _split, tasks: _tasks, ...top } = batch;
    assert.deepEqual(top, batch.tasks[0]);
    assert.deepEqual(batch.commits, history);
  });

  test('every task has its code.zip, the same repository', async () => {
    const first = await fs.readFile(path.join(batch.datasetDir, 'data', DEMO_TASK_ID, 'code.zip'));
    assert.ok(first.length > 1000, 'the earlier placeholder zip was replaced');
    for (const id of ids) {
      const zip = await fs.readFile(path.join(batch.datasetDir, 'data', id, 'code.zip'));
      assert.ok(zip.equals(first), id);
    }
  });

  test("reads back with the product's reader as four task specs", async () => {
    const specs = await readDatasetTasks(batch.datasetDir, 'default');
    assert.deepEqual(
      specs.map((s) => ({ id: s.id, baseSha: s.baseSha, targetSha: s.targetSha, expectedGap: s.expectedGap, repo: s.repo })),
      batch.tasks.map((t) => ({ id: t.taskId, baseSha: t.baseSha, targetSha: t.targetSha, expectedGap: t.expectedGap, repo: 'demo/tinyinventory' })),
    );
    for (const s of specs) {
      assert.equal(s.source.kind, 'dataset');
      if (s.source.kind === 'dataset') assert.equal(s.source.zipPath, path.join(batch.datasetDir, 'data', s.id, 'code.zip'));
    }
  });
});
