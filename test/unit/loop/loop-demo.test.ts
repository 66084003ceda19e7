// The whole loop on the real demo task with the scripted CLI agents (architect.py writes a
// requirement from summary.jsonl, programmer.py applies the next upstream commit's code):
// real git, real pytest, real processes.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readIterationRecords, type IterationRecord } from '../../../src/core/loop/iteration-record';
import type { LoopEvent } from '../../../src/core/loop/loop-types';
import { listRuns, readRunInfo } from '../../../src/core/loop/run-store';
import { startRun } from '../../../src/core/loop/run-loop';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { DemoWorld, exists, git, historyGit, loopOptions, programmerEnv, scripted, type DemoTask } from './demo-fixture';

let world: DemoWorld;
let task: DemoTask;
let records: IterationRecord[];
let events: LoopEvent[];
const RUN = 'scripted-1';

describe('the loop on the demo task with scripted CLI agents', () => {
  before(async () => {
    world = await DemoWorld.create('loop-demo');
    task = await world.task();
    events = [];
    const result = await startRun(
      loopOptions(
        task,
        RUN,
        {
          architect: scripted('architect.py'),
          programmer: scripted('programmer.py', { env: programmerEnv(task, world.scriptedPath('programmer-state')) }),
        },
        { onEvent: (e) => events.push(e) },
      ),
    );
    assert.equal(result.reason, 'solved');
    records = await readIterationRecords(taskFolder(task.taskDir).run(RUN).iterationsFile);
  });
  after(async () => {
    await world.dispose();
  });

  test('reaches gap 0, with the gap never increasing', () => {
    assert.ok(records.length >= 3, `${records.length} lines`);
    const gaps = records.map((r) => r.gap);
    assert.ok(gaps[0] > 0);
    assert.equal(gaps[gaps.length - 1], 0);
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i] <= gaps[i - 1], `gap rose at line ${i}: ${gaps.join(' ')}`);
    assert.ok(records.length - 1 <= task.commits.length - 1, 'one upstream commit per iteration at most');
  });

  test('line 0 is the base run; every line has the reference fields and ours', () => {
    const [zero, ...rest] = records;
    assert.equal(zero.iteration, 0);
    assert.equal(zero.commit, task.record.baseCommit);
    assert.equal(zero.architect, undefined);
    assert.equal(zero.programmer, undefined);
    assert.equal(zero.passed, zero.target_passed - zero.gap);
    assert.equal(zero.gap, task.record.task.expectedGap);
    rest.forEach((r, i) => {
      assert.equal(r.iteration, i + 1);
      assert.equal(r.run, RUN);
      assert.equal(typeof r.pytest.total, 'number');
      assert.equal(
        r.pytest.passed ?? 0,
        (r.pytest.total ?? 0) - (r.pytest.failed ?? 0) - (r.pytest.error ?? 0) - (r.pytest.skipped ?? 0) - (r.pytest.xfailed ?? 0) - (r.pytest.xpassed ?? 0),
      );
      assert.equal(r.passed, r.target_passed - r.gap);
      assert.deepEqual(r.regressions, []);
      assert.deepEqual(r.tampered, []);
      assert.deepEqual(r.outside_changes, []);
      for (const role of ['architect', 'programmer'] as const) {
        const step = r[role]!;
        assert.equal(step.kind, 'agent');
        assert.match(step.agent, /^custom: (architect|programmer)\.py$/);
        assert.equal(step.tries, 1);
        assert.ok(step.execution_time! > 0 && step.execution_time! < 60);
        // The scripted agents report usage in iFlow's format; the driver parses it.
        assert.ok(step.input_tokens! > 0, `${role} input tokens`);
        assert.equal(typeof step.output_tokens, 'number');
      }
      assert.ok(Date.parse(r.started_at) <= Date.parse(r.finished_at));
      assert.ok(r.pytest_time! > 0);
      assert.equal(r.pytest_error, undefined);
    });
  });

  test('one commit per iteration on sweci/<run>, from the base', async () => {
    const code = taskFolder(task.taskDir).codeDir;
    const log = (await git(code, 'log', '--first-parent', '--format=%H %an <%ae> %s', `sweci/${RUN}`)).trim().split('\n').reverse();
    assert.equal(log.length, records.length);
    assert.ok(log[0].startsWith(`${task.record.baseCommit} `));
    records.slice(1).forEach((r, i) => assert.equal(log[i + 1], `${r.commit} SWE-CI <sweci@localhost> iteration ${r.iteration}`));
    assert.equal((await git(code, 'rev-parse', '--abbrev-ref', 'HEAD')).trim(), `sweci/${RUN}`);
    assert.equal((await git(code, 'status', '--porcelain')).trim(), '');
    assert.equal((await historyGit(task.taskDir, 'rev-parse', 'main')).trim(), task.record.baseCommit, 'main stays at the base');
    // The working repository holds the run's branch only; the store holds every branch.
    assert.equal((await git(code, 'for-each-ref', '--format=%(refname)')).trim(), `refs/heads/sweci/${RUN}`);
    assert.equal((await historyGit(task.taskDir, 'rev-parse', `sweci/${RUN}`)).trim(), records[records.length - 1].commit);
  });

  test('each iteration is archived: requirement, report, summary, logs, pytest output, code diff', async () => {
    const layout = taskFolder(task.taskDir).run(RUN);
    const zero = layout.iterationDir(0);
    for (const f of ['report.json', 'summary.jsonl']) assert.ok(await exists(path.join(zero, f)), `iter-000/${f}`);
    for (const r of records.slice(1)) {
      const dir = layout.iterationDir(r.iteration);
      for (const f of [
        'requirement.xml',
        'report.json',
        'summary.jsonl',
        'architect-try-1.log',
        'programmer-try-1.log',
        'architect.prompt.md',
        'programmer.prompt.md',
        'pytest-output.txt',
        'code.diff',
      ]) {
        assert.ok(await exists(path.join(dir, f)), `${path.basename(dir)}/${f}`);
      }
      assert.equal(await exists(path.join(dir, 'journal.json')), false);
      const summary = (await fs.readFile(path.join(dir, 'summary.jsonl'), 'utf8')).split('\n').filter(Boolean);
      assert.equal(summary.length, r.gap);
      const diff = await fs.readFile(path.join(dir, 'code.diff'), 'utf8');
      const prev = records[r.iteration - 1].commit;
      assert.equal(diff, await git(taskFolder(task.taskDir).codeDir, 'diff', '--no-color', '--binary', prev, r.commit, '--'));
      assert.doesNotMatch(diff, /^diff --git a\/tests\//m, 'no test changes in an iteration');
      const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as { summary: { total: number } };
      assert.equal(report.summary.total, r.pytest.total);
    }
    assert.equal(await exists(layout.pendingDir), false);
    const requirement = await fs.readFile(path.join(layout.iterationDir(1), 'requirement.xml'), 'utf8');
    assert.match(requirement, /<requirement\b/);
  });

  test('run.json and listRuns describe the run', async () => {
    const info = await readRunInfo(taskFolder(task.taskDir), RUN);
    assert.equal(info?.maxIterations, 20);
    assert.equal(info?.branch, `sweci/${RUN}`);
    assert.equal(info?.roles.architect.kind, 'agent');
    assert.match(info.roles.programmer.command!, /programmer\.py/);
    assert.equal(JSON.stringify(info).includes('SWECI_SCRIPTED_UPSTREAM'), false, 'environment is never recorded');
    const runs = await listRuns(taskFolder(task.taskDir));
    assert.equal(runs.length, 1);
    assert.equal(runs[0].iterations, records.length - 1);
    assert.equal(runs[0].solved, true);
    assert.equal(runs[0].pending, undefined);
  });

  test('events follow the steps in order and end with loop-finished', () => {
    const steps = events.filter((e) => e.type === 'step-started').map((e) => (e.type === 'step-started' ? `${e.iteration}:${e.step}` : ''));
    const expected = records.slice(1).flatMap((r) => [`${r.iteration}:architect`, `${r.iteration}:programmer`, `${r.iteration}:pytest`]);
    assert.deepEqual(steps, expected);
    assert.ok(events.some((e) => e.type === 'agent-output' && e.role === 'programmer' && /applied/.test(e.chunk)));
    const recorded = events.filter((e) => e.type === 'iteration-recorded');
    assert.equal(recorded.length, records.length - 1);
    const last = events[events.length - 1];
    assert.equal(last.type, 'loop-finished');
    assert.equal(last.type === 'loop-finished' && last.reason, 'solved');
  });

  test('the agent could not see the target: no upstream history in app/code, no oracle file in the task', async () => {
    const code = taskFolder(task.taskDir).codeDir;
    const targetSha = task.record.task.targetSha;
    await assert.rejects(git(code, 'cat-file', '-e', `${targetSha}^{commit}`));
    for (const sha of task.commits) await assert.rejects(git(code, 'cat-file', '-e', `${sha}^{commit}`), `upstream ${sha} reachable`);
    const all = (await git(code, 'log', '--all', '--format=%H')).trim().split('\n').sort();
    assert.deepEqual(all, records.map((r) => r.commit).sort());
    const oracle = oracleLayout(task.record.oracleDir);
    const targetReport = await fs.readFile(oracle.targetReportFile, 'utf8');
    const walk = async (dir: string): Promise<string[]> => {
      const out: string[] = [];
      for (const e of await fs.readdir(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isSymbolicLink()) out.push(p);
        else if (e.isDirectory()) out.push(...(await walk(p)));
      }
      return out;
    };
    assert.deepEqual(await walk(task.taskDir), [], 'no symlinks out of the task');
    const names = new Set<string>();
    const collect = async (dir: string): Promise<void> => {
      for (const e of await fs.readdir(dir, { withFileTypes: true })) {
        if (e.isDirectory()) await collect(path.join(dir, e.name));
        else names.add(e.name);
      }
    };
    await collect(task.taskDir);
    for (const n of ['oracle.json', 'target.report.json', 'target.pytest-output.txt']) assert.equal(names.has(n), false, n);
    assert.ok(targetReport.length > 0);
    assert.ok(
      !path
        .relative(task.taskDir, task.record.oracleDir)
        .split(path.sep)
        .every((s) => s !== '..'),
      'oracle outside the task',
    );
  });
});
