// `sweci slurm` over the demo dataset, without a cluster: the script and its task list as
// written, the experiment's settings written first (and a second submission with other settings
// refused as `sweci run` refuses it), --only-unfinished after a real `sweci run` of one task,
// and every refusal leaving nothing on disk. The script's body runs on a real two-node cluster
// in test/unit/slurm (slurm-run.test.ts, slurm-faults.test.ts).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { batchFixture, cli, RUN, type BatchFixture } from './batch-fixture';

let fixture: BatchFixture;
let tmp: string;
let demo: DemoDataset;
let sweci: BatchFixture['sweci'];

/** `sweci slurm` with the scripted agents' run flags, into `experiment`. */
const slurm = (experiment: string, ...more: string[]) => sweci('slurm', ...fixture.runArgs(experiment).slice(2), ...more);

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

describe('sweci slurm: the script, its task list and the experiment it prepares', () => {
  before(async () => {
    fixture = await batchFixture();
    ({ tmp, demo, sweci } = fixture);
  });
  after(() => fixture.dispose());

  test('writes <experiment>/slurm/<run>-<n>.sbatch over the selected tasks, the task list beside it, the settings first', async () => {
    const experiment = path.join(tmp, 'exp-write');
    const r = slurm(experiment, '--max-parallel', '2', '--time', '0-02:00:00', '--partition', 'debug', '--mem', '8G');
    assert.equal(r.code, 0, r.err);
    const script = path.join(experiment, 'slurm', `${RUN}-1.sbatch`);
    assert.equal(r.out.trim(), script);
    const text = await fs.readFile(script, 'utf8');
    for (const line of [
      '#SBATCH --array=0-3%2',
      `#SBATCH --output=${experiment}/slurm/logs/%A_%a.log`,
      '#SBATCH --signal=B:TERM@120',
      '#SBATCH --requeue',
      '#SBATCH --time=0-02:00:00',
      '#SBATCH --partition=debug',
      '#SBATCH --mem=8G',
      `tasks_file=${experiment}/slurm/${RUN}-1.tasks`,
      `cd ${tmp} || exit 2`,
      `${process.execPath} ${cli} run --dataset ${demo.datasetDir} --split default --experiment ${experiment} --run ${RUN} --config ${fixture.config} --runtime local --tasks "$task" &`,
    ]) {
      assert.ok(text.split('\n').includes(line), `the script has: ${line}\n${text}`);
    }
    assert.equal((await fs.stat(script)).mode & 0o111, 0o111, 'executable');
    assert.equal(await fs.readFile(path.join(experiment, 'slurm', `${RUN}-1.tasks`), 'utf8'), demo.tasks.map((t) => `${t.taskId}\n`).join(''));
    assert.ok(await exists(path.join(experiment, 'slurm', 'logs')));
    const record = JSON.parse(await fs.readFile(path.join(experiment, 'sweci-experiment.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(record.run, RUN);
    assert.equal(record.dataset, demo.datasetDir);
    assert.deepEqual(record.agents, { architect: 'custom', programmer: 'custom' });
    // Again: the next number, nothing overwritten; --tasks maps the array onto those tasks.
    const again = slurm(experiment, '--tasks', `${demo.tasks[3].taskId},${demo.tasks[1].taskId}`);
    assert.equal(again.code, 0, again.err);
    assert.equal(again.out.trim(), path.join(experiment, 'slurm', `${RUN}-2.sbatch`));
    assert.equal(await fs.readFile(path.join(experiment, 'slurm', `${RUN}-2.tasks`), 'utf8'), `${demo.tasks[1].taskId}\n${demo.tasks[3].taskId}\n`);
    assert.match(await fs.readFile(path.join(experiment, 'slurm', `${RUN}-2.sbatch`), 'utf8'), /^#SBATCH --array=0-1$/m);

    // Other iterations or agents than the experiment records: refused, as sweci run refuses them, and nothing written.
    const before = (await fs.readdir(path.join(experiment, 'slurm'))).sort();
    const iterations = slurm(experiment, '--max-iterations', '3');
    assert.equal(iterations.code, 1);
    const refusal =
      /records run "scripted" with architect custom, programmer custom and 20 iterations, not architect custom, programmer custom and 3 iterations/;
    assert.match(iterations.err, refusal);
    const viaRun = fixture.runSweci(experiment, '--max-iterations', '3');
    assert.equal(viaRun.code, 1);
    assert.match(viaRun.err, refusal);
    const agents = slurm(experiment, '--programmer-model', 'other-model');
    assert.equal(agents.code, 1);
    assert.match(agents.err, /not architect custom, programmer custom \(other-model\) and 20 iterations/);
    assert.deepEqual((await fs.readdir(path.join(experiment, 'slurm'))).sort(), before);
  });

  test('--only-unfinished maps the array onto the tasks .sweci-batch does not record as finished', async () => {
    const experiment = path.join(tmp, 'exp-unfinished');
    const done = demo.tasks[1].taskId;
    const run = fixture.runSweci(experiment, '--tasks', done);
    assert.equal(run.code, 0, run.err + run.out);
    const r = slurm(experiment, '--only-unfinished', '--max-parallel', '2');
    assert.equal(r.code, 0, r.err);
    const tasks = await fs.readFile(path.join(experiment, 'slurm', `${RUN}-1.tasks`), 'utf8');
    assert.equal(
      tasks,
      demo.tasks
        .filter((t) => t.taskId !== done)
        .map((t) => `${t.taskId}\n`)
        .join(''),
    );
    assert.match(await fs.readFile(path.join(experiment, 'slurm', `${RUN}-1.sbatch`), 'utf8'), /^#SBATCH --array=0-2%2$/m);
    // Nothing unfinished among the selected: nothing to submit, nothing written.
    const none = slurm(experiment, '--only-unfinished', '--tasks', done, '--submit');
    assert.equal(none.code, 0, none.err);
    assert.match(none.out, /every selected task of .* is finished: nothing to submit/);
    assert.deepEqual((await fs.readdir(path.join(experiment, 'slurm'))).sort(), ['logs', `${RUN}-1.sbatch`, `${RUN}-1.tasks`]);
  });

  test('every refusal names the flag and leaves nothing on disk', async () => {
    const experiment = path.join(tmp, 'exp-refused');
    const refusals: [string[], RegExp][] = [
      [['--time', '2 hours'], /--time "2 hours" is not a Slurm time/],
      [['--time', '1'], /--grace 120 \(seconds\) must be shorter than --time 1 \(60 s\)/],
      [['--max-parallel', '0'], /--max-parallel must be a whole number from 1 up, not "0"/],
      [['--cpus-per-task', 'x'], /--cpus-per-task must be a whole number/],
      [['--mem', 'lots'], /--mem must be an amount of memory/],
      [['--grace', '-5'], /--grace must be a whole number/],
      [['--partition', 'a b'], /--partition must be a Slurm name/],
      [['--sbatch-arg=--array=0-1'], /sweci slurm sets --array itself/],
      [['--task-index', '0'], /sweci slurm takes no --task-index: each element picks its task from the task list/],
      [['--workers', '2'], /sweci slurm takes no --workers: each element runs one task; --max-parallel/],
      [['--sequence', 'seq.json'], /sweci slurm takes no --sequence/],
      [['--tasks', 'no-such-task'], /has no task no-such-task/],
      [['--max-iterations', 'many'], /--max-iterations/],
      [['--architect', 'human'], /A headless run has nobody to play the architect/],
      [
        ['--env', 'ANTHROPIC_API_KEY=abc123'],
        /The flag --env holds a secret \(ANTHROPIC_API_KEY=…\): give a key by variable instead \(export it in the environment/,
      ],
      [['--max-cost', '-1'], /--max-cost must be a number of dollars above 0/],
    ];
    for (const [flags, message] of refusals) {
      const r = slurm(experiment, ...flags);
      assert.notEqual(r.code, 0, flags.join(' '));
      assert.match(r.err, message, flags.join(' '));
      assert.ok(!(await exists(experiment)), `${flags.join(' ')} wrote nothing`);
    }
    const noDataset = sweci('slurm', '--experiment', experiment, '--config', fixture.config);
    assert.match(noDataset.err, /slurm needs --dataset <dir>/);
    const spaced = path.join(tmp, 'exp refused');
    const withSpace = slurm(spaced);
    assert.match(withSpace.err, /holds a space or a %, which sbatch's log paths cannot take/);
    assert.ok(!(await exists(spaced)));
    // A usage mistake: commander's exit 2, nothing written either.
    const usage = slurm(experiment, '--sbatch-arg', '--qos=high');
    assert.equal(usage.code, 2);
    assert.match(usage.err, /write --sbatch-arg=--qos=high/);
    assert.ok(!(await exists(experiment)));
  });

  test('status of an experiment no array ran: says so', () => {
    const experiment = path.join(tmp, 'exp-write');
    const r = sweci('slurm', 'status', experiment);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /has no submitted Slurm array: submit one with sweci slurm \.\.\. --submit/);
    const json = sweci('slurm', 'status', experiment, '--json');
    assert.deepEqual(JSON.parse(json.out), { experiment, jobs: [], tasks: [], live: 0 });
  });
});
