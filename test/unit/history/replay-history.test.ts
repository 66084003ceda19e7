// The human developers' trajectory on the real demo task: every upstream commit with the
// target's tests, real pytest, cached on a second run.
import { ObservedRuntime } from '../helpers/observed-runtime';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commitStartedName, replayHumanHistory } from '../../../src/core/history/replay-history';
import { selectPositions } from '../../../src/core/history/upstream-commits';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { listRuns } from '../../../src/core/loop/run-store';
import type { Runtime } from '../../../src/core/runtime/runtime';
import { AbortError } from '../../../src/core/util/errors';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { readTaskRecord } from '../../../src/core/workspace/materialize';
import { loadReport } from '../../../src/core/checkout/report-store';
import { passedIds, type TestReport } from '../../../src/core/pytest/test-report';
import { DemoWorld, exists, git, pytestSettings, runtime, type DemoTask } from '../loop/demo-fixture';

let world: DemoWorld;
let task: DemoTask;
let scratchParent: string;

const options = (rt: Runtime, extra: Partial<Parameters<typeof replayHumanHistory>[0]> = {}) => ({
  ...pytestSettings,
  task: taskFolder(task.taskDir),
  runtime: rt,
  scratchParent,
  ...extra,
});

describe('human-history replay', () => {
  before(async () => {
    world = await DemoWorld.create('history');
    task = await world.task();
    scratchParent = world.scratch('scratch');
    await fs.mkdir(scratchParent);
  });
  after(async () => {
    await world.dispose();
  });

  test('positions: all, or N evenly spaced always ending at the target, the base always first', () => {
    assert.deepEqual(selectPositions(11), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(selectPositions(11, 20), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(selectPositions(11, 3), [0, 3, 7, 10]);
    assert.deepEqual(selectPositions(11, 1), [0, 10]);
    assert.deepEqual(selectPositions(101, 20).length, 21);
    assert.equal(selectPositions(101, 20).at(-1), 100);
    assert.deepEqual(selectPositions(1), [0]);
  });

  test('N commits first; cancelling keeps what was recorded', async () => {
    const abort = new AbortController();
    const seen: number[] = [];
    const named: string[] = [];
    await assert.rejects(
      replayHumanHistory(
        options(runtime, {
          count: 3,
          signal: abort.signal,
          onEvent: (e) => {
            if (e.type === 'commit-started') {
              seen.push(e.position);
              named.push(commitStartedName(e));
              if (seen.length === 3) abort.abort();
            }
          },
        }),
      ),
      (e: unknown) => e instanceof AbortError,
    );
    const partial = await readIterationRecords(taskFolder(task.taskDir).run('human-history').iterationsFile);
    assert.deepEqual(
      partial.map((r) => r.iteration),
      [0, 3],
    );
    // Named as the summary counts them (N developer commits after the base), not as this call's work.
    assert.deepEqual(named, ['the base commit', 'developer commit 1 of 3', 'developer commit 2 of 3']);
    const rt = new ObservedRuntime(runtime);
    const resumed: string[] = [];
    const result = await replayHumanHistory(
      options(rt, { count: 3, onEvent: (e) => void (e.type === 'commit-started' && resumed.push(commitStartedName(e))) }),
    );
    assert.deepEqual(resumed, ['developer commit 2 of 3', 'developer commit 3 of 3']);
    assert.equal(result.ran, 2);
    assert.equal(result.cached, 2);
    assert.equal(rt.runs, 2, 'only the two missing commits ran pytest');
    assert.deepEqual(
      result.records.map((r) => r.iteration),
      [0, 3, 7, 10],
    );
  });

  test('a stopped widened replay leaves its lines in position order with their regressions, as a finished one would', async () => {
    // A task of its own: the tests after this one count what the shared task still has to run.
    const own = await world.task('stopped');
    const file = taskFolder(own.taskDir).run('human-history').iterationsFile;
    await replayHumanHistory(options(runtime, { task: taskFolder(own.taskDir), count: 3 }));
    const abort = new AbortController();
    let started = 0;
    await assert.rejects(
      replayHumanHistory(
        options(runtime, {
          task: taskFolder(own.taskDir),
          count: 'all',
          signal: abort.signal,
          onEvent: (e) => {
            // Positions 1 and 2 are recorded, then the stop comes as the third one starts.
            if (e.type === 'commit-started' && ++started === 3) abort.abort();
          },
        }),
      ),
      (e: unknown) => e instanceof AbortError,
    );
    const stopped = await fs.readFile(file, 'utf8');
    assert.deepEqual(
      (await readIterationRecords(file)).map((r) => r.iteration),
      [0, 1, 2, 3, 7, 10],
    );
    // Replaying what is recorded runs no pytest and rebuilds every line: nothing is left to change.
    const rt = new ObservedRuntime(runtime);
    await replayHumanHistory(options(rt, { task: taskFolder(own.taskDir), count: 3 }));
    assert.equal(rt.runs, 0);
    assert.equal(await fs.readFile(file, 'utf8'), stopped);
  });

  test('all commits: the gap falls to 0 at the target, each line shaped like an iteration', async () => {
    const result = await replayHumanHistory(options(runtime, { count: 'all' }));
    assert.equal(result.ran, 7);
    const records = result.records;
    assert.deepEqual(
      records.map((r) => r.iteration),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.deepEqual(
      records.map((r) => r.commit),
      task.commits,
    );
    assert.equal(records[0].gap, task.record.task.expectedGap);
    assert.equal(records[records.length - 1].gap, 0);
    for (let i = 1; i < records.length; i++) assert.ok(records[i].gap <= records[i - 1].gap, records.map((r) => r.gap).join(' '));
    for (const r of records) {
      assert.equal(r.run, 'human-history');
      assert.equal(r.architect?.kind, 'human');
      assert.equal(r.programmer?.kind, 'human');
      assert.equal(r.passed, r.target_passed - r.gap);
      assert.equal(typeof r.pytest.total, 'number');
      assert.ok(r.note && r.note.length > 0, 'the commit subject');
      assert.ok(await exists(path.join(taskFolder(task.taskDir).run('human-history').iterationDir(r.iteration), 'report.json')));
    }
    const file = await readIterationRecords(taskFolder(task.taskDir).run('human-history').iterationsFile);
    assert.deepEqual(file, records, 'the file is in position order');
    const runs = await listRuns(taskFolder(task.taskDir));
    assert.equal(runs.find((r) => r.info.name === 'human-history')?.info.kind, 'human-history');
  });

  test("the developers' code runs confined as the loop's code under test: oracle hidden, a network of its own unless host is asked for", async () => {
    for (const network of ['none', 'host'] as const) {
      const own = await world.task(`confined-${network}`);
      const rt = new ObservedRuntime(runtime);
      await replayHumanHistory(options(rt, { task: taskFolder(own.taskDir), count: 1, network }));
      const pytest = rt.requests.filter((r) => r.args.join(' ').includes('-m pytest'));
      assert.ok(pytest.length >= 2, `the base and one commit ran pytest (${pytest.length} runs)`);
      const oracleDir = (await readTaskRecord(taskFolder(own.taskDir)))!.oracleDir;
      for (const r of pytest) {
        assert.equal(r.confine?.network?.kind, network === 'none' ? 'none' : 'open', `network ${network}`);
        assert.ok(r.confine?.hide.includes(oracleDir), 'the oracle is hidden from the code under test');
      }
    }
  });

  test('a second replay is served from the cache: no pytest runs', async () => {
    const before = await fs.readFile(taskFolder(task.taskDir).run('human-history').iterationsFile, 'utf8');
    const rt = new ObservedRuntime(runtime);
    const result = await replayHumanHistory(options(rt, { count: 'all' }));
    assert.equal(rt.runs, 0);
    assert.equal(result.ran, 0);
    assert.equal(result.cached, 11);
    assert.equal(await fs.readFile(taskFolder(task.taskDir).run('human-history').iterationsFile, 'utf8'), before);
  });

  test('regressions count only tests the target passes (the one definition), also when cached lines are renumbered', async () => {
    // A test the target does not pass that passed at commit 1 and is gone at commit 2: not a regression.
    const layout = taskFolder(task.taskDir).run('human-history');
    const reportFile = path.join(layout.iterationDir(1), 'report.json');
    const original = await fs.readFile(reportFile, 'utf8');
    try {
      const report = JSON.parse(original) as TestReport;
      report.tests.push({ nodeid: 'tests/test_outside_target.py::test_only_here', outcome: 'passed', phases: {} });
      await fs.writeFile(reportFile, JSON.stringify(report));
      const { records } = await replayHumanHistory(options(new ObservedRuntime(runtime), { count: 'all' }));
      const target = passedIds((await loadReport(oracleLayout(task.record.oracleDir).targetReportFile))!);
      for (const r of records) for (const id of r.regressions) assert.ok(target.has(id), `line ${r.iteration}: ${id} is not a test the target passes`);
      assert.ok(!records[2].regressions.includes('tests/test_outside_target.py::test_only_here'));
    } finally {
      await fs.writeFile(reportFile, original);
      await replayHumanHistory(options(runtime, { count: 'all' }));
    }
  });

  test('the workspace is untouched and no scratch folder is left', async () => {
    const code = taskFolder(task.taskDir).codeDir;
    assert.equal((await git(code, 'status', '--porcelain')).trim(), '');
    assert.equal((await git(code, 'rev-parse', 'HEAD')).trim(), task.record.baseCommit);
    assert.deepEqual(await fs.readdir(scratchParent), []);
    await assert.rejects(git(code, 'cat-file', '-e', `${task.record.task.targetSha}^{commit}`));
    assert.equal(await exists(path.join(taskFolder(task.taskDir).run('human-history').dir, 'lock')), false);
  });
});
