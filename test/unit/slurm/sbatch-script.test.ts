// The Slurm batch script of `sweci slurm`: its options are checked (every bad value refused with
// the flag to fix), its header says what it should, and its body runs as meant under the real
// bash: a stub `sweci` records its argv and stops on SIGTERM as sweci does (exit 130), and a stub
// `scontrol` answers the job's state and records a requeue. Also scontrol's output as status
// reads it, and the status rows and resubmit command.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TaskStatus } from '../../../src/core/records/task-status-file';
import { DEFAULT_GRACE_SECONDS, readSbatchOptions, type SbatchFlags } from '../../../src/core/slurm/sbatch-options';
import { sbatchScript } from '../../../src/core/slurm/sbatch-script';
import type { Submission } from '../../../src/core/slurm/slurm-folder';
import { querySlurmJobs } from '../../../src/core/slurm/slurm-jobs';
import { slurmStatus, slurmStatusText } from '../../../src/core/slurm/slurm-status';
import { UserError } from '../../../src/core/util/errors';

type SbatchScriptInput = Parameters<typeof sbatchScript>[0];

/** sweci run's exit code when a signal stopped it (run-command.ts). */
const STOPPED_EXIT_CODE = 130;

/** The time limit in seconds, as the options read it. */
const slurmTimeSeconds = (time: string) => readSbatchOptions({ time, grace: '1' }).time?.seconds;

function input(tmp: string, flags: SbatchFlags = {}, overrides: Partial<SbatchScriptInput> = {}): SbatchScriptInput {
  return {
    jobName: 'sweci-scripted',
    taskCount: 3,
    tasksFile: path.join(tmp, 'slurm', 'scripted-1.tasks'),
    logsDir: path.join(tmp, 'slurm', 'logs'),
    jobDir: path.join(tmp, 'slurm'),
    workDir: path.join(tmp, "work dir's"),
    sweci: [path.join(tmp, 'bin', 'sweci')],
    runArgs: ['run', '--dataset', '/data/ds', '--experiment', path.join(tmp, 'exp'), '--run', 'scripted', '--config', 'my settings.json'],
    options: readSbatchOptions(flags),
    ...overrides,
  };
}

describe('sweci slurm: the batch script', () => {
  let tmp: string;
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-sbatch-')));
    await fs.mkdir(path.join(tmp, 'slurm', 'logs'), { recursive: true });
    await fs.mkdir(path.join(tmp, "work dir's"));
    await fs.mkdir(path.join(tmp, 'bin'));
    await fs.writeFile(path.join(tmp, 'slurm', 'scripted-1.tasks'), 'task-a\ntask-b\ntask-c\n');
    // sweci: records its argv and working folder; on SIGTERM exits as sweci does when stopped.
    await fs.writeFile(
      path.join(tmp, 'bin', 'sweci'),
      [
        '#!/bin/bash',
        'printf "%s\\n" "$PWD" "$@" > "$STUB_OUT/argv"',
        `trap 'kill "$sleeper" 2>/dev/null; echo stopped >> "$STUB_OUT/events"; exit ${STOPPED_EXIT_CODE}' TERM`,
        'sleeper=',
        'if [ -n "${STUB_SLEEP:-}" ]; then sleep "$STUB_SLEEP" & sleeper=$!; fi',
        'echo started >> "$STUB_OUT/events"',
        'if [ -n "$sleeper" ]; then wait "$sleeper"; fi',
        'exit "${STUB_EXIT:-0}"',
      ].join('\n'),
      { mode: 0o755 },
    );
    // scontrol: `show job` answers the state the test sets; `requeue` is recorded.
    await fs.writeFile(
      path.join(tmp, 'bin', 'scontrol'),
      [
        '#!/bin/bash',
        'if [ "$1" = requeue ]; then echo "requeue $2" >> "$STUB_OUT/events"; exit 0; fi',
        // sweci slurm status: the records of array $4 as the test wrote them, or Slurm's refusal.
        'if [ -n "${STUB_JOBS:-}" ]; then',
        '  if [ -f "$STUB_JOBS/$4" ]; then cat "$STUB_JOBS/$4"; exit 0; fi',
        '  echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1',
        'fi',
        'echo "JobId=$SLURM_JOB_ID ArrayJobId=$SLURM_ARRAY_JOB_ID ArrayTaskId=$SLURM_ARRAY_TASK_ID JobState=$STUB_STATE Reason=None Restarts=0"',
      ].join('\n'),
      { mode: 0o755 },
    );
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  test('options: Slurm times, and each bad value refused with the flag to fix', () => {
    assert.equal(slurmTimeSeconds('1-00:00:00'), 86400);
    assert.equal(slurmTimeSeconds('0-04:30:00'), 4.5 * 3600);
    assert.equal(slurmTimeSeconds('02:00:30'), 7230);
    assert.equal(slurmTimeSeconds('90'), 5400);
    assert.equal(slurmTimeSeconds('5:30'), 330);
    assert.equal(slurmTimeSeconds('2-12'), 2.5 * 86400);
    assert.equal(slurmTimeSeconds('1-2:30'), 86400 + 2.5 * 3600);
    const refusals: [SbatchFlags, RegExp][] = [
      [{ time: '1 day' }, /--time "1 day" is not a Slurm time: give D-HH:MM:SS/],
      [{ time: '0-25:00:00' }, /--time "0-25:00:00" has a field out of range/],
      [{ time: '1:75:00' }, /out of range/],
      [{ time: '0' }, /is no time at all/],
      [{ time: '-1' }, /not a Slurm time/],
      [{ time: '0-00:01:00' }, /--grace 120 \(seconds\) must be shorter than --time 0-00:01:00 \(60 s\)/],
      [{ time: '10', grace: '600' }, /--grace 600 .* must be shorter than --time 10 \(600 s\)/],
      [{ grace: '0' }, /--grace must be a whole number from 1 to 65535, not "0"/],
      [{ grace: '70000' }, /--grace must be a whole number from 1 to 65535/],
      [{ maxParallel: '0' }, /--max-parallel must be a whole number from 1 up, not "0"/],
      [{ maxParallel: '2.5' }, /--max-parallel must be a whole number/],
      [{ maxParallel: 'two' }, /--max-parallel must be a whole number/],
      [{ cpusPerTask: '0' }, /--cpus-per-task must be a whole number from 1 up/],
      [{ mem: '8 GB' }, /--mem must be an amount of memory per node as sbatch takes it, e.g. 8G/],
      [{ mem: '0' }, /--mem must be an amount/],
      [{ partition: 'gpu queue' }, /--partition must be a Slurm name/],
      [{ account: 'a,b' }, /--account must be a Slurm name, letters/],
      [{ sbatchArg: ['--qos high'] }, /--sbatch-arg "--qos high" is not one long sbatch option/],
      [{ sbatchArg: ['-q'] }, /is not one long sbatch option/],
      [{ sbatchArg: ['--array=0-9'] }, /--sbatch-arg --array=0-9: sweci slurm sets --array itself/],
      [{ sbatchArg: ['--no-requeue'] }, /sets --no-requeue itself \(a preempted element must be requeued\)/],
      [{ sbatchArg: ['--time=10'] }, /sets --time itself \(use --time\)/],
      [{ sbatchArg: ['--output=x.log'] }, /sets --output itself/],
    ];
    for (const [flags, message] of refusals) {
      assert.throws(
        () => readSbatchOptions(flags),
        (err: unknown) => err instanceof UserError && message.test(err.message),
        JSON.stringify(flags),
      );
    }
    assert.deepEqual(readSbatchOptions({}), { extra: [], graceSeconds: DEFAULT_GRACE_SECONDS });
    assert.equal(readSbatchOptions({ mem: '8g' }).mem, '8G');
  });

  test('the header: one array over the tasks, throttled, a log per element, SIGTERM ahead of the limit, requeue', () => {
    const script = sbatchScript(
      input(tmp, {
        partition: 'gpu,cpu',
        time: '1-00:00:00',
        grace: '300',
        cpusPerTask: '4',
        mem: '16G',
        maxParallel: '2',
        account: 'lab',
        sbatchArg: ['--qos=high'],
      }),
    );
    const header = script.split('\n').filter((l) => l.startsWith('#SBATCH '));
    assert.deepEqual(header, [
      '#SBATCH --job-name=sweci-scripted',
      '#SBATCH --array=0-2%2',
      `#SBATCH --output=${tmp}/slurm/logs/%A_%a.log`,
      '#SBATCH --open-mode=append',
      '#SBATCH --signal=B:TERM@300',
      '#SBATCH --requeue',
      `#SBATCH --chdir=${tmp}/slurm`,
      '#SBATCH --ntasks=1',
      '#SBATCH --partition=gpu,cpu',
      '#SBATCH --time=1-00:00:00',
      '#SBATCH --cpus-per-task=4',
      '#SBATCH --mem=16G',
      '#SBATCH --account=lab',
      '#SBATCH --qos=high',
    ]);
    assert.ok(script.startsWith('#!/bin/bash\n'));
    assert.match(script, /^task=\$\(sed -n "\$\(\(SLURM_ARRAY_TASK_ID \+ 1\)\)p" "\$tasks_file"\)$/m);
    assert.match(script, /^ +scontrol requeue "\$\{SLURM_ARRAY_JOB_ID\}_\$\{SLURM_ARRAY_TASK_ID\}"$/m);
    // No throttle, no limits: only what is needed.
    const plain = sbatchScript(input(tmp)).split('\n');
    assert.ok(plain.includes('#SBATCH --array=0-2'));
    assert.ok(plain.includes(`#SBATCH --signal=B:TERM@${DEFAULT_GRACE_SECONDS}`));
    assert.ok(!plain.some((l) => /--(partition|time|mem|account|cpus-per-task)=/.test(l)));
    assert.equal(spawnSync('bash', ['-n'], { input: sbatchScript(input(tmp)) }).status, 0, 'bash -n accepts the script');
  });

  /** Runs the script as element `index` of array 77 with the stubs; `term` sends SIGTERM once sweci started. */
  async function element(
    index: number,
    env: Record<string, string>,
    term = false,
  ): Promise<{ code: number | null; argv: string[]; events: string[]; log: string }> {
    const out = await fs.mkdtemp(path.join(tmp, 'run-'));
    const script = path.join(out, 'job.sbatch');
    await fs.writeFile(script, sbatchScript(input(tmp)), { mode: 0o755 });
    const child = spawn('bash', [script], {
      cwd: out,
      env: {
        PATH: `${path.join(tmp, 'bin')}:${process.env.PATH ?? ''}`,
        STUB_OUT: out,
        SLURM_JOB_ID: String(100 + index),
        SLURM_ARRAY_JOB_ID: '77',
        SLURM_ARRAY_TASK_ID: String(index),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
    if (term) {
      const events = path.join(out, 'events');
      for (let i = 0; i < 200 && !(await fs.readFile(events, 'utf8').catch(() => '')).includes('started'); i++) await new Promise((r) => setTimeout(r, 25));
      child.kill('SIGTERM');
    }
    const code = await exited;
    const read = async (f: string) => (await fs.readFile(path.join(out, f), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    return { code, argv: await read('argv'), events: await read('events'), log };
  }

  test("an element runs sweci run for the task on its line, in sweci slurm's folder, and ends with sweci's exit code", async () => {
    const r = await element(1, { STUB_EXIT: '0' });
    assert.equal(r.code, 0, r.log);
    assert.deepEqual(r.argv, [
      path.join(tmp, "work dir's"),
      'run',
      '--dataset',
      '/data/ds',
      '--experiment',
      path.join(tmp, 'exp'),
      '--run',
      'scripted',
      '--config',
      'my settings.json',
      '--tasks',
      'task-b',
    ]);
    assert.deepEqual(r.events, ['started']);
    assert.match(r.log, /element 77_1 runs task task-b on /);
    const failed = await element(2, { STUB_EXIT: '1' });
    assert.equal(failed.code, 1);
    assert.deepEqual(failed.argv.slice(-2), ['--tasks', 'task-c']);
    assert.ok(!failed.events.some((e) => e.startsWith('requeue')), 'a task that failed on its own is not requeued');
    const beyond = await element(3, {});
    assert.equal(beyond.code, 2);
    assert.match(beyond.log, /no task on line 4 of/);
  });

  test('SIGTERM while the job runs (the time limit ahead): sweci is stopped, then the element requeues itself', async () => {
    const r = await element(0, { STUB_SLEEP: '30', STUB_STATE: 'RUNNING' }, true);
    assert.equal(r.code, STOPPED_EXIT_CODE, r.log);
    assert.deepEqual(r.events, ['started', 'stopped', 'requeue 77_0']);
    assert.match(r.log, /task task-a stopped unfinished \(sweci exited 130\): requeueing element 77_0/);
  });

  test('SIGTERM of a cancelled job (scancel) or a preempted one (Slurm requeues it): sweci is stopped, no requeue', async () => {
    for (const state of ['COMPLETING', 'CANCELLED', 'PREEMPTED']) {
      const r = await element(0, { STUB_SLEEP: '30', STUB_STATE: state }, true);
      assert.equal(r.code, STOPPED_EXIT_CODE, r.log);
      assert.deepEqual(r.events, ['started', 'stopped'], state);
    }
  });

  test("scontrol's records: one per element, pending ones together; the status beside .sweci-batch", async () => {
    const jobs = path.join(tmp, 'jobs');
    await fs.mkdir(jobs);
    await fs.writeFile(
      path.join(jobs, '10'),
      [
        'JobId=12 ArrayJobId=10 ArrayTaskId=2-3%2 ArrayTaskThrottle=2 JobName=sweci-scripted JobState=PENDING Reason=JobArrayTaskLimit Dependency=(null) Requeue=1 Restarts=0 NodeList=(null) BatchHost=n1',
        'JobId=11 ArrayJobId=10 ArrayTaskId=1 JobName=sweci-scripted JobState=PENDING Reason=BeginTime Dependency=(null) Requeue=1 Restarts=2 NodeList=(null)',
        'JobId=10 ArrayJobId=10 ArrayTaskId=0 JobName=sweci-scripted JobState=RUNNING Reason=None Dependency=(null) Requeue=1 Restarts=0 NodeList=n2 BatchHost=n2',
        '',
      ].join('\n'),
    );
    // Other forms of ArrayTaskId: a list with a range, and a range with a step.
    await fs.writeFile(
      path.join(jobs, '20'),
      'JobId=21 ArrayJobId=20 ArrayTaskId=1,3-4 JobState=PENDING Reason=Priority Restarts=0 NodeList=(null)\nJobId=22 ArrayJobId=20 ArrayTaskId=6-12:3 JobState=PENDING Reason=Priority Restarts=0 NodeList=(null)\n',
    );
    const saved = { PATH: process.env.PATH, STUB_JOBS: process.env.STUB_JOBS };
    process.env.PATH = `${path.join(tmp, 'bin')}:${process.env.PATH ?? ''}`;
    process.env.STUB_JOBS = jobs;
    let elements: Awaited<ReturnType<typeof querySlurmJobs>>;
    let other: Awaited<ReturnType<typeof querySlurmJobs>>;
    try {
      // Job 9 has ended and Slurm forgot it: no elements, no error.
      elements = await querySlurmJobs(['9', '10']);
      other = await querySlurmJobs(['20']);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.STUB_JOBS === undefined) delete process.env.STUB_JOBS;
      else process.env.STUB_JOBS = saved.STUB_JOBS;
    }
    assert.deepEqual(
      elements.map((e) => [e.id, e.state, e.node ?? '', e.restarts, e.reason ?? '']),
      [
        ['10_2', 'PENDING', '', 0, 'JobArrayTaskLimit'],
        ['10_3', 'PENDING', '', 0, 'JobArrayTaskLimit'],
        ['10_1', 'PENDING', '', 2, 'BeginTime'],
        ['10_0', 'RUNNING', 'n2', 0, ''],
      ],
    );
    assert.deepEqual(
      other.map((e) => e.index),
      [1, 3, 4, 6, 9, 12],
    );
    const submission = (name: string, job: string, tasks: string[]): Submission => ({
      schema: 1,
      name,
      job,
      submitted: `2026-01-0${job.length}T00:00:00Z`,
      tasks,
      command: ['sweci', 'slurm', '--dataset', '/d', '--experiment', '/e', '--config', 'my settings.json'],
      workDir: '/home/me',
    });
    const status = (task: string, state: TaskStatus['state'], more: Partial<TaskStatus> = {}): [string, TaskStatus] => [
      task,
      { schema: 1, task, state, updated: '', ...more },
    ];
    const rows = slurmStatus(
      // The first array ran a, b, c, d; the second (job 10) runs the unfinished b, c, d, e.
      [submission('scripted-1', '9', ['a', 'b', 'c', 'd']), submission('scripted-2', '10', ['b', 'c', 'd', 'e'])],
      new Map([
        status('a', 'solved', { iterations: 3 }),
        status('b', 'running', { iterations: 1 }),
        status('c', 'cancelled', { reason: 'stopped' }),
        status('d', 'failed', { reason: 'the loop stopped: error' }),
      ]),
      elements,
    );
    assert.deepEqual(
      rows.tasks.map((t) => [t.task, t.state, t.finished, t.slurm?.element, t.slurm?.state ?? 'ended', t.slurm?.node ?? '', t.slurm?.restarts]),
      [
        ['a', 'solved', true, '9_0', 'ended', '', undefined],
        ['b', 'running', false, '10_0', 'RUNNING', 'n2', 0],
        ['c', 'cancelled', false, '10_1', 'PENDING', '', 2],
        ['d', 'failed', false, '10_2', 'PENDING', '', 0],
        ['e', 'not started', false, '10_3', 'PENDING', '', 0],
      ],
    );
    assert.equal(rows.resubmit, "cd /home/me && sweci slurm --dataset /d --experiment /e --config 'my settings.json' --only-unfinished --submit");
    assert.equal(rows.live, 4);
    assert.deepEqual(
      rows.jobs.map((j) => j.job),
      ['9', '10'],
    );
    const text2 = slurmStatusText(rows, '/e');
    assert.match(text2, /^arrays: 9 \(scripted-1, 4 tasks\), 10 \(scripted-2, 4 tasks\)$/m);
    assert.match(text2, /^c +cancelled +10_1 +PENDING +2 +stopped; BeginTime$/m);
    assert.match(text2, /^d +failed +10_2 +PENDING +0 +the loop stopped: error; JobArrayTaskLimit$/m);
    assert.match(text2, /^1\/5 finished$/m);
    assert.match(text2, /4 unfinished tasks still pending or running in Slurm/);
    const done = slurmStatus([submission('scripted-1', '9', ['a'])], new Map([status('a', 'max-iterations')]), []);
    assert.equal(done.resubmit, undefined);
    assert.match(slurmStatusText(done, '/e'), /every task is finished/);
  });
});
