// Exit 0 is no proof of work, and an agent's home is its own: on the real demo task, with agents
// played by python scripts through the real CLI driver (sandboxed where bubblewrap works).
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { startRun } from '../../../src/core/loop/run-loop';

import { UserError } from '../../../src/core/util/errors';
import { DemoWorld, loopOptions, programmerEnv, pythonScript, scripted } from './demo-fixture';

let world: DemoWorld;
let scripts: string;

const REQUIREMENT =
  '<requirements><requirement id="1"><location>src/tinyinventory/inventory.py</location>' +
  '<description>d</description><contract>c</contract><acceptance>a</acceptance></requirement></requirements>\n';

describe('what an agent try proves, and where it lives', () => {
  before(async () => {
    world = await DemoWorld.create('agent-outcome');
    scripts = world.scratch('scripts');
    await fs.mkdir(scripts, { recursive: true });
    // First try: exits 0 having done nothing, its output saying the model call failed (as Claude
    // Code and Qwen Code print it). Second try: does the work.
    await fs.writeFile(
      path.join(scripts, 'api-error-once.py'),
      [
        'import json, os',
        "state = os.environ['STATE']",
        'if not os.path.exists(state):',
        "    open(state, 'w').write('1')",
        "    print(json.dumps({'type': 'result', 'subtype': 'success', 'is_error': True, 'result': 'API Error: 401 invalid api key'}))",
        'else:',
        `    open('requirement.xml', 'w').write(${JSON.stringify(REQUIREMENT)})`,
        "    print(json.dumps({'type': 'result', 'subtype': 'success', 'is_error': False, 'result': 'done'}))",
      ].join('\n') + '\n',
    );
    // Always exits 0 with an API error as its answer (Qwen Code's "[API Error: …]").
    await fs.writeFile(
      path.join(scripts, 'api-error-always.py'),
      "import json\nprint(json.dumps([{'type': 'result', 'subtype': 'success', 'is_error': False, 'result': '[API Error: Connection error. (cause: fetch failed)]'}]))\n",
    );
    // Reports where its home is, and writes into it as a CLI writes its config and cache.
    await fs.writeFile(
      path.join(scripts, 'home-probe.py'),
      [
        'import os',
        "home = os.environ['HOME']",
        "print('HOME=' + home)",
        "for var in ('XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'TMPDIR'):",
        "    print(var + '=' + os.environ[var])",
        "open(os.path.join(home, '.probe-config'), 'w').write('x')",
        "open(os.path.join(os.environ['TMPDIR'], 'probe.tmp'), 'w').write('x')",
        `open('requirement.xml', 'w').write(${JSON.stringify(REQUIREMENT)})`,
      ].join('\n') + '\n',
    );
  });
  after(async () => {
    await world?.dispose();
  });

  test('a try that exits 0 but whose output reports an API error fails, is retried, and the record says why', async () => {
    const task = await world.task();
    const state = world.scriptedPath('api-error-once');
    await fs.mkdir(path.dirname(state), { recursive: true });
    await startRun(
      loopOptions(
        task,
        'api-error',
        {
          architect: pythonScript(path.join(scripts, 'api-error-once.py'), { env: { STATE: state }, maxTries: 3 }),
          programmer: scripted('programmer.py', { env: programmerEnv(task) }),
        },
        { iterations: 1 },
      ),
    );
    const lines = await readIterationRecords(taskFolder(task.taskDir).run('api-error').iterationsFile);
    assert.equal(lines.length, 2);
    assert.equal(lines[1].architect?.tries, 2);
    assert.deepEqual(lines[1].architect?.failed_tries, ['try 1: exited 0 but the CLI reported an error (success): API Error: 401 invalid api key']);
    assert.equal(lines[1].programmer?.failed_tries, undefined, 'a first-try success lists no failures');
  });

  test('an agent that always answers with an API error fails the step with the reason, and nothing is recorded', async () => {
    const task = await world.task();
    const err = await startRun(
      loopOptions(task, 'api-down', {
        architect: pythonScript(path.join(scripts, 'api-error-always.py'), { maxTries: 2 }),
        programmer: scripted('programmer.py', { env: programmerEnv(task) }),
      }),
    ).catch((e: unknown) => e);
    assert.ok(err instanceof UserError);
    assert.match(err.message, /failed all 2 tries in iteration 1: try 1: exited 0 but the model call failed: \[API Error: Connection error/);
    assert.equal((await readIterationRecords(taskFolder(task.taskDir).run('api-down').iterationsFile)).length, 1);
  });

  test("each try runs in a private home under the task's state: HOME, XDG folders and TMPDIR; the user's home is untouched and the home is gone after", async () => {
    const task = await world.task();
    const userProbe = path.join(os.homedir(), '.probe-config');
    const hadProbe = existsSync(userProbe);
    await startRun(
      loopOptions(
        task,
        'home',
        { architect: pythonScript(path.join(scripts, 'home-probe.py'), { maxTries: 1 }), programmer: scripted('programmer.py', { env: programmerEnv(task) }) },
        { iterations: 1 },
      ),
    );
    const log = await fs.readFile(path.join(taskFolder(task.taskDir).run('home').iterationDir(1), 'architect-try-1.log'), 'utf8');
    const home = path.join(taskFolder(task.taskDir).agentHomeDir, 'architect');
    assert.match(log, new RegExp(`^HOME=${home}$`, 'm'));
    assert.match(log, new RegExp(`^XDG_CONFIG_HOME=${home}/\\.config$`, 'm'));
    assert.match(log, new RegExp(`^XDG_CACHE_HOME=${home}/\\.cache$`, 'm'));
    assert.match(log, new RegExp(`^TMPDIR=${home}/tmp$`, 'm'));
    assert.equal(existsSync(userProbe), hadProbe, "nothing was written into the user's home");
    assert.equal(existsSync(home), false, 'the private home is removed after the step');
    const lines = await readIterationRecords(taskFolder(task.taskDir).run('home').iterationsFile);
    assert.deepEqual(lines[1].outside_changes, [], 'the home is the harness’s, not an outside change');
  });
});
