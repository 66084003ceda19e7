// `sweci run` and `sweci summarize` as a user runs them: real processes, the demo batch dataset's
// tasks, the scripted agents (real programs the real agent driver runs), real git and pytest.
// Stopped runs resume to the same lines, and the summary is checked by hand. The batch's three
// windows of the history are run (2, 4 and 4 iterations), not the dataset's first task too (the
// whole history, ten more iterations in each experiment): three tasks on two workers are a queue
// as four are, and each is checked the same way. The other options of `sweci run` are in
// cli-batch-options.test.ts (a file of its own so the two run side by side).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { FIXTURE_AGENTS as agents } from '../helpers/scripted-settings';
import { waitNoneMatching } from '../runtime/process-helpers';
import { batchFixture, comparable, RUN, type BatchFixture } from './batch-fixture';

let fixture: BatchFixture;
let tmp: string;
let demo: DemoDataset;
let config: string;
let tag: string;
let sweci: BatchFixture['sweci'];
let lines: BatchFixture['lines'];
let runArgs: BatchFixture['runArgs'];
/** The tasks run here: the batch's windows (demo.tasks without the first, the whole history). */
let tasks: DemoDataset['tasks'];
let only: string[];

describe('sweci run over a dataset', () => {
  before(async () => {
    fixture = await batchFixture();
    ({ tmp, demo, config, tag, sweci, lines, runArgs } = fixture);
    tasks = demo.tasks.slice(1);
    only = ['--tasks', tasks.map((t) => t.taskId).join(',')];
  });
  after(() => fixture.dispose());

  test('interrupted with SIGINT and run again, every task ends as an uninterrupted run does', async () => {
    const whole = path.join(tmp, 'exp-a');
    const first = spawnSync(process.execPath, runArgs(whole, '--workers', '2', ...only), { encoding: 'utf8', cwd: tmp });
    assert.equal(first.status, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /finished: 3 solved/);

    // The same run, stopped once two iterations are recorded somewhere, then started again.
    const broken = path.join(tmp, 'exp-b');
    const child = spawn(process.execPath, runArgs(broken, '--workers', '2', '--json', ...only), { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    let recorded = 0;
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, nl)) as { type: string; event?: { type: string } };
        buffer = buffer.slice(nl + 1);
        if (event.type === 'loop-event' && event.event?.type === 'iteration-recorded' && ++recorded === 3) child.kill('SIGINT');
      }
    });
    assert.equal(await exited, 130, `a stopped batch exits 130\n${stderr}`);
    assert.ok(recorded >= 3);
    assert.deepEqual(await waitNoneMatching([agents, tag]), [], 'no agent outlives the stop');
    const states = await Promise.all(
      tasks.map(
        async (t) => JSON.parse(await fs.readFile(path.join(broken, '.sweci-batch', `${t.taskId}.json`), 'utf8').catch(() => '{}')) as { state?: string },
      ),
    );
    assert.ok(
      states.some((s) => s.state === 'cancelled'),
      `some task was stopped: ${JSON.stringify(states)}`,
    );

    const again = spawnSync(process.execPath, runArgs(broken, '--workers', '2', ...only), { encoding: 'utf8', cwd: tmp });
    assert.equal(again.status, 0, again.stderr + again.stdout);
    for (const t of tasks) {
      const a = await lines(whole, t.taskId);
      const b = await lines(broken, t.taskId);
      assert.deepEqual(
        b.map((l) => l.iteration),
        [...Array(b.length).keys()],
        `${t.taskId}: no line lost or repeated`,
      );
      assert.deepEqual(b.map(comparable), a.map(comparable), `${t.taskId}: same lines as the uninterrupted run`);
      // The scripted Programmer replays one upstream commit per iteration: solved at the target.
      assert.equal(a.length, t.commits.length, `${t.taskId}: one iteration per upstream commit`);
      assert.equal(a[a.length - 1].gap, 0);
    }

    // A finished experiment: nothing runs again, nothing changes.
    const before = await lines(whole, tasks[2].taskId);
    const done = sweci('run', '--dataset', demo.datasetDir, '--experiment', whole, '--config', config, '--runtime', 'local', ...only);
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /finished: 3 solved/);
    assert.deepEqual(await lines(whole, tasks[2].taskId), before);
    const other = sweci('run', '--dataset', demo.datasetDir, '--experiment', whole, '--run', 'other', '--config', config, ...only);
    assert.equal(other.code, 1);
    assert.match(other.err, /records run "scripted", not "other"/);
  });

  test('killed outright (SIGKILL, a node lost) and run again: its locks are taken over and the task ends as an uninterrupted run does', async () => {
    const task = demo.tasks[2].taskId;
    // The same path length as exp-a: the prompts name the task's paths, and their length is in the token counts.
    const crashed = path.join(tmp, 'exp-k');
    const child = spawn(process.execPath, runArgs(crashed, '--tasks', task, '--json'), { cwd: tmp, stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
    let buffer = '';
    let recorded = 0;
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, nl)) as { type: string; event?: { type: string; step?: string } };
        buffer = buffer.slice(nl + 1);
        if (event.type === 'loop-event' && event.event?.type === 'iteration-recorded') recorded++;
        // Mid-iteration: the architect of the third iteration has started.
        if (recorded === 2 && event.type === 'loop-event' && event.event?.type === 'step-started' && event.event.step === 'architect') child.kill('SIGKILL');
      }
    });
    assert.equal(await exited, 'SIGKILL');
    await fs.access(path.join(crashed, '.sweci-batch', `${task}.lock`));
    const again = sweci('run', '--dataset', demo.datasetDir, '--experiment', crashed, '--config', config, '--runtime', 'local', '--tasks', task);
    assert.equal(again.code, 0, again.err + again.out);
    const b = await lines(crashed, task);
    assert.deepEqual(
      b.map((l) => l.iteration),
      [...Array(b.length).keys()],
    );
    assert.deepEqual(b.map(comparable), (await lines(path.join(tmp, 'exp-a'), task)).map(comparable));
    await assert.rejects(fs.access(path.join(crashed, '.sweci-batch', `${task}.lock`)), 'the lock is released at the end');
  });

  test('summarize: the reference table, checked against values computed here from the lines', async () => {
    const experiment = path.join(tmp, 'exp-a');
    const json = sweci('summarize', experiment, '--format', 'json', '--gamma', '1.2');
    assert.equal(json.code, 0, json.err);
    const summary = JSON.parse(json.out) as {
      maxEpoch: number;
      gammas: number[];
      groups: {
        run: string;
        rows: { task: string; evo: number[]; metrics: { evoScoreReference: number; solved: boolean; zeroRegression: boolean; iterations: number } }[];
        averageEvo: number[];
      }[];
    };
    assert.equal(summary.maxEpoch, 20);
    assert.deepEqual(summary.gammas, [1, 1.2]);
    const group = summary.groups.find((g) => g.run === RUN)!;
    assert.equal(group.rows.length, 3);
    const byHand: number[] = [];
    for (const t of tasks) {
      const ls = await lines(experiment, t.taskId);
      // The paper's formulas, written out again: a from passed against line 0, padded to N = 20.
      const init = ls[0].pytest.passed;
      const target = init + ls[0].gap;
      const values = ls.slice(1).map((l) => Math.min(Math.max(l.pytest.passed ?? 0, 0), target));
      while (values.length < 20) values.push(values[values.length - 1]);
      const a = values.map((p) => (p > init ? (p - init) / (target - init) : p < init ? (p - init) / init : 0));
      const evo1 = a.reduce((s, v) => s + v, 0) / 20;
      let num = 0;
      let den = 0;
      a.forEach((v, i) => {
        num += 1.2 ** (i + 1) * v;
        den += 1.2 ** (i + 1);
      });
      const row = group.rows.find((r) => r.task === t.taskId)!;
      assert.ok(Math.abs(row.metrics.evoScoreReference - evo1) < 1e-12, `${t.taskId}: EvoScore(γ=1) ${row.metrics.evoScoreReference} vs ${evo1}`);
      assert.ok(Math.abs(row.evo[1] - num / den) < 1e-12, `${t.taskId}: EvoScore(γ=1.2)`);
      assert.equal(row.metrics.solved, true);
      assert.equal(
        row.metrics.zeroRegression,
        values.every((v, i) => v >= (i === 0 ? init : values[i - 1])),
      );
      assert.equal(row.metrics.iterations, t.commits.length - 1);
      byHand.push(evo1);
    }
    assert.ok(Math.abs(group.averageEvo[0] - byHand.reduce((s, v) => s + v, 0) / 3) < 1e-12);
    // The small task by its numbers: base passes 15 of 19, then 17, then all.
    const small = group.rows.find((r) => r.task === demo.tasks[1].taskId)!;
    assert.equal(small.metrics.evoScoreReference, (0.5 + 19 * 1) / 20);

    const summaryTable = sweci('summarize', experiment);
    assert.equal(summaryTable.code, 0, summaryTable.err);
    assert.match(summaryTable.out, new RegExp(`${demo.tasks[1].taskId} +0\\.9750 +1 +1 `));
    assert.match(summaryTable.out, /^average \(3\)/m);
    const csv = sweci('summarize', experiment, '--format', 'csv');
    assert.equal(csv.out.split('\n')[0], 'run,task,EvoScore(γ=1),solved,zero_regression,regressions,iterations,tokens_in,tokens_out,time_s,flags');
    // Honest scripted agents, sandboxed: no row is flagged.
    assert.deepEqual(
      csv.out
        .trim()
        .split('\n')
        .slice(1)
        .filter((l) => !l.includes('average'))
        .map((l) => l.split(',').pop()),
      ['–', '–', '–'],
    );

    // compare: the interrupted-and-resumed experiment scores the same as the uninterrupted one.
    const cmp = sweci('compare', experiment, path.join(tmp, 'exp-b'), '--format', 'json');
    assert.equal(cmp.code, 0, cmp.err);
    const comparison = JSON.parse(cmp.out) as { rows: { task: string; a: number; b: number }[]; average: { a: number; b: number }; onlyA: string[] };
    assert.deepEqual(
      comparison.rows.map((r) => r.task),
      tasks.map((t) => t.taskId).sort(),
    );
    for (const r of comparison.rows) assert.equal(r.a, group.rows.find((g) => g.task === r.task)!.metrics.evoScoreReference);
    for (const r of comparison.rows) assert.equal(r.b, r.a);
    assert.ok(Math.abs(comparison.average.a - group.averageEvo[0]) < 1e-12);
    const table = sweci('compare', experiment, path.join(tmp, 'exp-b'));
    assert.match(table.out, /^average \(3\) +0\.\d{4} +0\.\d{4} +\+0\.0000 /m);
    const none = JSON.parse(sweci('compare', experiment, path.join(tmp, 'exp-b'), '--run-b', 'nope', '--format', 'json').out) as {
      rows: unknown[];
      onlyA: string[];
    };
    assert.equal(none.rows.length, 0);
    assert.equal(none.onlyA.length, 3);

    // report: an index with the summary's numbers, each task name opening the task's own report.
    const reportDir = path.join(tmp, 'report');
    const rep = sweci('report', experiment, '-o', reportDir);
    assert.equal(rep.code, 0, rep.err);
    const index = await fs.readFile(path.join(reportDir, 'index.html'), 'utf8');
    for (const row of group.rows) {
      assert.ok(
        index.includes(`<a href="tasks/${row.task}/report.html">${row.task}</a></td><td>${row.metrics.evoScoreReference.toFixed(4)}</td>`),
        `${row.task} in the index`,
      );
      const html = await fs.readFile(path.join(reportDir, 'tasks', row.task, 'report.html'), 'utf8');
      assert.match(html, /<script type="application\/json" id="sweci-report-data">/);
      assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    }
    assert.equal(await fs.readFile(path.join(reportDir, 'summary.md'), 'utf8'), sweci('summarize', experiment, '--format', 'markdown').out);

    const bad = sweci('summarize', experiment, '--gamma', '0,x');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /--gamma takes numbers greater than 0/);
  });
});
