// `sweci run` over the demo dataset, its other cases: the live table on a terminal, a task whose
// tests cannot run, --human-history, a hostile agent's view of the experiment, the refusal to
// run unconfined, and `sweci k8s`. Real processes, real git and pytest, scripted agents.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Job } from 'kubernetes-models/batch/v1/Job';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { writeScriptedSettings } from '../helpers/scripted-settings';
import { batchFixture, RUN, type BatchFixture } from './batch-fixture';

let fixture: BatchFixture;
let tmp: string;
let demo: DemoDataset;
let config: string;
let sweci: BatchFixture['sweci'];
let lines: BatchFixture['lines'];
let runArgs: BatchFixture['runArgs'];
let runSweci: BatchFixture['runSweci'];

describe('sweci run over a dataset: the terminal, failures, human history, confinement and k8s', () => {
  before(async () => {
    fixture = await batchFixture();
    ({ tmp, demo, config, sweci, lines, runArgs, runSweci } = fixture);
  });
  after(() => fixture.dispose());

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
    const r = runSweci(experiment, '--tasks', `${demo.tasks[1].taskId},${demo.tasks[2].taskId}`, '--python', broken);
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
    const r = runSweci(experiment, '--tasks', demo.tasks[1].taskId, '--human-history', '--max-iterations', '1');
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
    assert.match(index1.err, /--task-index 2 is outside the 2 selected tasks/);
    const noResults = sweci('k8s', '--dataset', demo.datasetDir, '--experiment', 'e', '--image', 'i');
    assert.equal(noResults.code, 1);
    assert.match(noResults.err, /--claim <pvc>.*or --sync-command/);
  });
});
