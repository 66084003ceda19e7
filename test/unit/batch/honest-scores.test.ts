// An inflated or tampered run is never solved and never scores above its honest figure by
// default (issue 43): real runs of the real loop, sandboxed as users get them, whose Programmer
// cheats. One grows a table a target test is parametrized by until pytest counts far more passes
// than the target has (the reference reads it solved, EvoScore 1.0); one writes a conftest.py
// that turns every failure into a pass. `sweci summarize`, `sweci leaderboard` and the chart's
// data score both at their honest figures; `--keep-flagged` shows the raw ones, flagged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startRun } from '../../../src/core/loop/run-loop';
import { loadChartData } from '../../../src/core/scoring/load-chart-data';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { writeExperimentRecord } from '../helpers/experiment-record';
import { DemoWorld, loopOptions, scripted, type DemoTask } from '../loop/demo-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
const sweci = (...args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  return r.stdout;
};

interface SummaryJson {
  groups: { rows: { task: string; evo: (number | null)[]; metrics: { solved: boolean; evoScore: number | null; scoreFlags: string[] } }[] }[];
}

let world: DemoWorld;
let exp: string;
let inflate: DemoTask;
let force: DemoTask;

async function taskIn(experiment: string, id: string): Promise<DemoTask> {
  const task = await world.task();
  const taskDir = path.join(experiment, id);
  await fs.rename(task.taskDir, taskDir);
  return { ...task, taskDir };
}

describe('honest scores for inflated and tampered runs', () => {
  before(async () => {
    world = await DemoWorld.create('honest-scores');
    exp = world.scratch('exp');
    await fs.mkdir(exp);
    inflate = await taskIn(exp, 'inflate');
    await startRun(
      loopOptions(
        inflate,
        'run',
        { architect: scripted('architect.py'), programmer: scripted('grow-table.py', { env: { SWECI_TEST_GROW_UNITS: '300' } }) },
        { iterations: 1 },
      ),
    );
    force = await taskIn(exp, 'force');
    await startRun(loopOptions(force, 'run', { architect: scripted('architect.py'), programmer: scripted('force-pass.py') }, { iterations: 1 }));
    // What `sweci run --experiment` writes beside its tasks, for the leaderboard to rank the folder.
    await writeExperimentRecord(exp, world.scratch('dataset'), 1);
  });
  after(() => world?.dispose());

  test('the runs cheat as meant: pytest counts more passes than the target has, or passes what the code does not do', async () => {
    const [base, line] = await readIterationRecords(taskFolder(inflate.taskDir).run('run').iterationsFile);
    assert.ok((line.pytest.passed ?? 0) > base.pytest.passed + base.gap, `inflated: ${line.pytest.passed} passed, target ${base.pytest.passed + base.gap}`);
    assert.ok((line.inflated_count ?? 0) >= 300);
    const [fbase, fline] = await readIterationRecords(taskFolder(force.taskDir).run('run').iterationsFile);
    assert.deepEqual(fline.harness_tampering, ['conftest.py']);
    assert.ok((fline.pytest.passed ?? 0) > fbase.pytest.passed, `forced: ${fline.pytest.passed} passed, ${fbase.pytest.passed} at the base`);
  });

  test('summarize: never solved, never above the honest figure; --keep-flagged shows the raw figure with its flag', () => {
    const honest = JSON.parse(sweci('summarize', exp, '--format', 'json')) as SummaryJson;
    const raw = JSON.parse(sweci('summarize', exp, '--format', 'json', '--keep-flagged')) as SummaryJson;
    const row = (s: SummaryJson, id: string) => s.groups[0].rows.find((r) => r.task === id)!.metrics;
    assert.equal(row(raw, 'inflate').solved, true, "raw: the reference's solved");
    assert.equal(row(raw, 'inflate').evoScore, 1);
    assert.deepEqual(row(raw, 'inflate').scoreFlags, ['inflated']);
    assert.equal(row(honest, 'inflate').solved, false);
    assert.equal(row(honest, 'inflate').evoScore, 0, 'no target test more passes: the honest change is 0');
    assert.ok((row(raw, 'force').evoScore ?? 0) > 0, `raw: the forced passes score (${row(raw, 'force').evoScore})`);
    assert.deepEqual(row(raw, 'force').scoreFlags, ['harness-tampering']);
    assert.equal(row(honest, 'force').solved, false);
    assert.equal(row(honest, 'force').evoScore, 0, 'the last honest measurement: the base');

    const table = sweci('summarize', exp);
    assert.match(table, /^inflate +0\.0000 +0 /m, table);
    assert.match(table, /^force +0\.0000 +0 /m, table);
    const rawTable = sweci('summarize', exp, '--keep-flagged');
    assert.match(rawTable, /^inflate +1\.0000 ⚑ inflated +1 ⚑ inflated /m, rawTable);
    assert.match(rawTable, /^force +0\.\d{4} ⚑ harness-tampering /m, rawTable);
  });

  test('the leaderboard and the chart score them alike', async () => {
    const board = (...more: string[]) =>
      (
        JSON.parse(sweci('leaderboard', exp, '--format', 'json', ...more)) as {
          entries: { evoScore: Record<string, number>; solvedRate: number; flaggedTasks: number }[];
        }
      ).entries[0];
    const honest = board();
    const raw = board('--keep-flagged');
    assert.equal(honest.evoScore['1'], 0);
    assert.equal(honest.solvedRate, 0);
    assert.equal(honest.flaggedTasks, 0, 'no score rests on a flag');
    assert.ok(raw.evoScore['1'] > 0.5, `raw: ${raw.evoScore['1']}`);
    assert.equal(raw.solvedRate, 0.5);
    assert.equal(raw.flaggedTasks, 2);
    for (const task of [inflate, force]) {
      const chart = await loadChartData(taskFolder(task.taskDir));
      assert.equal(chart.runs[0].metrics.solved, false, task.taskDir);
      assert.equal(chart.runs[0].metrics.evoScore, 0, task.taskDir);
      const kept = await loadChartData(taskFolder(task.taskDir), { scoring: { keepFlagged: true } });
      assert.ok((kept.runs[0].metrics.evoScore ?? 0) > 0, task.taskDir);
    }
  });
});
