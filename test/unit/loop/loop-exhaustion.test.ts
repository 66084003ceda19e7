// Exhausting the machine (issue 29) through the real loop, confined by the sandbox, as CI and
// cluster pods run it: as root, with default settings. A scripted hostile agent forks 600
// sleepers or allocates 10 GiB; each is stopped at its limit, named as the reason. Each test
// fails on a harness that lets them through. The unit tier runs this file alone
// (test/unit-lanes.ts): beside other files, the allocation could not reach the memory limit
// within its step's time (the machine's memory was the suite's), and would starve them.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startRun } from '../../../src/core/loop/run-loop';
import { DEFAULT_STEP_LIMITS, limitReason } from '../../../src/core/runtime/step-limits';
import { UserError } from '../../../src/core/util/errors';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { ALLOCATE_10_GIB, FORK_600_SLEEPERS } from '../helpers/hostile-code';
import { missingSandbox } from '../helpers/require-sandbox';
import { DemoWorld, SANDBOX, loopOptions, pythonScript, scripted } from './demo-fixture';

/** "memory limit 8 GiB reached", as the records say it (without the setting's name). */
const MEMORY_REACHED = limitReason('memory', DEFAULT_STEP_LIMITS).replace(/ \(.*\)$/, '');
const MEMORY_LIMIT = MEMORY_REACHED.replace(/^memory limit (.*) reached$/, '$1');

let world: DemoWorld;
let scripts: string;

/** A role that runs once: a limit reached must end the step, not be tried again. */
const once = (file: string) => pythonScript(path.join(scripts, file), { maxTries: 1, timeoutSec: 120 });

describe('exhausting the machine: a confined agent', () => {
  before(async () => {
    world = await DemoWorld.create('exhaustion');
    scripts = world.scratch('scripts');
    await fs.mkdir(scripts, { recursive: true });
    await fs.writeFile(path.join(scripts, 'fork-bomb.py'), FORK_600_SLEEPERS.join('\n') + '\n');
    await fs.writeFile(path.join(scripts, 'allocate.py'), ALLOCATE_10_GIB.join('\n') + '\n');
  });
  after(async () => {
    await world.dispose();
  });

  /** Runs `script` as the Architect of a one-iteration run: the step must fail; its error and its try's log. */
  async function failedArchitect(run: string, script: string): Promise<{ message: string; log: string }> {
    const task = await world.task();
    const err = await startRun(loopOptions(task, run, { architect: once(script), programmer: scripted('programmer.py') }, { iterations: 1 })).then(
      () => assert.fail('the step should fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof UserError, String(err));
    const log = await fs.readFile(path.join(taskFolder(task.taskDir).run(run).pendingDir, 'architect-try-1.log'), 'utf8');
    return { message: err.message, log };
  }

  test(`600 forked sleepers reach the process limit (${DEFAULT_STEP_LIMITS.processes}), and the try says so`, async (t) => {
    if (!SANDBOX) return missingSandbox(t, 'bubblewrap cannot run here: the loop is not isolated');
    const { message, log } = await failedArchitect('fork', 'fork-bomb.py');
    assert.match(message, new RegExp(`process limit ${DEFAULT_STEP_LIMITS.processes} reached`));
    const started = Number(/^started (\d+)$/m.exec(log)?.[1]);
    assert.ok(started < 600 && started > 0, `stopped below 600 children: ${started}`);
  });

  test(`a 10 GiB allocation is stopped at the memory limit (${MEMORY_LIMIT}), named as the reason`, async (t) => {
    if (!SANDBOX) return missingSandbox(t, 'bubblewrap cannot run here: the loop is not isolated');
    const { message, log } = await failedArchitect('memory', 'allocate.py');
    assert.match(message, new RegExp(MEMORY_REACHED));
    assert.doesNotMatch(log, /^allocated/m);
  });
});
