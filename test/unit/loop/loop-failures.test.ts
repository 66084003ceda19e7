// Agents that misbehave (hang, fail, write nothing, edit tests, write outside app/code), a
// pytest that crashes mid-loop, and human roles: on the real demo task, real processes.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readJournal } from '../../../src/core/loop/journal';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import type { HumanStep, LoopEvent } from '../../../src/core/loop/loop-types';
import { createRun, removeRunWithoutIterations, runLoop, startRun } from '../../../src/core/loop/run-loop';
import { runCurrentTests } from '../../../src/core/checkout/run-current-tests';

import { UserError } from '../../../src/core/util/errors';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { processTag, waitDead, waitNoneMatching } from '../runtime/process-helpers';
import { missingSandbox } from '../helpers/require-sandbox';
import {
  DemoWorld,
  SANDBOX,
  exists,
  git,
  loopOptions,
  programmerEnv,
  pytestSettings,
  pythonScript,
  runtime,
  scripted,
  type DemoTask,
  type ScriptOptions,
} from './demo-fixture';

let world: DemoWorld;
let scripts: string;

const VALID_REQUIREMENT =
  '<requirements><requirement id="1"><location>src/tinyinventory/inventory.py</location>' +
  '<description>d</description><contract>c</contract><acceptance>a</acceptance></requirement></requirements>\n';

/** A role played by a throwaway python script (its cwd is the task's app/ folder). */
function inline(name: string, extra: ScriptOptions = {}) {
  return pythonScript(path.join(scripts, name), extra);
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

async function lines(task: DemoTask, run: string) {
  return readIterationRecords(taskFolder(task.taskDir).run(run).iterationsFile);
}

describe('the loop when things go wrong', () => {
  before(async () => {
    world = await DemoWorld.create('loop-failures');
    scripts = world.scratch('scripts');
    await fs.mkdir(scripts, { recursive: true });
    await fs.writeFile(path.join(scripts, 'bad-requirement.py'), "open('requirement.xml', 'w').write('<requirements></requirements>')\n");
    // A hostile architect: 10 MB, so parsing it would stall the loop and the editor.
    await fs.writeFile(
      path.join(scripts, 'huge-requirement.py'),
      "open('requirement.xml', 'w').write('<requirements>' + 'x' * 10_000_000 + '</requirements>')\n",
    );
    // Valid, but names a file app/code does not have and a test nobody knows: warnings only.
    await fs.writeFile(
      path.join(scripts, 'warned-requirement.py'),
      `open('requirement.xml', 'w').write(${JSON.stringify(VALID_REQUIREMENT.replace('inventory.py', 'nowhere.py').replace('<acceptance>a</acceptance>', '<acceptance>tests/test_units.py::test_no_such_thing</acceptance>'))})\n`,
    );
    await fs.writeFile(
      path.join(scripts, 'architect-edits-code.py'),
      [
        `open('requirement.xml', 'w').write(${JSON.stringify(VALID_REQUIREMENT)})`,
        "open('code/README.md', 'a').write('architect was here\\n')",
        "open('code/tests/test_units.py', 'a').write('\\ndef test_by_architect():\\n    assert True\\n')",
        "open('code/new_module.py', 'w').write('x = 1\\n')",
      ].join('\n') + '\n',
    );
    // First call: a conftest.py that cannot be imported (pytest exits 4). Second: removes it and
    // breaks the package, so tests that passed at the base fail (regressions).
    await fs.writeFile(
      path.join(scripts, 'crash-programmer.py'),
      [
        'import os, sys',
        "state = os.environ['CRASH_STATE']",
        'if not os.path.exists(state):',
        "    open(state, 'w').write('1')",
        "    open('code/conftest.py', 'w').write('raise RuntimeError(\"broken on purpose\")\\n')",
        'else:',
        "    os.remove('code/conftest.py')",
        "    open('code/src/tinyinventory/units.py', 'a').write('\\ndef convert(*args, **kwargs):\\n    raise RuntimeError(\"broken\")\\n')",
      ].join('\n') + '\n',
    );
    // Plants git hooks and an fsmonitor command in the code repository, then changes the code:
    // each writes its name to HOOK_MARKER if the loop's own git runs it after the agent exited.
    await fs.writeFile(
      path.join(scripts, 'plant-hooks.py'),
      [
        'import os, subprocess',
        "marker = os.environ['HOOK_MARKER']",
        "hooks = os.path.abspath(os.path.join('code', '.git', 'hooks'))",
        'os.makedirs(hooks, exist_ok=True)',
        "for name in ['pre-commit', 'commit-msg', 'post-commit', 'post-index-change', 'reference-transaction', 'post-checkout', 'pre-auto-gc']:",
        '    path = os.path.join(hooks, name)',
        `    open(path, 'w').write('#!/bin/sh\\necho %s $(ps -o args= $PPID) >> "%s"\\n' % (name, marker))`,
        '    os.chmod(path, 0o755)',
        "monitor = os.path.join(hooks, '..', 'monitor.sh')",
        `open(monitor, 'w').write('#!/bin/sh\\necho fsmonitor >> "%s"\\nexit 1\\n' % marker)`,
        'os.chmod(monitor, 0o755)',
        "subprocess.run(['git', '-C', 'code', 'config', 'core.fsmonitor', os.path.abspath(monitor)], check=True)",
        "open('code/README.md', 'a').write('changed by a hostile agent\\n')",
      ].join('\n') + '\n',
    );
  });
  after(async () => {
    await world.dispose();
  });

  test("hooks and an fsmonitor the agent planted in app/code/.git never run on the loop's git", async () => {
    const task = await world.task();
    const marker = world.scratch('hook-marker');
    // This interpreter's pytest-benchmark runs `git describe` in the code folder during pytest: that is
    // the code under test's own process (for the sandbox to confine), not the loop's git; off here.
    const pytest = { ...pytestSettings, env: { PYTEST_ADDOPTS: '-p no:benchmark' } };
    await startRun(
      loopOptions(
        task,
        'hooks',
        { architect: scripted('architect.py'), programmer: inline('plant-hooks.py', { env: { HOOK_MARKER: marker } }) },
        { iterations: 1, pytest },
      ),
    );
    // Read before this test runs git itself (plain git would run them).
    const ran = await fs.readFile(marker, 'utf8').catch(() => '');
    assert.equal(ran, '', `hooks ran: ${ran.trim().split('\n').join(', ')}`);
    const [, one] = await lines(task, 'hooks');
    assert.ok(one.commit, 'the iteration was committed');
    const code = taskFolder(task.taskDir).codeDir;
    assert.match(await git(code, 'show', '--stat', one.commit), /README\.md/, "the agent's change is in the iteration's commit");
  });

  test('an agent that hangs is stopped at its timeout, retried, then fails the iteration clearly; no process is left', async () => {
    const task = await world.task();
    const pids: number[] = [];
    const events: LoopEvent[] = [];
    const tag = processTag('hang-timeout');
    let output = '';
    const opts = loopOptions(
      task,
      'hang',
      { architect: scripted('hang.py', { timeoutSec: 1, maxTries: 2, args: [tag] }), programmer: scripted('programmer.py') },
      {
        onEvent: (e) => {
          events.push(e);
          if (e.type !== 'agent-output') return;
          output += e.chunk;
          for (const m of e.chunk.matchAll(/(?:pid|child)=(\d+)/g)) pids.push(Number(m[1]));
        },
      },
    );
    const err = await startRun(opts).then(
      () => assert.fail('should fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof UserError, String(err));
    assert.match(
      err.message,
      /architect .* failed all 2 tries in iteration 1: try 1: did not finish within 1 s and was stopped; try 2: did not finish within 1 s/,
    );
    assert.equal(pids.length, 4, 'two tries, each an agent and its child');
    // In a sandbox the printed pids are its own namespace's: look for the processes themselves.
    if (!SANDBOX) for (const pid of pids) assert.ok(await waitDead(pid), `process ${pid} left running`);
    // The tag reached the agent's command line (and so its child's): the search below can find them.
    assert.match(output, new RegExp(`args=${tag}\\b`));
    assert.deepEqual(await waitNoneMatching([tag, 'hang.py']), [], 'no agent left running');
    assert.deepEqual(await waitNoneMatching([tag, 'while True: time.sleep(60)']), [], "no agent's child left running");
    assert.equal((await lines(task, 'hang')).length, 1, 'nothing recorded after line 0');
    const layout = taskFolder(task.taskDir).run('hang');
    assert.ok(await exists(path.join(layout.pendingDir, 'architect-try-2.log')));
    const last = events[events.length - 1];
    assert.equal(last.type === 'loop-finished' && last.reason, 'failed');
  });

  test('a Programmer that is not installed stops the run before the Architect runs (no paid step wasted)', async () => {
    const task = await world.task();
    const settings = { kind: 'preset' as const, preset: 'codex' as const, executable: 'no-such-codex-cli', timeoutSec: 60, maxTries: 1 };
    const programmer = { settings, driver: createDriver(settings, { host: runtime }, 'programmer') };
    const events: LoopEvent[] = [];
    const err = await startRun(loopOptions(task, 'missing', { architect: scripted('architect.py'), programmer }, { onEvent: (e) => events.push(e) })).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof UserError, String(err));
    assert.match(err.message, /Cannot run Codex CLI as the programmer: "no-such-codex-cli" was not found\. Install it/);
    assert.equal(err.setting, 'programmer.agent');
    assert.deepEqual(
      events.filter((e) => e.type === 'step-started'),
      [],
      'no step started: the Architect was not run',
    );
    assert.equal(await exists(taskFolder(task.taskDir).requirementFile), false);
  });

  test('opencode with an endpoint and no model is refused before the run is created, naming the setting', async () => {
    const task = await world.task();
    const settings = { kind: 'preset' as const, preset: 'opencode' as const, baseUrl: 'http://127.0.0.1:9/v1', timeoutSec: 60, maxTries: 1 };
    const programmer = { settings, driver: createDriver(settings, { host: runtime }, 'programmer') };
    const events: LoopEvent[] = [];
    const err = await startRun(loopOptions(task, 'no-model', { architect: scripted('architect.py'), programmer }, { onEvent: (e) => events.push(e) })).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof UserError, String(err));
    assert.equal(err.setting, 'programmer.model');
    assert.match(err.message, /opencode as the programmer needs a model .* Set sweci\.programmer\.model/);
    assert.deepEqual(
      events.map((e) => e.type),
      ['loop-finished'],
      'nothing ran: the call only says it failed',
    );
    assert.equal(await exists(taskFolder(task.taskDir).run('no-model').dir), false, 'no run was created');
  });

  test('custom agents with a base URL where nothing answers: the run stops before any step, naming the setting the URL came from', async () => {
    const task = await world.task();
    const closed = await closedPort();
    // As sweci.agents.baseUrl in the settings gives it to both roles.
    const withUrl = (setup: ReturnType<typeof scripted>) => {
      const settings = { ...setup.settings, baseUrl: `http://127.0.0.1:${closed}/v1`, baseUrlFrom: 'agents.baseUrl' } as typeof setup.settings;
      return { settings, driver: createDriver(settings, { host: runtime }) };
    };
    const roles = { architect: withUrl(scripted('architect.py')), programmer: withUrl(scripted('programmer.py', { env: programmerEnv(task) })) };
    const events: LoopEvent[] = [];
    const err = await startRun(loopOptions(task, 'dead-endpoint', roles, { onEvent: (e) => events.push(e) })).catch((e: unknown) => e);
    assert.ok(err instanceof UserError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `architect and programmer .*nothing answered at http://127\\.0\\.0\\.1:${closed}/v1/models \\(ECONNREFUSED\\).*fix sweci\\.agents\\.baseUrl\\. Nothing was run\\.`,
      ),
    );
    assert.equal(err.setting, 'agents.baseUrl');
    assert.deepEqual(
      events.filter((e) => e.type === 'step-started' || e.type === 'iteration-recorded'),
      [],
      'no step ran, nothing was recorded',
    );
    // Line 0 is the base's measurement, not an iteration: no agent's iteration was recorded.
    assert.deepEqual(
      (await lines(task, 'dead-endpoint').catch(() => [])).filter((r) => r.iteration > 0),
      [],
    );
  });

  test("a run whose first step failed every try is kept with its agent's logs, which the failure message points to", async () => {
    const task = await world.task();
    const err = await startRun(
      loopOptions(task, 'arch-fails', { architect: scripted('fail.py', { maxTries: 1 }), programmer: scripted('programmer.py') }),
    ).catch((e: unknown) => e);
    assert.ok(err instanceof UserError);
    const pending = taskFolder(task.taskDir).run('arch-fails').pendingDir;
    assert.ok(err.message.includes(pending), err.message);
    assert.equal(await removeRunWithoutIterations(taskFolder(task.taskDir), 'arch-fails'), false);
    assert.ok(await exists(path.join(pending, 'architect-try-1.log')), 'the log the message names is there');
  });

  test('a custom agent that imports a module beside its script, in a folder the sandbox does not show, is told so', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const task = await world.task();
    // The script is on its command line (shown); its sibling is not, and its folder is not readable.
    await fs.writeFile(path.join(scripts, 'helper_beside.py'), 'VALUE = 1\n');
    await fs.writeFile(
      path.join(scripts, 'imports-beside.py'),
      'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\nimport helper_beside\n',
    );
    const err = await startRun(
      loopOptions(task, 'beside', { architect: inline('imports-beside.py', { maxTries: 1 }), programmer: scripted('programmer.py') }),
    ).catch((e: unknown) => e);
    assert.ok(err instanceof UserError);
    assert.match(
      err.message,
      /failed its only try in iteration 1: try 1: exited with code 1\. Its last try said: "ModuleNotFoundError: No module named 'helper_beside'"\./,
    );
    assert.match(err.message, /shows a custom command only the absolute paths on its command line and sweci\.sandboxReadablePaths/);
  });

  test('a programmer that exits non-zero fails after its tries; resuming retries only that step', async () => {
    const task = await world.task();
    const architect = scripted('architect.py');
    const err = await startRun(loopOptions(task, 'fail', { architect, programmer: scripted('fail.py', { maxTries: 2 }) })).catch((e: unknown) => e);
    assert.ok(err instanceof UserError);
    assert.match(err.message, /programmer .* failed all 2 tries in iteration 1: try 1: exited with code 3; try 2: exited with code 3/);
    // The exit code alone says nothing: the last try's own words say why.
    assert.match(err.message, /Its last try said: "fail: Error: model quota exceeded \(scripted\)"\./);
    assert.doesNotMatch(err.message, /sandboxReadablePaths/, 'no sandbox hint for an error that is not about a missing file');
    assert.equal((await lines(task, 'fail')).length, 1);
    const journal = await readJournal(taskFolder(task.taskDir).run('fail').pendingDir);
    assert.equal(journal?.lastCompletedStep, 'architect');

    const events: LoopEvent[] = [];
    const result = await runLoop(
      loopOptions(
        task,
        'fail',
        { architect, programmer: scripted('programmer.py', { env: programmerEnv(task) }) },
        { iterations: 1, onEvent: (e) => events.push(e) },
      ),
    );
    assert.equal(result.reason, 'paused');
    const records = await lines(task, 'fail');
    assert.equal(records.length, 2);
    assert.equal(records[1].iteration, 1);
    assert.ok(records[1].gap < records[0].gap);
    assert.equal(events.filter((e) => e.type === 'step-started' && e.step === 'architect').length, 0, 'the architect is not run again');
    const archive = taskFolder(task.taskDir).run('fail').iterationDir(1);
    assert.ok(await exists(path.join(archive, 'programmer-interrupted-1-try-2.log')), 'the failed tries keep their logs');
  });

  test('an architect that writes no requirement.xml, or an invalid one, fails with the reason', async () => {
    const task = await world.task();
    const none = await startRun(
      loopOptions(task, 'none', { architect: scripted('no-output.py', { maxTries: 1 }), programmer: scripted('programmer.py') }),
    ).catch((e: unknown) => e);
    assert.ok(none instanceof UserError);
    assert.match(none.message, /failed its only try in iteration 1: try 1: wrote no requirement\.xml/);

    const task2 = await world.task();
    const bad = await startRun(
      loopOptions(task2, 'bad', { architect: inline('bad-requirement.py', { maxTries: 1 }), programmer: scripted('programmer.py') }),
    ).catch((e: unknown) => e);
    assert.ok(bad instanceof UserError);
    assert.match(bad.message, /try 1: requirement\.xml line \d+: /);
    assert.equal((await lines(task2, 'bad')).length, 1);

    const task3 = await world.task();
    const huge = await startRun(
      loopOptions(task3, 'huge', { architect: inline('huge-requirement.py', { maxTries: 1 }), programmer: scripted('programmer.py') }),
    ).catch((e: unknown) => e);
    assert.ok(huge instanceof UserError);
    assert.match(
      huge.message,
      /try 1: requirement\.xml line 1: requirement\.xml has 10000029 bytes; a requirement document is at most 65536 characters \(262144 bytes\)/,
    );
  });

  test("the Architect's requirement is checked as the editor checks it: warnings are reported, not failed", async () => {
    const task = await world.task();
    const events: LoopEvent[] = [];
    await startRun(
      loopOptions(
        task,
        'warned',
        { architect: inline('warned-requirement.py', { maxTries: 1 }), programmer: scripted('programmer.py', { env: programmerEnv(task) }) },
        { iterations: 1, onEvent: (e) => events.push(e) },
      ),
    );
    const finished = events.find((e) => e.type === 'step-finished' && e.step === 'architect');
    assert.ok(finished?.type === 'step-finished' && finished.ok);
    assert.match(
      finished.message ?? '',
      /^2 warnings: requirement\.xml line 1: Requirement 1: src\/tinyinventory\/nowhere\.py does not exist under app\/code.*; requirement\.xml line 1: Requirement 1: tests\/test_units\.py::test_no_such_thing is not a known test/,
    );
    assert.equal((await lines(task, 'warned')).length, 2, 'the iteration was recorded');
  });

  test('a programmer that edits tests/: restored before pytest, flagged in tampered, never scored', async () => {
    const task = await world.task();
    await startRun(loopOptions(task, 'tamper', { architect: scripted('architect.py'), programmer: scripted('tamper.py') }, { iterations: 1 }));
    const [zero, one] = await lines(task, 'tamper');
    assert.equal(one.tampered.length, 1);
    assert.match(one.tampered[0], /^tests\/test_.*\.py$/);
    assert.equal(one.gap, zero.gap, 'the added test does not count');
    const report = JSON.parse(await fs.readFile(path.join(taskFolder(task.taskDir).run('tamper').iterationDir(1), 'report.json'), 'utf8')) as {
      tests: Array<{ nodeid: string }>;
    };
    assert.ok(report.tests.every((t) => !t.nodeid.includes('test_tampered_by_agent')));
    const restored = await fs.readFile(path.join(taskFolder(task.taskDir).codeDir, one.tampered[0]), 'utf8');
    const original = await fs.readFile(path.join(oracleLayout(task.record.oracleDir).targetCodeDir, one.tampered[0]), 'utf8');
    assert.equal(restored, original);
    assert.doesNotMatch(await git(taskFolder(task.taskDir).codeDir, 'show', '--stat', one.commit), /tests\//);
  });

  test('an architect that edits code: its edits are discarded and reported; its test edits are tampering', async () => {
    const task = await world.task();
    await startRun(loopOptions(task, 'arch-code', { architect: inline('architect-edits-code.py'), programmer: scripted('no-output.py') }, { iterations: 1 }));
    const [, one] = await lines(task, 'arch-code');
    assert.deepEqual(one.architect?.discarded_changes, ['README.md', 'new_module.py']);
    assert.deepEqual(one.tampered, ['tests/test_units.py']);
    const code = taskFolder(task.taskDir).codeDir;
    assert.equal(await exists(path.join(code, 'new_module.py')), false);
    assert.doesNotMatch(await fs.readFile(path.join(code, 'README.md'), 'utf8'), /architect was here/);
    assert.equal((await git(code, 'diff', '--stat', `${one.commit}~1`, one.commit)).trim(), '', 'iteration 1 changed nothing');
  });

  test('an agent that writes outside app/code is flagged in outside_changes', async () => {
    const task = await world.task();
    await startRun(loopOptions(task, 'outside', { architect: scripted('architect.py'), programmer: scripted('outside.py') }, { iterations: 1 }));
    const [, one] = await lines(task, 'outside');
    // A sandboxed agent's write into .sweci lands in an empty stand-in that is thrown away.
    assert.deepEqual(one.outside_changes, SANDBOX ? ['app/stray.txt'] : ['.sweci/stray', 'app/stray.txt']);
    assert.equal(await exists(path.join(task.taskDir, '.sweci', 'stray')), !SANDBOX);
    assert.deepEqual(one.tampered, []);
  });

  test('a pytest crash mid-loop records gap −1 as the reference does and the loop goes on', async () => {
    const task = await world.task();
    const state = world.scriptedPath('crash-state');
    const result = await startRun({
      ...loopOptions(task, 'crash', { architect: scripted('architect.py'), programmer: inline('crash-programmer.py', { env: { CRASH_STATE: state } }) }),
      maxIterations: 2,
    });
    assert.equal(result.reason, 'max-iterations');
    const [zero, one, two] = await lines(task, 'crash');
    assert.equal(one.gap, -1);
    assert.deepEqual(one.pytest, {});
    assert.equal(one.passed, null);
    assert.match(one.pytest_error!, /pytest exited with code [234]/);
    assert.deepEqual(one.regressions, [], 'a run that did not happen is not compared');
    const summary1 = (await fs.readFile(path.join(taskFolder(task.taskDir).run('crash').iterationDir(1), 'summary.jsonl'), 'utf8')).split('\n').filter(Boolean);
    assert.equal(summary1.length, zero.target_passed, 'the architect then sees every target test as not run');
    assert.ok(await exists(path.join(taskFolder(task.taskDir).run('crash').iterationDir(1), 'pytest-output.txt')));
    assert.ok(two.gap >= 0, 'iteration 2 ran again');
    assert.ok(two.regressions.length > 0, 'compared against line 0, the last run that ran');
    assert.ok(two.gap > zero.gap);
  });

  test("line 0 comes from the checkout's base run; without it, the base is measured when the run is created", async () => {
    const task = await world.task();
    const reports = taskFolder(task.taskDir).reportsDir;
    assert.ok(await exists(path.join(reports, 'base.report.json')), 'the checkout kept the base result');
    // A Refresh on changed code does not replace the base's result.
    await fs.appendFile(path.join(taskFolder(task.taskDir).codeDir, 'README.md'), 'edit\n');
    const before = await fs.readFile(path.join(reports, 'base.run.json'), 'utf8');
    await runCurrentTests({ ...pytestSettings, task: taskFolder(task.taskDir), record: task.record, runtime });
    assert.equal(await fs.readFile(path.join(reports, 'base.run.json'), 'utf8'), before);
    await git(taskFolder(task.taskDir).codeDir, 'checkout', '--', 'README.md');

    for (const f of ['base.report.json', 'base.run.json']) await fs.rm(path.join(reports, f));
    const events: LoopEvent[] = [];
    await createRun({
      task: taskFolder(task.taskDir),
      run: 'measured',
      roles: { architect: scripted('architect.py'), programmer: scripted('programmer.py') },
      runtime,
      pytest: pytestSettings,
      onEvent: (e) => events.push(e),
    });
    assert.deepEqual(
      events.filter((e) => e.type === 'step-started').map((e) => e.type === 'step-started' && `${e.iteration}:${e.step}`),
      ['0:pytest'],
    );
    const [zero] = await lines(task, 'measured');
    assert.equal(zero.gap, task.record.task.expectedGap);
    assert.equal(zero.commit, task.record.baseCommit);
    assert.ok(await exists(path.join(reports, 'base.report.json')), 'kept for the next run');
  });

  test('human roles: the callback is awaited, an invalid requirement is sent back, the kind is human', async () => {
    const task = await world.task();
    const asked: Array<{ role: string; problems?: string[] }> = [];
    const human: HumanStep = async (req) => {
      asked.push({ role: req.role, problems: req.problems });
      await new Promise((r) => setTimeout(r, 150));
      if (req.role === 'architect') {
        await fs.writeFile(req.requirementFile, asked.length === 1 ? '<requirements>' : VALID_REQUIREMENT);
      } else {
        await fs.appendFile(path.join(req.codeDir, 'README.md'), 'edited by a human\n');
      }
    };
    await startRun(
      loopOptions(
        task,
        'human',
        { architect: { settings: { kind: 'human' } }, programmer: { settings: { kind: 'human' } } },
        { humanStep: human, iterations: 1 },
      ),
    );
    assert.deepEqual(
      asked.map((a) => a.role),
      ['architect', 'architect', 'programmer'],
    );
    assert.ok(asked[1].problems?.[0]?.includes('requirement.xml'));
    const [, one] = await lines(task, 'human');
    assert.equal(one.architect?.kind, 'human');
    assert.equal(one.architect?.tries, 2);
    assert.ok(one.architect.execution_time! >= 0.3);
    assert.equal(one.programmer?.kind, 'human');
    assert.ok(one.programmer.execution_time! >= 0.15);
    assert.match(await git(taskFolder(task.taskDir).codeDir, 'show', '--stat', one.commit), /README\.md/);

    const task2 = await world.task();
    const err = await startRun(loopOptions(task2, 'nobody', { architect: { settings: { kind: 'human' } }, programmer: scripted('programmer.py') })).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof UserError);
    assert.match(err.message, /played by a human, but nothing can ask one here/);
  });
});
