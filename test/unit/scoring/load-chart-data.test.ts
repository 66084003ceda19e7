// loadChartData and loadHeatmap on a real run: the demo task, two iterations of the scripted
// CLI agents, a two-commit human-history replay, and a hand-made human run with a crash.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadChartData, type ChartData } from '../../../src/core/scoring/load-chart-data';
import { loadHeatmap } from '../../../src/core/scoring/load-heatmap';
import { loadReport, saveReport } from '../../../src/core/checkout/report-store';
import { replayHumanHistory } from '../../../src/core/history/replay-history';
import { appendIterationRecord, readIterationRecords, type IterationRecord } from '../../../src/core/loop/iteration-record';
import { startRun } from '../../../src/core/loop/run-loop';
import { ARCHIVE, readRunInfo, writeRunInfo } from '../../../src/core/loop/run-store';
import { evoScore } from '../../../src/shared/metrics/evo-score';
import { runMetrics } from '../../../src/shared/metrics/run-metrics';
import { decodeCells } from '../../../src/shared/metrics/transitions';
import { passedIds, type TestReport } from '../../../src/core/pytest/test-report';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { DemoWorld, loopOptions, programmerEnv, pytestSettings, runtime, scripted, type DemoTask } from '../loop/demo-fixture';

/** The heatmap's cell codes, as the webview reads them. */
const CELL_NAMES = ['missing', 'passed', 'failed', 'error'];

let world: DemoWorld;
let task: DemoTask;
let data: ChartData;
let target: TestReport;
const AGENT = 'scripted-1';
const HUMAN = 'by-hand';
const HISTORY = 'human-history';

const read = (run: string): Promise<IterationRecord[]> => readIterationRecords(taskFolder(task.taskDir).run(run).iterationsFile);

/** a(c) written out from the reference rules, independently of metrics/normalized-change. */
function expectedA(passed: number, init: number, target: number): number {
  const p = Math.min(Math.max(passed, 0), target);
  if (p > init) return target === init ? 1 : (p - init) / (target - init);
  if (p < init) return init === 0 ? -1 : (p - init) / init;
  return 0;
}

/** A run played by hand: the agent run's base, a crashed iteration, then one test lost. */
async function makeHumanRun(): Promise<void> {
  const agentInfo = (await readRunInfo(taskFolder(task.taskDir), AGENT))!;
  const human = { kind: 'human' as const, label: 'human' };
  await writeRunInfo(taskFolder(task.taskDir), {
    ...agentInfo,
    name: HUMAN,
    created: new Date().toISOString(),
    roles: { architect: human, programmer: human },
    branch: undefined,
  });
  const layout = taskFolder(task.taskDir).run(HUMAN);
  const [base] = await read(AGENT);
  const baseReport = (await loadReport(path.join(taskFolder(task.taskDir).run(AGENT).iterationDir(0), ARCHIVE.report)))!;
  const targetIds = passedIds((await loadReport(oracleLayout(task.record.oracleDir).targetReportFile))!);
  const lost = [...passedIds(baseReport)].filter((id) => targetIds.has(id)).sort()[0];
  const step = { kind: 'human' as const, agent: 'human', tries: 1, execution_time: 30 };
  const line = (iteration: number, extra: Partial<IterationRecord>): IterationRecord => ({
    ...base,
    run: HUMAN,
    iteration,
    architect: step,
    programmer: step,
    regressions: [],
    pytest_time: 2,
    ...extra,
  });
  await appendIterationRecord(layout.iterationsFile, { ...base, run: HUMAN });
  await saveReport(path.join(layout.iterationDir(0), ARCHIVE.report), baseReport);
  await appendIterationRecord(layout.iterationsFile, line(1, { gap: -1, pytest: {}, passed: null, pytest_error: 'pytest timed out', pytest_time: undefined }));
  const worse: TestReport = { ...baseReport, tests: baseReport.tests.map((t) => (t.nodeid === lost ? { ...t, outcome: 'failed' } : t)) };
  worse.summary = { ...baseReport.summary, passed: (baseReport.summary.passed ?? 0) - 1 };
  await saveReport(path.join(layout.iterationDir(2), ARCHIVE.report), worse);
  await appendIterationRecord(
    layout.iterationsFile,
    line(2, { gap: base.gap + 1, pytest: worse.summary, passed: base.passed! - 1, regressions: [lost], note: 'lost one' }),
  );
}

describe('chart data from a real task', () => {
  before(async () => {
    world = await DemoWorld.create('chart-data');
    task = await world.task();
    await startRun(
      loopOptions(
        task,
        AGENT,
        {
          architect: scripted('architect.py'),
          programmer: scripted('programmer.py', { env: programmerEnv(task, world.scriptedPath('programmer-state')) }),
        },
        { iterations: 2 },
      ),
    );
    const scratchParent = world.scratch('scratch');
    await fs.mkdir(scratchParent);
    await replayHumanHistory({ ...pytestSettings, task: taskFolder(task.taskDir), runtime, scratchParent, count: 2 });
    await makeHumanRun();
    target = (await loadReport(oracleLayout(task.record.oracleDir).targetReportFile))!;
    data = await loadChartData(taskFolder(task.taskDir), { gamma: 1.1 });
  });
  after(async () => {
    await world.dispose();
  });

  test('one series per run, in creation order, with its kind', async () => {
    assert.deepEqual(
      data.runs.map((r) => [r.run, r.kind]),
      [
        [AGENT, 'agent'],
        [HISTORY, 'human-history'],
        [HUMAN, 'human'],
      ],
    );
    assert.equal(data.runs.length, 3);
    assert.equal((await read(AGENT)).length, 3, 'base + two iterations');
    assert.equal(data.gamma, 1.1);
    // Loop runs say 20; the replay counts with its 2 commits, not all upstream commits.
    assert.equal(data.maxIterations, 20);
    assert.equal(data.maxX, Math.max(20, ...data.runs.flatMap((r) => r.points.map((p) => p.iteration))));
    assert.deepEqual(JSON.parse(JSON.stringify(data)), data, 'plain JSON');
  });

  test('every point is what its iteration.jsonl line implies', async () => {
    for (const run of data.runs) {
      const records = await read(run.run);
      assert.equal(run.points.length, records.length, run.run);
      const init = records[0].pytest.passed ?? 0;
      const tgt = init + records[0].gap;
      assert.deepEqual(run.baseline, { init, target: tgt });
      records.forEach((r, i) => {
        const p = run.points[i];
        const crashed = r.gap === -1;
        assert.equal(p.iteration, r.iteration);
        assert.equal(p.gap, r.gap);
        assert.equal(p.crashed, crashed);
        assert.equal(p.a, crashed ? null : expectedA(r.pytest.passed ?? 0, init, tgt));
        assert.equal(p.passed, crashed ? null : r.passed);
        assert.equal(p.pytestPassed, crashed ? null : (r.pytest.passed ?? 0));
        assert.equal(p.targetPassed, r.target_passed);
        assert.equal(p.regressions, r.regressions.length);
        assert.equal(p.commit, r.commit);
        assert.equal(p.note, r.note);
        assert.equal(p.pytestError, crashed ? r.pytest_error : undefined);
        const steps = [r.architect, r.programmer].filter((s) => s !== undefined);
        assert.equal(
          p.tokensIn,
          steps.reduce((s, x) => s + (x.input_tokens ?? 0), 0),
        );
        assert.equal(
          p.tokensOut,
          steps.reduce((s, x) => s + (x.output_tokens ?? 0), 0),
        );
        assert.ok(Math.abs(p.timeSec - ((r.pytest_time ?? 0) + steps.reduce((s, x) => s + (x.execution_time ?? 0), 0))) < 1e-9);
      });
    }
    const agent = data.runs.find((r) => r.run === AGENT)!;
    assert.ok(
      agent.points.slice(1).every((p) => p.tokensIn > 0),
      'the scripted agents report tokens',
    );
    assert.ok(agent.points[2].a! > 0, 'the scripted programmer makes progress');
    const human = data.runs.find((r) => r.run === HUMAN)!;
    assert.deepEqual(
      human.points.map((p) => [p.crashed, p.regressions]),
      [
        [false, 0],
        [true, 0],
        [false, 1],
      ],
    );
    assert.equal(human.points[1].pytestError, 'pytest timed out');
    assert.ok(human.points[2].a! < 0);
    const history = data.runs.find((r) => r.run === HISTORY)!;
    assert.equal(history.points.length, 3, 'base + 2 commits');
    assert.ok(
      history.points.every((p) => p.note && p.note.length > 0),
      'commit subjects',
    );
    assert.equal(history.points.at(-1)!.a, 1, 'the last replayed commit is the target');
  });

  test("each run's row is runMetrics of its lines with the shared N and γ; evoA gives EvoScore(γ)", async () => {
    for (const run of data.runs) {
      const records = await read(run.run);
      assert.deepEqual(run.metrics, runMetrics(records, { maxIterations: 20, gamma: 1.1 }));
      assert.equal(run.evoA.length, 20);
      assert.ok(Math.abs(evoScore(run.evoA, 1.1) - run.metrics.evoScore!) < 1e-12);
      assert.ok(Math.abs(evoScore(run.evoA, 1) - run.metrics.evoScoreReference!) < 1e-12);
    }
    const human = data.runs.find((r) => r.run === HUMAN)!.metrics;
    assert.equal(human.crashed, 1);
    assert.equal(human.regressions, 1, 'compared with the base, across the crash');
    assert.equal(human.zeroRegression, false);
    assert.equal(human.iterations, 2);
    assert.equal(human.timeSec, 30 + 30 + 30 + 30 + 2);
    assert.equal(data.runs.find((r) => r.run === HISTORY)!.metrics.solved, true);
    assert.equal(data.average.count, 3);
  });

  test('the heatmap matches the archived reports, for the tests the target passes', async () => {
    const tests = [...passedIds(target)].sort();
    for (const run of [AGENT, HISTORY]) {
      const heat = await loadHeatmap(taskFolder(task.taskDir), run);
      const records = await read(run);
      assert.deepEqual(heat.tests, tests);
      assert.deepEqual(
        heat.columns,
        records.map((r) => ({ iteration: r.iteration, ran: true })),
      );
      assert.equal(heat.cells.length, tests.length * records.length);
      const cells = decodeCells(heat.cells);
      for (const [c, r] of records.entries()) {
        const report = (await loadReport(path.join(taskFolder(task.taskDir).run(run).iterationDir(r.iteration), ARCHIVE.report)))!;
        const outcome = new Map(report.tests.map((t) => [t.nodeid, t.outcome]));
        tests.forEach((id, t) => {
          const o = outcome.get(id);
          const expected = o === undefined ? 'missing' : o === 'passed' ? 'passed' : o === 'error' ? 'error' : 'failed';
          assert.equal(CELL_NAMES[cells[t * records.length + c]], expected, `${run} ${id} @${r.iteration}`);
        });
        const passedNow = tests.filter((_, t) => cells[t * records.length + c] === 1).length;
        assert.equal(passedNow, r.passed, "a column's passed cells are the line's passed");
      }
      const fromHeat = heat.regressions.map((g) => [g.iteration, g.tests.map((t) => tests[t])]);
      const fromLines = records.filter((r) => r.regressions.length).map((r) => [r.iteration, [...r.regressions].sort()]);
      assert.deepEqual(fromHeat, fromLines, 'regressed tests agree with iteration.jsonl');
    }
  });

  test('the heatmap of a run with a crash: a column that did not run, the regression across it', async () => {
    const heat = await loadHeatmap(taskFolder(task.taskDir), HUMAN);
    assert.deepEqual(
      heat.columns.map((c) => c.ran),
      [true, false, true],
    );
    const cells = decodeCells(heat.cells);
    heat.tests.forEach((_, t) => assert.equal(cells[t * 3 + 1], 0, 'missing'));
    const [lost] = (await read(HUMAN))[2].regressions;
    assert.deepEqual(heat.regressions, [{ iteration: 2, comparedWith: 0, tests: [heat.tests.indexOf(lost)] }]);
  });

  test('a run whose iteration.jsonl is corrupt is skipped with the reason; the others are drawn', async () => {
    const copy = await world.task('corrupt');
    await fs.cp(path.join(task.taskDir, '.sweci', 'runs'), path.join(copy.taskDir, '.sweci', 'runs'), { recursive: true });
    await fs.appendFile(taskFolder(copy.taskDir).run(HUMAN).iterationsFile, '{not json\n');
    const d = await loadChartData(taskFolder(copy.taskDir));
    assert.deepEqual(
      d.runs.map((r) => r.run),
      [AGENT, HISTORY],
    );
    assert.equal(d.skipped.length, 1);
    assert.equal(d.skipped[0].run, HUMAN);
    assert.match(d.skipped[0].reason, /line 4 is corrupt/);
  });

  test('an unknown run is a clear error', async () => {
    await assert.rejects(loadHeatmap(taskFolder(task.taskDir), 'nope'), /There is no run "nope"/);
    await assert.rejects(loadHeatmap(taskFolder(world.scratch('not-a-task')), AGENT), /not a SWE-CI task folder/);
  });

  test('with no runs: nothing to draw, N defaults to 20', async () => {
    const empty = await world.task('empty');
    await fs.rm(taskFolder(empty.taskDir).run(AGENT).dir, { recursive: true, force: true }).catch(() => undefined);
    await fs.rm(path.dirname(taskFolder(empty.taskDir).run(AGENT).dir), { recursive: true, force: true });
    const d = await loadChartData(taskFolder(empty.taskDir));
    assert.deepEqual(d, { maxIterations: 20, maxX: 20, gamma: 1, runs: [], average: { count: 0, evoScore: 0, solved: 0, zeroRegression: 0 }, skipped: [] });
  });
});
