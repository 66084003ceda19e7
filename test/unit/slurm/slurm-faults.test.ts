// Faults on a real two-node Slurm cluster, one after another on one cluster: a cancelled element
// (then --only-unfinished), a lost node (its element requeued onto the other node) and a time
// limit's warning (SIGTERM to the batch shell, the element requeues itself and resumes). Each
// fault comes while the task is held mid-task behind a gate (its Programmer's second step waits
// for a file the test writes), after a completed step: the tests wait for that state, never for
// a while, and the task cannot finish before the fault lands however fast the machine is.
// Three iterations a task (--max-iterations): the fault at the second, something left to resume
// after it; the demo task's full ten would only take longer.
// Each ends with every task finished, each iteration.jsonl holding iterations 0..N once each,
// and no process of the test left running.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { RUN } from '../cli/batch-fixture';
import {
  assertAllFinished,
  assertLinesWhole,
  elementLogs,
  gate,
  leftovers,
  readIfThere,
  slurmKit,
  stopAndCheckNothingLeft,
  submittedJob,
  waitForArray,
  waitUntil,
  type SlurmKit,
} from './slurm-test-kit';

let kit: SlurmKit;

before(async () => {
  kit = await slurmKit();
});
after(async () => {
  if (kit) await stopAndCheckNothingLeft(kit);
  await kit?.dispose();
});

/** squeue's elements of `job`: id, state and node. */
function elements(job: string): { id: string; state: string; node: string }[] {
  return kit
    .command('squeue', ['-h', '-j', job, '-o', '%i %T %N'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, state, node = ''] = line.trim().split(/\s+/);
      return { id, state, node };
    });
}

/** How many lines the task's iteration.jsonl holds now (0 when none yet). */
function lineCount(experiment: string, task: string): number {
  return readIfThere(path.join(experiment, task, '.sweci', 'runs', RUN, 'iteration.jsonl'))
    .split('\n')
    .filter(Boolean).length;
}

/** The task an element of `job` runs, from the task list of the submission whose job it is. */
async function taskOf(elementId: string, tasksFile: string): Promise<string> {
  const index = Number(elementId.split('_')[1]);
  return (await fs.readFile(tasksFile, 'utf8')).split('\n')[index];
}

/** Iterations a task runs here: the fault comes in the second. */
const ITERATIONS = ['--max-iterations', '3'];

const submitted = (experiment: string, config: string, ...more: string[]) => {
  const r = kit.slurm(experiment, '--config', config, ...ITERATIONS, '--submit', ...more);
  assert.equal(r.code, 0, r.err + r.out);
  return submittedJob(r.out);
};

test('scancel of a running element, then --only-unfinished: every task finished, nothing lost or doubled', async () => {
  const experiment = path.join(kit.fixture.tmp, 'exp-cancel');
  // Two tasks on two nodes: one cancelled, one left alone (the dataset's four would only take longer).
  const tasks = kit.fixture.demo.tasks.slice(0, 2).map((t) => t.taskId);
  const held = await gate(kit, 'gate-cancel');
  const job = submitted(experiment, held.config, '--tasks', tasks.join(','), '--max-parallel', '2');
  const tasksFile = path.join(experiment, 'slurm', `${RUN}-1.tasks`);
  // A running element whose task has recorded a step and is held: cancelled mid-task.
  let victim: { id: string; task: string } | undefined;
  await waitUntil(
    kit,
    experiment,
    'an element runs with a step recorded',
    () => {
      const running = elements(job).filter((e) => e.state === 'RUNNING' && e.id.includes('_'));
      victim = running[0] ? { id: running[0].id, task: '' } : undefined;
      return !!victim;
    },
    120,
  );
  assert.ok(victim);
  victim.task = await taskOf(victim.id, tasksFile);
  const victimTask = victim.task;
  await waitUntil(kit, experiment, `${victimTask} is held after a recorded step`, () => held.holds(victimTask), 300);
  assert.ok(lineCount(experiment, victimTask) >= 2, 'a completed step was recorded before the cancel');
  kit.command('scancel', [victim.id]);
  // The other task goes on to its end (the cancelled element is gone whatever the gate says).
  await waitUntil(kit, experiment, `element ${victim.id} has left the queue`, () => !elements(job).some((e) => e.id === victim!.id), 300);
  await held.open();
  await waitForArray(kit, experiment, job, 600);
  assert.deepEqual(leftovers(kit, kit.fixture.tmp), []);

  const between = kit.sweci('slurm', 'status', experiment, '--json');
  const unfinished = (JSON.parse(between.out) as { tasks: { task: string; finished: boolean }[] }).tasks.filter((t) => !t.finished).map((t) => t.task);
  assert.deepEqual(unfinished, [victim.task], `${between.out}\n${await elementLogs(experiment)}`);
  const again = submitted(experiment, held.config, '--tasks', tasks.join(','), '--only-unfinished');
  assert.equal(await fs.readFile(path.join(experiment, 'slurm', `${RUN}-2.tasks`), 'utf8'), `${victim.task}\n`);
  await waitForArray(kit, experiment, again, 300);

  assertAllFinished(kit, experiment, tasks);
  await assertLinesWhole(kit.fixture, experiment, tasks);
  assert.deepEqual(leftovers(kit, kit.fixture.tmp), []);
});

test('a lost node: the element that ran there is requeued, finishes on the other node, nothing lost or doubled', async () => {
  const experiment = path.join(kit.fixture.tmp, 'exp-lost');
  const tasks = kit.fixture.demo.tasks.slice(0, 2).map((t) => t.taskId);
  const held = await gate(kit, 'gate-lost');
  const job = submitted(experiment, held.config, '--tasks', tasks.join(','), '--max-parallel', '2');
  const tasksFile = path.join(experiment, 'slurm', `${RUN}-1.tasks`);
  let onN1: string | undefined;
  await waitUntil(
    kit,
    experiment,
    'an element runs on n1',
    () => {
      onN1 = elements(job).find((e) => e.state === 'RUNNING' && e.node === 'n1')?.id;
      return !!onN1;
    },
    120,
  );
  assert.ok(onN1);
  const task = await taskOf(onN1, tasksFile);
  // Lost after a completed step, held mid-task, so the requeued element has something to resume from.
  await waitUntil(kit, experiment, `${task} is held after a recorded step`, () => held.holds(task), 300);
  assert.ok(lineCount(experiment, task) >= 2, 'a completed step was recorded before the node was lost');
  try {
    await kit.cluster.killNode('n1');
    // n1's element is gone with the node; the gate opens for the other task and the requeued one.
    await held.open();
    await waitForArray(kit, experiment, job, 300);
  } finally {
    await kit.cluster.restart();
  }
  const record = kit.command('scontrol', ['-o', 'show', 'job', onN1]);
  assert.match(record, /JobState=COMPLETED/, record);
  assert.match(record, /\bNodeList=n2\b/, record);
  assert.ok(Number(/\bRestarts=(\d+)/.exec(record)?.[1]) >= 1, record);

  assertAllFinished(kit, experiment, tasks);
  await assertLinesWhole(kit.fixture, experiment, tasks);
  assert.deepEqual(leftovers(kit, kit.fixture.tmp), []);
});

test("the time limit's warning (TERM to the batch shell, as --time and --grace ask Slurm for): the element requeues itself and resumes from its last completed step", async () => {
  const experiment = path.join(kit.fixture.tmp, 'exp-time');
  const task = kit.fixture.demo.tasks[0].taskId;
  // Behind the gate: the element is known to be mid-task with a completed step recorded when the
  // warning comes, however slow the machine.
  const held = await gate(kit, 'gate-time');

  // A limit the task never reaches: what sweci must do is what the warning asks, whenever it
  // comes. Waiting for Slurm's own clock would cost whole minutes (--time has minute granularity)
  // and race the machine's speed; the signal is the same one (--signal=B:TERM@grace, checked below).
  const r = kit.sweci(
    'slurm',
    ...kit.fixture.runArgs(experiment, '--config', held.config, ...ITERATIONS).slice(2),
    '--tasks',
    task,
    '--time',
    '0-00:30:00',
    '--grace',
    '30',
    '--submit',
  );
  assert.equal(r.code, 0, r.err + r.out);
  const job = submittedJob(r.out);
  const element = `${job}_0`;
  const sbatch = await fs.readFile(path.join(experiment, 'slurm', `${RUN}-1.sbatch`), 'utf8');
  assert.match(sbatch, /^#SBATCH --signal=B:TERM@30$/m);
  assert.match(kit.command('scontrol', ['-o', 'show', 'job', element]), /\bTimeLimit=00:30:00\b/);

  const lines = path.join(experiment, task, '.sweci', 'runs', RUN, 'iteration.jsonl');
  await waitUntil(kit, experiment, "the Programmer's second step is held", () => held.holds(task), 600);
  // What the task had recorded when the warning came: the requeued element must continue after it, not redo it.
  const before = readIfThere(lines);
  assert.ok(before.split('\n').filter(Boolean).length >= 2, `a completed step was recorded before the warning:\n${before}`);
  kit.command('scancel', ['--batch', '--signal=TERM', element]);
  await waitUntil(
    kit,
    experiment,
    `element ${element} was requeued`,
    () => /\bRestarts=[1-9]/.test(kit.command('scontrol', ['-o', 'show', 'job', element])),
    300,
  );
  await held.open();
  await waitForArray(kit, experiment, job, 600);

  const logs = await elementLogs(experiment);
  assert.match(logs, /requeueing element/, logs);
  assert.match(logs, /\(restart [1-9]\d*\)/, logs);
  const record = kit.command('scontrol', ['-o', 'show', 'job', element]);
  assert.match(record, /JobState=COMPLETED/, record);
  assert.equal(Number(/\bRestarts=(\d+)/.exec(record)?.[1]), 1, record);
  assertAllFinished(kit, experiment, [task]);
  await assertLinesWhole(kit.fixture, experiment, [task]);
  const after = await fs.readFile(lines, 'utf8');
  assert.ok(after.startsWith(before) && after.length > before.length, `resumed after:\n${before}\nnow:\n${after}`);
  assert.deepEqual(leftovers(kit, kit.fixture.tmp), []);
});
