// `sweci run` and `sweci summarize` as a user runs them: real processes, the demo dataset's four
// tasks, the scripted agents (real programs the real agent driver runs), real git and pytest.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildDemoDataset, type DemoDataset } from '../../../scripts/demo-dataset';
import { FIXTURE_AGENTS as agents, writeScriptedSettings } from '../helpers/scripted-settings';
import { waitNoneMatching } from '../runtime/process-helpers';
import { Job } from 'kubernetes-models/batch/v1/Job';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
const RUN = 'scripted';
let tmp: string;
let demo: DemoDataset;
let config: string;

interface Line {
  iteration: number;
  gap: number;
  passed: number;
  pytest: Record<string, number>;
  [key: string]: unknown;
}

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmp });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

async function lines(experiment: string, task: string): Promise<Line[]> {
  const text = await fs.readFile(path.join(experiment, task, '.sweci', 'runs', RUN, 'iteration.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

/** A line without what differs between two runs of the same agents: clocks, durations and shas. */
function comparable(line: Line): unknown {
  const { started_at: _s, finished_at: _f, commit: _c, pytest_time: _p, ...rest } = line;
  for (const role of ['architect', 'programmer']) {
    const step = rest[role] as Record<string, unknown> | undefined;
    if (step) rest[role] = { ...step, execution_time: undefined };
  }
  return rest;
}

function runArgs(experiment: string, ...more: string[]): string[] {
  return [cli, 'run', '--dataset', demo.datasetDir, '--experiment', experiment, '--run', RUN, '--config', config, '--runtime', 'local', ...more];
}

describe('sweci run over a dataset', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-batch-')));
    demo = await buildDemoDataset(path.join(tmp, 'dataset'), { batch: true });
    config = await writeScriptedSettings(demo, tmp);
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('interrupted with SIGINT and run again, every task ends as an uninterrupted run does', async () => {
    const whole = path.join(tmp, 'exp-a');
    const first = spawnSync(process.execPath, runArgs(whole, '--workers', '2'), { encoding: 'utf8', cwd: tmp });
    assert.equal(first.status, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /finished: 4 solved/);

    // The same run, stopped once two iterations are recorded somewhere, then started again.
    const broken = path.join(tmp, 'exp-b');
    const child = spawn(process.execPath, runArgs(broken, '--workers', '2', '--json'), { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
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
    assert.deepEqual(await waitNoneMatching(agents, 5000), [], 'no agent outlives the stop');
    const states = await Promise.all(
      demo.tasks.map(
        async (t) => JSON.parse(await fs.readFile(path.join(broken, '.sweci-batch', `${t.taskId}.json`), 'utf8').catch(() => '{}')) as { state?: string },
      ),
    );
    assert.ok(
      states.some((s) => s.state === 'cancelled'),
      `some task was stopped: ${JSON.stringify(states)}`,
    );

    const again = spawnSync(process.execPath, runArgs(broken, '--workers', '2'), { encoding: 'utf8', cwd: tmp });
    assert.equal(again.status, 0, again.stderr + again.stdout);
    for (const t of demo.tasks) {
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
    const before = await lines(whole, demo.taskId);
    const done = sweci('run', '--dataset', demo.datasetDir, '--experiment', whole, '--config', config, '--runtime', 'local');
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /finished: 4 solved/);
    assert.deepEqual(await lines(whole, demo.taskId), before);
    const other = sweci('run', '--dataset', demo.datasetDir, '--experiment', whole, '--run', 'other', '--config', config);
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
    assert.equal(group.rows.length, 4);
    const byHand: number[] = [];
    for (const t of demo.tasks) {
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
    assert.ok(Math.abs(group.averageEvo[0] - byHand.reduce((s, v) => s + v, 0) / 4) < 1e-12);
    // The small task by its numbers: base passes 15 of 19, then 17, then all.
    const small = group.rows.find((r) => r.task === demo.tasks[1].taskId)!;
    assert.equal(small.metrics.evoScoreReference, (0.5 + 19 * 1) / 20);

    const summaryTable = sweci('summarize', experiment);
    assert.equal(summaryTable.code, 0, summaryTable.err);
    assert.match(summaryTable.out, new RegExp(`${demo.tasks[1].taskId} +0\\.9750 +1 +1 `));
    assert.match(summaryTable.out, /^average \(4\)/m);
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
      ['–', '–', '–', '–'],
    );

    // compare: the interrupted-and-resumed experiment scores the same as the uninterrupted one.
    const cmp = sweci('compare', experiment, path.join(tmp, 'exp-b'), '--format', 'json');
    assert.equal(cmp.code, 0, cmp.err);
    const comparison = JSON.parse(cmp.out) as { rows: { task: string; a: number; b: number }[]; average: { a: number; b: number }; onlyA: string[] };
    assert.deepEqual(
      comparison.rows.map((r) => r.task),
      demo.tasks.map((t) => t.taskId).sort(),
    );
    for (const r of comparison.rows) assert.equal(r.a, group.rows.find((g) => g.task === r.task)!.metrics.evoScoreReference);
    for (const r of comparison.rows) assert.equal(r.b, r.a);
    assert.ok(Math.abs(comparison.average.a - group.averageEvo[0]) < 1e-12);
    const table = sweci('compare', experiment, path.join(tmp, 'exp-b'));
    assert.match(table.out, /^average \(4\) +0\.\d{4} +0\.\d{4} +\+0\.0000 /m);
    const none = JSON.parse(sweci('compare', experiment, path.join(tmp, 'exp-b'), '--run-b', 'nope', '--format', 'json').out) as {
      rows: unknown[];
      onlyA: string[];
    };
    assert.equal(none.rows.length, 0);
    assert.equal(none.onlyA.length, 4);

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

  test('on a terminal: a live table with the state, iteration, a(c) and gap of each task and the overall progress', () => {
    const experiment = path.join(tmp, 'exp-tty');
    const command = [process.execPath, ...runArgs(experiment, '--tasks', demo.tasks[1].taskId)].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    // script(1) gives the command a pseudo-terminal, sized as a person's terminal would be.
    const r = spawnSync('script', ['-qec', `stty cols 160 rows 40; ${command}`, '/dev/null'], { encoding: 'utf8', cwd: tmp });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    // eslint-disable-next-line no-control-regex -- ANSI escape sequences are exactly what this strips
    const screen = r.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    assert.match(screen, /task +state +iter +a\(c\) +gap +activity/);
    assert.match(screen, /iteration \d+ · (architect|programmer|pytest)/, 'the current step shows while it runs');
    assert.match(screen, new RegExp(`${demo.tasks[1].taskId} +solved +2 +1\\.000 +0`));
    assert.match(screen, /1\/1 done · \d+s elapsed/);
    assert.match(screen, /finished: 1 solved/);
    // A pseudo-terminal nobody sized (some CI runners): a line per change instead of an empty frame.
    const unsized = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', cwd: tmp });
    assert.equal(unsized.status, 0);
    assert.match(unsized.stdout, new RegExp(`${demo.tasks[1].taskId} · solved · iteration 2 · a\\(c\\) 1\\.000 · gap 0`));
  });

  test('a task whose tests cannot run is marked init-failed, the batch goes on, and a rerun does not retry it', async () => {
    const experiment = path.join(tmp, 'exp-init');
    // An interpreter that fails the way a broken environment does (pytest exit > 1).
    const broken = path.join(tmp, 'broken-python');
    await fs.writeFile(broken, '#!/bin/sh\necho "ImportError: the environment is broken" >&2\nexit 4\n', { mode: 0o755 });
    const r = sweci(
      'run',
      '--dataset',
      demo.datasetDir,
      '--experiment',
      experiment,
      '--run',
      RUN,
      '--config',
      config,
      '--runtime',
      'local',
      '--tasks',
      `${demo.tasks[1].taskId},${demo.tasks[2].taskId}`,
      '--python',
      broken,
    );
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /finished: 2 init-failed/);
    const status = JSON.parse(await fs.readFile(path.join(experiment, '.sweci-batch', `${demo.tasks[1].taskId}.json`), 'utf8')) as {
      state: string;
      reason: string;
    };
    assert.equal(status.state, 'init-failed');
    assert.match(status.reason, /pytest did not run on the target/);
    const again = sweci(
      'run',
      '--dataset',
      demo.datasetDir,
      '--experiment',
      experiment,
      '--config',
      config,
      '--runtime',
      'local',
      '--tasks',
      demo.tasks[1].taskId,
    );
    assert.equal(again.code, 0);
    assert.match(again.out, /init-failed/);
    const summary = sweci('summarize', experiment);
    assert.match(summary.out, /not scored:\n {2}demo__tinyinventory-0002: init-failed: pytest did not run on the target/);
    const unknown = sweci('run', '--dataset', demo.datasetDir, '--experiment', experiment, '--config', config, '--tasks', 'nope');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /has no task nope/);
  });

  test("--human-history also replays each task's upstream commits, and summarize lists that run on its own", () => {
    const experiment = path.join(tmp, 'exp-history');
    const r = sweci(
      'run',
      '--dataset',
      demo.datasetDir,
      '--experiment',
      experiment,
      '--run',
      RUN,
      '--config',
      config,
      '--runtime',
      'local',
      '--tasks',
      demo.tasks[1].taskId,
      '--human-history',
      '--max-iterations',
      '1',
    );
    assert.equal(r.code, 0, r.err + r.out);
    type Groups = { groups: { run: string; kind: string; rows: { metrics: { iterations: number; solved: boolean } }[] }[] };
    const summary = JSON.parse(sweci('summarize', experiment, '--format', 'json').out) as Groups;
    assert.deepEqual(
      summary.groups.map((g) => [g.run, g.kind]),
      [
        [RUN, 'agent'],
        ['human-history', 'human-history'],
      ],
    );
    // The upstream developers reach the target in two commits; the agents got one iteration.
    assert.equal(summary.groups[1].rows[0].metrics.iterations, 2);
    assert.equal(summary.groups[0].rows[0].metrics.iterations, 1);
    // Scored over the experiment's N = 1, as the reference truncates, neither is solved; over N = 2 the developers are.
    assert.equal(summary.groups[1].rows[0].metrics.solved, false);
    const two = JSON.parse(sweci('summarize', experiment, '--format', 'json', '--max-epoch', '2').out) as Groups;
    assert.equal(two.groups[1].rows[0].metrics.solved, true);
    assert.equal(two.groups[0].rows[0].metrics.solved, false);
  });

  test('a hostile agent in an experiment sees only its own app/: not the other tasks, their oracles or its own', async () => {
    const experiment = path.join(tmp, 'exp-snoop');
    const snoop = path.join(tmp, 'snoop-experiment.py');
    // Walks the whole experiment folder and names every file it can see.
    await fs.writeFile(
      snoop,
      // (Its working folder is <experiment>/<task>/app; a path given in its environment would be masked in the log.)
      [
        'import os, sys',
        'sys.stdin.read()',
        'experiment = os.path.dirname(os.path.dirname(os.getcwd()))',
        'for root, dirs, files in os.walk(experiment):',
        '    for f in files:',
        "        print('seen: ' + os.path.relpath(os.path.join(root, f), experiment))",
      ].join('\n') + '\n',
    );
    const settings = await writeScriptedSettings(demo, tmp, { name: 'snoop-settings.json', programmer: snoop });
    const tasks = [demo.tasks[1].taskId, demo.tasks[3].taskId];
    const r = sweci(
      'run',
      '--dataset',
      demo.datasetDir,
      '--experiment',
      experiment,
      '--run',
      RUN,
      '--config',
      settings,
      '--runtime',
      'local',
      '--sandbox',
      'bubblewrap',
      '--tasks',
      tasks.join(','),
      '--max-iterations',
      '1',
    );
    assert.equal(r.code, 0, r.err + r.out);
    for (const task of tasks) {
      const log = await fs.readFile(path.join(experiment, task, '.sweci', 'runs', RUN, 'iter-001', 'programmer-try-1.log'), 'utf8');
      const seen = [...log.matchAll(/^seen: (.*)$/gm)].map((m) => m[1]);
      const own = `${task}/app/`;
      // Besides app/, only its own prompt (the file its command line names) is given back.
      const prompt = `${task}/.sweci/runs/${RUN}/pending/programmer.prompt.md`;
      assert.ok(
        seen.some((f) => f.startsWith(own)),
        `${task}: the agent sees its own app/ (so the walk worked)`,
      );
      assert.deepEqual(
        seen.filter((f) => !f.startsWith(own) && f !== prompt),
        [],
        `${task}: nothing else of the experiment is visible`,
      );
    }
  });

  test('a run whose agents cannot be confined refuses to start, recording nothing; --allow-unconfined runs it, and summarize flags it not isolated', async () => {
    const experiment = path.join(tmp, 'exp-unconfined');
    const args = ['run', '--dataset', demo.datasetDir, '--experiment', experiment, '--run', RUN, '--config', config, '--runtime', 'local', '--sandbox', 'off'];
    const one = ['--tasks', demo.tasks[1].taskId, '--max-iterations', '1'];
    const refused = sweci(...args, ...one);
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.err, /Refusing to run: sweci\.sandbox is off \(--sandbox off\), so the agents would run unconfined\..*--allow-unconfined/);
    assert.equal(await fs.stat(experiment).catch(() => undefined), undefined, 'nothing recorded, not even the experiment folder');

    const allowed = sweci(...args, ...one, '--allow-unconfined');
    assert.equal(allowed.code, 0, allowed.err + allowed.out);
    const [, first] = await lines(experiment, demo.tasks[1].taskId);
    assert.equal(first.isolation, 'none');
    const csv = sweci('summarize', experiment, '--format', 'csv').out.trim().split('\n');
    assert.match(csv[1], /,not-isolated$/, 'the row is flagged, not only the line');
    assert.match(sweci('summarize', experiment).out, /flags: not-isolated = not isolated/);
  });

  test('k8s: an Indexed Job with one completion per selected task, valid against the Job schema', async () => {
    const out = path.join(tmp, 'k8s');
    const r = sweci(
      'k8s',
      '--dataset',
      demo.datasetDir,
      '--tasks',
      `${demo.tasks[0].taskId},${demo.tasks[3].taskId}`,
      '--experiment',
      'codex run',
      '--image',
      'registry.example/sweci:1',
      '--workers',
      '5',
      '--claim',
      'results',
      '--secret',
      'keys',
      '-o',
      out,
      '--',
      '--architect',
      'codex',
      '--programmer',
      'codex',
    );
    assert.equal(r.code, 0, r.err);
    const files = (await fs.readdir(out)).sort();
    assert.deepEqual(files, ['sweci-codex-run.README.md', 'sweci-codex-run.job.json']);
    const manifest = JSON.parse(await fs.readFile(path.join(out, files[1]), 'utf8')) as {
      spec: { completions: number; parallelism: number; template: { spec: { containers: { args: string[] }[] } } };
    };
    new Job(manifest as unknown as ConstructorParameters<typeof Job>[0]).validate();
    assert.equal(manifest.spec.completions, 2);
    assert.equal(manifest.spec.parallelism, 2);
    const args = manifest.spec.template.spec.containers[0].args;
    assert.deepEqual(args.slice(args.indexOf('--task-index'), args.indexOf('--task-index') + 2), ['--task-index', '$(JOB_COMPLETION_INDEX)']);
    assert.deepEqual(args.slice(args.indexOf('--tasks'), args.indexOf('--tasks') + 2), ['--tasks', `${demo.tasks[0].taskId},${demo.tasks[3].taskId}`]);
    assert.ok(args.includes('codex'));
    // The pod for index 1 selects the same second task this machine counted.
    const index1 = sweci(
      'run',
      '--dataset',
      demo.datasetDir,
      '--experiment',
      path.join(tmp, 'exp-index'),
      '--tasks',
      `${demo.tasks[0].taskId},${demo.tasks[3].taskId}`,
      '--task-index',
      '2',
      '--config',
      config,
    );
    assert.equal(index1.code, 1);
    assert.match(index1.err, /--task-index 2 is outside the 2 selected task\(s\)/);
    const noResults = sweci('k8s', '--dataset', demo.datasetDir, '--experiment', 'e', '--image', 'i');
    assert.equal(noResults.code, 1);
    assert.match(noResults.err, /--claim <pvc>.*or --sync-command/);
  });
});
