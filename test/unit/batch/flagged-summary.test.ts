// A flagged run is never shown as plainly solved (issue 29): `sweci summarize`, `sweci compare`
// and `sweci report` name the flag beside its score, in `solved` and in every average that
// includes it. Real runs of the real loop: the honest scripted agents solve the demo task once
// without isolation (flagged not-isolated) and once sandboxed; a Programmer that grows a
// parametrized table gets flagged inflated. Then the real CLI reads the folders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createDriver } from '../../../src/core/agents/cli-driver';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { startRun } from '../../../src/core/loop/run-loop';
import { DEFAULT_MAX_ITERATIONS } from '../../../src/core/loop/run-store';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { writeExperimentRecord } from '../helpers/experiment-record';
import { AGENTS_DIR, DemoWorld, PYTHON, SANDBOX, loopOptions, programmerEnv, scripted, type DemoTask } from '../loop/demo-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
const sweci = (...args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  return r.stdout;
};

let world: DemoWorld;
let expA: string;
let expB: string;

/**
 * A fresh copy of the demo task, moved into `experiment` as `id` before anything runs in it. The
 * scripted Programmer is given the base and the target only: it writes the target's code in its
 * first step, so the task is solved in one iteration (replaying the ten commits one by one would
 * only make the runs longer: the flags and the solved counts are what is read here).
 */
async function taskIn(experiment: string, id: string): Promise<DemoTask> {
  const task = await world.task();
  const taskDir = path.join(experiment, id);
  await fs.rename(task.taskDir, taskDir);
  return { ...task, taskDir, commits: [task.commits[0], task.commits[task.commits.length - 1]] };
}

function honestRoles(task: DemoTask, host: LocalRuntime) {
  const script = (name: string, env?: Record<string, string>): AgentSettings => ({
    kind: 'custom',
    command: `${PYTHON} ${JSON.stringify(path.join(AGENTS_DIR, name))}`,
    promptVia: 'stdin',
    timeoutSec: 60,
    maxTries: 2,
    ...(env ? { env } : {}),
  });
  const architect = script('architect.py');
  const programmer = script('programmer.py', programmerEnv(task, world.scriptedPath('programmer-state')));
  return {
    architect: { settings: architect, driver: createDriver(architect, { host }) },
    programmer: { settings: programmer, driver: createDriver(programmer, { host }) },
  };
}

describe('flagged runs in summarize, compare and report', () => {
  before(async () => {
    world = await DemoWorld.create('flagged-summary');
    expA = world.scratch('exp-a');
    expB = world.scratch('exp-b');
    await fs.mkdir(expA);
    await fs.mkdir(expB);
    // What `sweci run --experiment` writes first: the CLI's verbs refuse a folder without it. N is
    // the runs' own (the loop's default), so the scores are each task's as before.
    for (const exp of [expA, expB]) await writeExperimentRecord(exp, world.scratch('dataset'), DEFAULT_MAX_ITERATIONS);
    // A: t1 solved by honest agents with no sandbox at all; t2 inflated by a table it grows.
    const open = new LocalRuntime({ orphanGraceMs: 500 });
    const t1 = await taskIn(expA, 't1');
    await startRun(loopOptions(t1, 'run', honestRoles(t1, open), { runtime: open, agentRuntimes: { host: open } }));
    const t2 = await taskIn(expA, 't2');
    await startRun(loopOptions(t2, 'run', { architect: scripted('architect.py'), programmer: scripted('grow-table.py') }, { iterations: 1 }));
    // B: the same task solved by the same agents, sandboxed.
    const b1 = await taskIn(expB, 't1');
    await startRun(
      loopOptions(b1, 'run', {
        architect: scripted('architect.py'),
        programmer: scripted('programmer.py', { env: programmerEnv(b1, world.scriptedPath('b-state')) }),
      }),
    );
  });
  after(() => world?.dispose());

  test('summarize names the flag beside the score, in solved and in the averages; the strict options keep excluding', () => {
    const json = JSON.parse(sweci('summarize', expA, '--format', 'json', '--keep-flagged')) as {
      groups: { rows: { task: string; metrics: { solved: boolean; scoreFlags: string[] } }[]; average: { flagged: unknown; solvedFlagged: unknown } }[];
    };
    const [group] = json.groups;
    const row = (id: string) => group.rows.find((r) => r.task === id)!.metrics;
    assert.equal(row('t1').solved, true, 'the honest agents solve it');
    assert.deepEqual(row('t1').scoreFlags, ['not-isolated']);
    assert.deepEqual(row('t2').scoreFlags, ['inflated']);
    assert.deepEqual(group.average.flagged, { runs: 2, flags: ['inflated', 'not-isolated'] });
    assert.deepEqual(group.average.solvedFlagged, { runs: 1, flags: ['not-isolated'] });

    const table = sweci('summarize', expA, '--keep-flagged');
    assert.match(table, /^t1 +\d\.\d{4} ⚑ not-isolated +1 ⚑ not-isolated /m, table);
    assert.match(table, /^t2 +\d\.\d{4} ⚑ inflated +0 /m, table);
    assert.match(table, /^average \(2, 2 flagged\) +\d\.\d{4} +0\.5000 \(1 solved, 1 flagged: not-isolated\) .* 2 flagged: inflated, not-isolated$/m, table);
    // By default the inflated passes are taken out of t2's score (issue 43): its score rests on no flag.
    const honest = sweci('summarize', expA);
    assert.match(honest, /^t1 +\d\.\d{4} ⚑ not-isolated +1 ⚑ not-isolated /m, honest);
    assert.match(honest, /^t2 +\d\.\d{4} +0 /m, honest);
    assert.match(honest, /^average \(2, 1 flagged\) .* 1 flagged: not-isolated$/m, honest);
    const markdown = sweci('summarize', expA, '--format', 'markdown');
    assert.match(markdown, /^\| t1 \| \d\.\d{4} ⚑ not-isolated \| 1 ⚑ not-isolated \|/m, markdown);

    // Scored over the target's tests only, the inflated passes count for nothing: no longer flagged in the counts.
    const strict = sweci('summarize', expA, '--score-target-tests-only');
    assert.match(strict, /^t2 +\d\.\d{4} +0 /m, strict);
    assert.match(strict, /^average \(2, 1 flagged\) .* 1 flagged: not-isolated$/m, strict);
  });

  test('compare names the flag beside the flagged side only, in solved and in the averages', () => {
    const table = sweci('compare', expA, expB);
    assert.match(table, /^t1 +\d\.\d{4} ⚑ not-isolated +\d\.\d{4} +[+-]\d\.\d{4} +1 ⚑ not-isolated +1 /m, table);
    assert.match(
      table,
      /^average \(1\) +\d\.\d{4} \(1 flagged: not-isolated\) +\d\.\d{4} +[+-]\d\.\d{4} +1\.0000 \(1 flagged: not-isolated\) +1\.0000 /m,
      table,
    );
    if (SANDBOX)
      assert.doesNotMatch(
        table.split('\n').find((l) => l.startsWith('average'))!,
        /\d\.\d{4} \(.*\d\.\d{4} \(.*\d\.\d{4} \(/,
        'B is not flagged',
      );
  });

  test("the report's index names the flag beside the score, in solved and in the averages", async () => {
    const out = world.scratch('report');
    sweci('report', expA, '-o', out, '--keep-flagged');
    const index = await fs.readFile(path.join(out, 'index.html'), 'utf8');
    assert.match(index, /t1<\/a><\/td><td>\d\.\d{4} ⚑ not-isolated<\/td><td>1 ⚑ not-isolated<\/td>/);
    assert.match(index, /<td>average \(2, 2 flagged\)<\/td><td>\d\.\d{4}<\/td><td>0\.5000 \(1 solved, 1 flagged: not-isolated\)<\/td>/);
    const csv = await fs.readFile(path.join(out, 'tasks', 't1', 'metrics.csv'), 'utf8');
    assert.match(csv.split('\n')[0], /,score_flags$/);
    assert.match(csv.split('\n')[1], /,true,.*,not-isolated$/);
  });
});
