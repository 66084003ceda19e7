// sweci run --sequence as a user runs it: a generated repository whose history holds three
// SWE-bench-style tasks (real test patches, real FAIL_TO_PASS / PASS_TO_PASS lists), a
// SWE-Bench-CL sequence file, and a scripted agent that resolves task 1 and breaks it again while
// doing tasks 2 and 3. The results matrix and the continual-learning metrics must show it.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { backwardTransfer, forgetting, accuracy } from '../../../src/core/sequence/cl-metrics';
import { readClResults } from '../../../src/core/sequence/cl-results';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { buildSequenceFixture } from '../helpers/sequence-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
let tmp: string;

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache') } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('sweci run --sequence', () => {
  let sequenceFile: string;
  let settingsFile: string;

  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-sequence-')));
    ({ sequenceFile, settingsFile } = await buildSequenceFixture(tmp));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('tasks run in order with memory; the matrix, BWT and forgetting show task 1 broken by the later tasks; a rerun changes nothing', async () => {
    const experiment = path.join(tmp, 'exp');
    const args = ['run', '--sequence', sequenceFile, '--repos', tmp, '--experiment', experiment, '--config', settingsFile, '--memory', '--run', 'agent'];
    const flags = ['--max-iterations', '2', '--runtime', 'local', '--format', 'junit', '--json'];
    const first = sweci(...args, ...flags);
    assert.equal(first.code, 0, first.err + first.out.slice(-2000));

    const results = await readClResults(experiment);
    assert.deepEqual(results?.tasks, ['acme__calc-1', 'acme__calc-2', 'acme__calc-3']);
    assert.deepEqual(results?.matrix, [
      [1, null, null],
      [0, 1, null],
      [0, 1, 1],
    ]);
    const m = results.matrix.map((r) => r ?? []);
    assert.equal(accuracy(m), 2 / 3);
    assert.equal(backwardTransfer(m), -0.5);
    assert.equal(forgetting(m), 0.5);
    assert.match(first.out, /ACC\s+0\.6667/);
    assert.match(first.out, /BWT\s+-0\.5000/);
    assert.match(first.out, /forgetting\s+0\.5000/);
    assert.match(first.out, /FWT\s+n\/a \(/, 'no zero-shot run: FWT is not made up');
    assert.ok(results.runs.every((r) => r?.resolved === true && r.seconds > 0));
    const summary = sweci('summarize', experiment);
    assert.equal(summary.code, 0, summary.err);
    assert.match(summary.out, /acme__calc-1/);
    assert.match(summary.out, /BWT\s+-0\.5000/);

    // The memory folder went from task to task: the agent saw three different tasks.
    const seen = JSON.parse(await fs.readFile(path.join(experiment, 'memory', 'seen.json'), 'utf8')) as string[];
    assert.equal(seen.length, 3);

    const iterations = async () =>
      Promise.all(results.tasks.map(async (id) => (await readIterationRecords(taskFolder(path.join(experiment, id)).run('agent').iterationsFile)).length));
    const before = await iterations();
    assert.deepEqual(before, [2, 2, 2], 'each task solved in one iteration (iteration 0 is the base)');
    const again = sweci(...args, ...flags);
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(await readClResults(experiment), results);
    assert.deepEqual(await iterations(), before, 'finished tasks are not run again');

    // The matrix says what it holds: SWE-Bench-CL's success rate unless --matrix resolved is asked
    // for; a sequence keeps the kind it started with.
    assert.equal(results.cells, 'fraction');
    assert.match(first.out, /each entry: the share of the task's tests that pass \(SWE-Bench-CL's a_ij/);
    const mixed = sweci(...args, ...flags, '--matrix', 'resolved');
    assert.notEqual(mixed.code, 0);
    assert.match(mixed.err, /results matrix holds success rates, not resolved \(1 or 0\): continue it with --matrix fraction/);
    assert.deepEqual(await readClResults(experiment), results, 'nothing changed');
  });

  test('without --memory every task looks like the first to the agent: tasks 2 and 3 stay unresolved', async () => {
    const experiment = path.join(tmp, 'exp-no-memory');
    const r = sweci(
      ...['run', '--sequence', sequenceFile, '--repos', tmp, '--experiment', experiment, '--config', settingsFile],
      ...['--max-iterations', '1', '--runtime', 'local', '--format', 'junit', '--json'],
    );
    assert.equal(r.code, 0, r.err + r.out.slice(-2000));
    const results = await readClResults(experiment);
    assert.equal(results?.memory, false);
    assert.deepEqual(
      results?.matrix.map((row, i) => row?.[i]),
      [1, 0, 0],
    );
    await assert.rejects(fs.access(path.join(experiment, 'memory')), 'no memory folder');
    const mixed = sweci(
      'run',
      '--sequence',
      sequenceFile,
      '--repos',
      tmp,
      '--experiment',
      experiment,
      '--config',
      settingsFile,
      '--memory',
      '--runtime',
      'local',
    );
    assert.equal(mixed.code, 1);
    assert.match(mixed.err, /records the sequence calc_sequence \(memory off\), not this one/);
  });

  test('tasks whose tests cannot run are init-failed, as in a batch: the sequence goes on, their rows say nothing was measured', async () => {
    const experiment = path.join(tmp, 'exp-broken');
    const broken = path.join(tmp, 'broken-python');
    await fs.writeFile(broken, '#!/bin/sh\necho "ImportError: the environment is broken" >&2\nexit 4\n', { mode: 0o755 });
    const r = sweci(
      ...['run', '--sequence', sequenceFile, '--repos', tmp, '--experiment', experiment, '--config', settingsFile, '--run', 'agent'],
      ...['--runtime', 'local', '--python', broken],
    );
    assert.equal(r.code, 0, r.err + r.out.slice(-2000));
    assert.match(r.out, /finished: 3 init-failed/);
    const results = await readClResults(experiment);
    assert.deepEqual(results?.matrix, [
      [null, null, null],
      [null, null, null],
      [null, null, null],
    ]);
    assert.match(r.out, /ACC\s+n\/a \(/);
    const status = JSON.parse(await fs.readFile(path.join(experiment, '.sweci-batch', 'acme__calc-1.json'), 'utf8')) as { reason: string };
    assert.match(status.reason, /pytest did not run on the base with the test patch/);
  });

  test('forward transfer: the zero-shot results come from the memory-off run beside it (or the one given); a run with memory is no baseline', () => {
    // exp (memory: diagonal 1, 1, 1) and exp-no-memory (diagonal 1, 0, 0) were run above; exp-broken
    // is memory-off too but measured nothing, so it is not the baseline picked.
    const auto = sweci('summarize', path.join(tmp, 'exp'));
    assert.equal(auto.code, 0, auto.err);
    assert.match(auto.out, /FWT\s+1\.0000\s+\(zero-shot: exp-no-memory\)/);
    const score = (out: string) => Number(/CL-Score\s+(-?\d\.\d{4})/.exec(out)?.[1]);
    assert.ok(Number.isFinite(score(auto.out)), 'with FWT known, the composite score is too');
    // λFT = 0 takes FWT (1.0) out of CL-Score, and nothing else.
    const noFt = sweci('summarize', path.join(tmp, 'exp'), '--cl-weights', 'ft=0');
    assert.equal(noFt.code, 0, noFt.err);
    assert.equal((score(auto.out) - score(noFt.out)).toFixed(4), '1.0000');
    const badWeights = sweci('summarize', path.join(tmp, 'exp'), '--cl-weights', 'lambda=1');
    assert.equal(badWeights.code, 1);
    assert.match(badWeights.err, /--cl-weights has no weight "lambda"/);
    const given = sweci('summarize', path.join(tmp, 'exp'), '--zero-shot', path.join(tmp, 'exp-broken'));
    assert.equal(given.code, 0, given.err);
    assert.match(given.out, /FWT\s+n\/a \(/, 'the given baseline measured nothing');
    const memoryOn = sweci('summarize', path.join(tmp, 'exp-no-memory'), '--zero-shot', path.join(tmp, 'exp'));
    assert.match(memoryOn.out, /FWT\s+n\/a \(this run has no memory: it is the zero-shot baseline/);
    const notBaseline = sweci('summarize', path.join(tmp, 'exp'), '--zero-shot', path.join(tmp, 'exp'));
    assert.equal(notBaseline.code, 1);
    assert.match(notBaseline.err, /was run with memory: the zero-shot baseline is a run of the sequence without --memory/);
    const stray = sweci('run', '--dataset', tmp, '--experiment', path.join(tmp, 'x'), '--memory');
    assert.equal(stray.code, 1);
    assert.match(stray.err, /--memory belongs to a sequence run/);
  });
});
