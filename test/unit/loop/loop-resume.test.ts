// Cancelling, crashing and resuming: a partial iteration is never recorded, a resumed one is
// recorded once; one runner per task; switching between runs. Real demo task, real agents.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { readJournal, writeJournal } from '../../../src/core/loop/journal';
import type { LoopEvent } from '../../../src/core/loop/loop-types';
import { discardPendingIteration, findPendingRuns, runLoop, startRun } from '../../../src/core/loop/run-loop';
import { listRuns } from '../../../src/core/loop/run-store';
import { AbortError, UserError } from '../../../src/core/util/errors';
import { loadReport } from '../../../src/core/checkout/report-store';
import { runCurrentTests } from '../../../src/core/checkout/run-current-tests';
import { processesMatching, processTag, waitDead, waitNoneMatching } from '../runtime/process-helpers';
import {
  DemoWorld,
  SANDBOX,
  exists,
  git,
  historyGit,
  loopOptions,
  programmerEnv,
  pythonScript,
  pytestSettings,
  runtime,
  scripted,
  type DemoTask,
} from './demo-fixture';

let world: DemoWorld;

const roles = (task: DemoTask) => ({
  architect: scripted('architect.py'),
  // Without a counter file the scripted programmer finds the commit the code matches best, so a
  // restarted step applies the same commit again.
  programmer: scripted('programmer.py', { env: programmerEnv(task) }),
});

async function lines(task: DemoTask, run: string) {
  return readIterationRecords(taskFolder(task.taskDir).run(run).iterationsFile);
}

async function iterationCommits(task: DemoTask, run: string): Promise<string[]> {
  return (await historyGit(task.taskDir, 'log', '--format=%s', `sweci/${run}`))
    .trim()
    .split('\n')
    .filter((s) => s.startsWith('iteration'));
}

describe('cancel, crash and resume', () => {
  before(async () => {
    world = await DemoWorld.create('loop-resume');
  });
  after(async () => {
    await world.dispose();
  });

  test('aborted during the programmer: processes killed, nothing recorded; runLoop finishes the iteration once', async () => {
    const task = await world.task();
    const abort = new AbortController();
    const pids: number[] = [];
    const events: LoopEvent[] = [];
    const tag = processTag('resume-abort');
    let seenRunning: number[] = [];
    const first = startRun(
      loopOptions(
        task,
        'r',
        { architect: scripted('architect.py'), programmer: scripted('hang.py', { args: [tag] }) },
        {
          signal: abort.signal,
          onEvent: (e) => {
            events.push(e);
            if (e.type === 'agent-output' && e.role === 'programmer') {
              for (const m of e.chunk.matchAll(/(?:pid|child)=(\d+)/g)) pids.push(Number(m[1]));
              if (pids.length >= 2 && !abort.signal.aborted) {
                seenRunning = processesMatching(tag);
                abort.abort();
              }
            }
          },
        },
      ),
    );
    await assert.rejects(first, (e: unknown) => e instanceof AbortError);
    // In a sandbox the printed pids are its own namespace's: look for the processes themselves.
    if (!SANDBOX) for (const pid of pids) assert.ok(await waitDead(pid), `process ${pid} left running`);
    assert.ok(seenRunning.length >= 2, `the tag finds the agent and its child while they run (found ${seenRunning.length})`);
    assert.deepEqual(await waitNoneMatching([tag, 'hang.py']), [], 'no agent left running');
    assert.deepEqual(await waitNoneMatching([tag, 'while True: time.sleep(60)']), [], "no agent's child left running");
    const last = events[events.length - 1];
    assert.equal(last.type === 'loop-finished' && last.reason, 'cancelled');
    assert.equal((await lines(task, 'r')).length, 1, 'no partial line');
    const layout = taskFolder(task.taskDir).run('r');
    assert.equal((await readJournal(layout.pendingDir))?.lastCompletedStep, 'architect');
    const pending = await findPendingRuns(taskFolder(task.taskDir));
    assert.deepEqual(
      pending.map((p) => [p.info.name, p.pending?.iteration, p.pending?.lastCompletedStep]),
      [['r', 1, 'architect']],
    );
    assert.equal(await exists(taskFolder(task.taskDir).lockFile), false, 'lock released');

    const resumed: LoopEvent[] = [];
    const result = await runLoop(loopOptions(task, 'r', roles(task), { iterations: 1, onEvent: (e) => resumed.push(e) }));
    assert.equal(result.reason, 'paused');
    assert.equal(result.recorded.length, 1);
    const records = await lines(task, 'r');
    assert.deepEqual(
      records.map((r) => r.iteration),
      [0, 1],
    );
    const one = records[1];
    assert.ok(one.gap >= 0 && one.gap < records[0].gap);
    assert.equal(one.architect?.tries, 1);
    assert.equal(one.programmer?.tries, 1);
    assert.equal(resumed.filter((e) => e.type === 'step-started' && e.step === 'architect').length, 0, 'the architect is not run again');
    assert.deepEqual(await iterationCommits(task, 'r'), ['iteration 1']);
    const archive = layout.iterationDir(1);
    assert.ok(await exists(path.join(archive, 'programmer-interrupted-1-try-1.log')), 'the interrupted try keeps its log');
    assert.ok(await exists(path.join(archive, 'programmer-try-1.log')));
    assert.equal(await exists(layout.pendingDir), false);
    assert.deepEqual(await findPendingRuns(taskFolder(task.taskDir)), []);

    // And the run goes on from there.
    await runLoop(loopOptions(task, 'r', roles(task), { iterations: 1 }));
    assert.deepEqual(
      (await lines(task, 'r')).map((r) => r.iteration),
      [0, 1, 2],
    );
  });

  test('aborted while pytest runs: no line; resumed, pytest runs again and the line is written once', async () => {
    const task = await world.task();
    const abort = new AbortController();
    const first = startRun(
      loopOptions(task, 'p', roles(task), {
        signal: abort.signal,
        onEvent: (e) => {
          if (e.type === 'step-started' && e.step === 'pytest') abort.abort();
        },
      }),
    );
    await assert.rejects(first, (e: unknown) => e instanceof AbortError);
    assert.equal((await lines(task, 'p')).length, 1);
    assert.equal((await readJournal(taskFolder(task.taskDir).run('p').pendingDir))?.lastCompletedStep, 'programmer');
    const events: LoopEvent[] = [];
    await runLoop(loopOptions(task, 'p', roles(task), { iterations: 1, onEvent: (e) => events.push(e) }));
    assert.deepEqual(
      events.filter((e) => e.type === 'step-started').map((e) => e.type === 'step-started' && e.step),
      ['pytest'],
    );
    const records = await lines(task, 'p');
    assert.deepEqual(
      records.map((r) => r.iteration),
      [0, 1],
    );
    assert.ok(records[1].gap < records[0].gap);
  });

  test('a crash after the commit, or between archiving and appending, is finished without a duplicate', async () => {
    const task = await world.task();
    // Stop after the programmer, then commit as the loop would have just before a crash.
    await startRun(loopOptions(task, 'c', roles(task), { stopAfterStep: 'programmer' }));
    await historyGit(task.taskDir, 'add', '--all');
    await historyGit(task.taskDir, '-c', 'user.name=SWE-CI', '-c', 'user.email=sweci@localhost', 'commit', '-q', '-m', 'iteration 1');
    const crashedCommit = (await historyGit(task.taskDir, 'rev-parse', 'HEAD')).trim();
    await runLoop(loopOptions(task, 'c', roles(task), { iterations: 1 }));
    let records = await lines(task, 'c');
    assert.equal(records[1].commit, crashedCommit, 'the existing iteration commit is reused');
    assert.deepEqual(await iterationCommits(task, 'c'), ['iteration 1']);

    // Now pretend the process died after pending/ became iter-001/ and half-way through the append.
    const layout = taskFolder(task.taskDir).run('c');
    const one = records[1];
    await writeJournal(layout.iterationDir(1), { schema: 1, run: 'c', iteration: 1, started_at: one.started_at, startCommit: records[0].commit, result: one });
    // The two lines as the loop wrote them.
    const [zeroLine, oneLine] = (await fs.readFile(layout.iterationsFile, 'utf8')).split(/(?<=\n)/);
    assert.deepEqual([JSON.parse(zeroLine), JSON.parse(oneLine)], [records[0], one]);
    await fs.writeFile(layout.iterationsFile, zeroLine + oneLine.slice(0, 40));
    assert.equal((await lines(task, 'c')).length, 1);
    const result = await runLoop(loopOptions(task, 'c', roles(task), { iterations: 0 }));
    assert.equal(result.reason, 'paused');
    records = await lines(task, 'c');
    assert.deepEqual(records, [records[0], one]);
    assert.equal(await fs.readFile(layout.iterationsFile, 'utf8'), zeroLine + oneLine);
    assert.equal(await exists(path.join(layout.iterationDir(1), 'journal.json')), false);
  });

  test("a Programmer that turns app/requirement.xml into a link to the run's records cannot make the resumed run write through it", async () => {
    const task = await world.task();
    const layout = taskFolder(task.taskDir).run('link');
    const script = path.join(world.scratch('link-agent'), 'link-requirement.py');
    await fs.mkdir(path.dirname(script), { recursive: true });
    // Relative, so the link resolves outside the sandbox, where the harness reads it.
    const target = path.relative(taskFolder(task.taskDir).appDir, layout.iterationsFile);
    await fs.writeFile(
      script,
      ['import os, sys', "os.remove('requirement.xml')", `os.symlink(${JSON.stringify(target)}, 'requirement.xml')`, 'sys.exit(3)'].join('\n') + '\n',
    );
    const hostile = { architect: scripted('architect.py'), programmer: pythonScript(script, { maxTries: 1 }) };
    await startRun(loopOptions(task, 'link', hostile, { iterations: 1 })).catch(() => undefined);
    const before = await fs.readFile(layout.iterationsFile, 'utf8');
    assert.equal((await lines(task, 'link')).length, 1, 'line 0 only: the iteration did not finish');

    await runLoop(loopOptions(task, 'link', roles(task), { iterations: 1 }));
    const records = await lines(task, 'link');
    assert.deepEqual(
      records.map((r) => r.iteration),
      [0, 1],
      'the records survive',
    );
    assert.ok((await fs.readFile(layout.iterationsFile, 'utf8')).startsWith(before), 'line 0 as it was');
    const requirement = taskFolder(task.taskDir).requirementFile;
    assert.equal((await fs.lstat(requirement)).isSymbolicLink(), false, 'the link was replaced, not written through');
    assert.match(await fs.readFile(requirement, 'utf8'), /<requirement/);
  });

  test('one step at a time: stopAfterStep pauses with the iteration pending', async () => {
    const task = await world.task();
    // Roles given as settings only: the loop makes their CLI drivers.
    const settingsOnly = { architect: { settings: roles(task).architect.settings }, programmer: { settings: roles(task).programmer.settings } };
    const r = await startRun(loopOptions(task, 's', settingsOnly, { stopAfterStep: 'architect' }));
    assert.equal(r.reason, 'paused');
    assert.equal(r.iterations, 0);
    assert.ok(await exists(taskFolder(task.taskDir).requirementFile));
    const [summary] = await listRuns(taskFolder(task.taskDir));
    assert.deepEqual(summary.pending, { iteration: 1, lastCompletedStep: 'architect' });
    const events: LoopEvent[] = [];
    await runLoop(loopOptions(task, 's', roles(task), { iterations: 1, onEvent: (e) => events.push(e) }));
    assert.deepEqual(
      events.filter((e) => e.type === 'step-started').map((e) => e.type === 'step-started' && e.step),
      ['programmer', 'pytest'],
    );
    assert.equal((await lines(task, 's')).length, 2);
  });

  test('a second runner on the same task is refused by the lock', async () => {
    const task = await world.task();
    const abort = new AbortController();
    let started!: () => void;
    const architectRunning = new Promise<void>((r) => (started = r));
    const first = startRun(
      loopOptions(
        task,
        'a',
        { architect: scripted('hang.py', { timeoutSec: 30 }), programmer: scripted('programmer.py') },
        {
          signal: abort.signal,
          onEvent: (e) => e.type === 'step-started' && e.step === 'architect' && started(),
        },
      ),
    );
    await architectRunning;
    const second = await startRun(loopOptions(task, 'b', roles(task))).catch((e: unknown) => e);
    assert.ok(second instanceof UserError);
    assert.match(second.message, new RegExp(`another window or process is running the loop on this task \\(pid ${process.pid}, run "a"`, 'i'));
    await assert.rejects(runLoop(loopOptions(task, 'a', roles(task))), /running the loop on this task/);
    // Refresh (runCurrentTests) waits its turn too: it would rewrite the files the loop owns.
    await assert.rejects(runCurrentTests({ ...pytestSettings, task: taskFolder(task.taskDir), record: task.record, runtime }), /running the loop on this task/);
    abort.abort();
    await assert.rejects(first, (e: unknown) => e instanceof AbortError);
    assert.equal(await exists(taskFolder(task.taskDir).run('b').dir), false, 'the refused run created nothing');
  });

  test('changes made outside the loop are refused, and discarding the pending state resets the code', async () => {
    const task = await world.task();
    await startRun(loopOptions(task, 'd', roles(task), { iterations: 1 }));
    const code = taskFolder(task.taskDir).codeDir;
    await fs.writeFile(path.join(code, 'scratch.py'), 'x = 1\n');
    await assert.rejects(
      runLoop(loopOptions(task, 'd', roles(task), { iterations: 1 })),
      /app\/code has uncommitted changes that are not part of run "d" \(scratch\.py\)/,
    );
    await discardPendingIteration(taskFolder(task.taskDir), 'd');
    assert.equal(await exists(path.join(code, 'scratch.py')), false);
    await runLoop(loopOptions(task, 'd', roles(task), { iterations: 1 }));
    assert.equal((await lines(task, 'd')).length, 3);
  });

  test('two runs on one task: each continues from its own commit and its own non-passed list', async () => {
    const task = await world.task();
    await startRun(loopOptions(task, 'one', roles(task), { iterations: 2 }));
    const [, , oneTwo] = await lines(task, 'one');
    await startRun(loopOptions(task, 'two', roles(task), { iterations: 1 }));
    const code = taskFolder(task.taskDir).codeDir;
    assert.equal((await git(code, 'rev-parse', '--abbrev-ref', 'HEAD')).trim(), 'sweci/two');
    const [twoZero, twoOne] = await lines(task, 'two');
    assert.equal(twoZero.commit, task.record.baseCommit, 'a new run starts from the base');
    assert.equal((await git(code, 'rev-parse', `${twoOne.commit}~1`)).trim(), task.record.baseCommit);

    // Switching back (no iteration yet): code, non-passed and the current report are run one's.
    const paused = await runLoop(loopOptions(task, 'one', roles(task), { iterations: 0 }));
    assert.equal(paused.reason, 'paused');
    assert.equal((await git(code, 'rev-parse', 'HEAD')).trim(), oneTwo.commit);
    const current = await loadReport(taskFolder(task.taskDir).current.report);
    assert.equal(current?.summary.passed, oneTwo.pytest.passed);
    const currentRun = JSON.parse(await fs.readFile(taskFolder(task.taskDir).current.run, 'utf8')) as { finishedAt: string };
    assert.equal(currentRun.finishedAt, oneTwo.finished_at);

    let summaryAtStart = '';
    await runLoop(
      loopOptions(task, 'one', roles(task), {
        iterations: 1,
        // Read at the event itself: onEvent is not awaited.
        onEvent: (e) => {
          if (e.type === 'step-started' && e.step === 'architect') summaryAtStart = readFileSync(taskFolder(task.taskDir).summaryFile, 'utf8');
        },
      }),
    );
    const records = await lines(task, 'one');
    assert.equal(records.length, 4);
    assert.equal((await git(code, 'rev-parse', `${records[3].commit}~1`)).trim(), oneTwo.commit);
    assert.equal(summaryAtStart.split('\n').filter(Boolean).length, oneTwo.gap, "the architect saw run one's last non-passed list");
    assert.equal((await git(code, 'rev-parse', '--abbrev-ref', 'HEAD')).trim(), 'sweci/one');
  });
});
