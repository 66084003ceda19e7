// Exhausting the machine (issue 29) through the container routes, as root, with default
// settings, against the real engines: Docker, and Podman (issue 48) through the same suite.
// Scripted agents in containers and code under test in pytest's container fork 600 sleepers or
// allocate 10 GiB; each is stopped at its limit, named as the reason. Each test fails on a
// harness that lets them through. The unit tier runs this file alone (test/unit-lanes.ts says
// why); the rest of what the routes hold is docker-least-privilege.test.ts.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { DEFAULT_STEP_LIMITS, limitReason } from '../../../src/core/runtime/step-limits';
import { UserError } from '../../../src/core/util/errors';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { ENGINES } from '../helpers/podman';
import { architect, describeRoute, hostile } from './least-privilege-route';

/** "memory limit 8 GiB reached", as the records say it (without the setting's name). */
const MEMORY_REACHED = limitReason('memory', DEFAULT_STEP_LIMITS).replace(/ \(.*\)$/, '');
const MEMORY_LIMIT = MEMORY_REACHED.replace(/^memory limit (.*) reached$/, '$1');

for (const engine of ENGINES) {
  describeRoute(engine, 'exhausting the machine', (route) => {
    test(`600 forked sleepers in an agent's container reach the process limit (${DEFAULT_STEP_LIMITS.processes}), and the try says so`, async () => {
      const taskDir = await route.task();
      const err = await route.loop(taskDir, 'fork', { architect: hostile('fork-bomb.py'), programmer: architect() }).then(
        () => assert.fail('the step should fail'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof UserError, String(err));
      assert.match(err.message, new RegExp(`process limit ${DEFAULT_STEP_LIMITS.processes} reached`));
      const log = await fs.readFile(path.join(taskFolder(taskDir).run('fork').pendingDir, 'architect-try-1.log'), 'utf8');
      const started = Number(/^started (\d+)$/m.exec(log)?.[1]);
      assert.ok(started < 600 && started > 0, `stopped below 600 children: ${started}\n${log}`);
    });

    test(`a 10 GiB allocation in an agent's container is stopped at the memory limit (${MEMORY_LIMIT}), named as the reason`, async () => {
      const taskDir = await route.task();
      const err = await route.loop(taskDir, 'memory', { architect: hostile('allocate.py'), programmer: architect() }).then(
        () => assert.fail('the step should fail'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof UserError, String(err));
      assert.match(err.message, new RegExp(MEMORY_REACHED));
      const log = await fs.readFile(path.join(taskFolder(taskDir).run('memory').pendingDir, 'architect-try-1.log'), 'utf8');
      assert.doesNotMatch(log, /^allocated/m);
    });

    test('code under test that forks 600 sleepers, or allocates 10 GiB, in a pytest container: "did not run", with the limit as the reason', async () => {
      const project = async (name: string, conftest: string): Promise<string> => {
        const code = path.join(route.tmp, name, 'code');
        await fs.mkdir(path.join(code, 'tests'), { recursive: true });
        await fs.writeFile(path.join(code, 'tests', 'test_a.py'), 'def test_a():\n    assert True\n');
        await fs.writeFile(path.join(code, 'conftest.py'), conftest);
        return code;
      };
      const run = (code: string) =>
        runPytest(route.env.tests, {
          python: route.env.python,
          codeDir: code,
          reportFile: path.join(path.dirname(code), 'out', 'report'),
          format: 'junit',
          timeoutMs: 300_000,
        });
      const forks = await run(
        await project(
          'pytest-fork',
          ['import os, time', 'for _ in range(600):', '    if os.fork() == 0:', '        time.sleep(30)', '        os._exit(0)'].join('\n'),
        ),
      );
      assert.equal(forks.kind, 'did-not-run');
      assert.match(forks.kind === 'did-not-run' ? forks.reason : '', new RegExp(`process limit ${DEFAULT_STEP_LIMITS.processes} reached`));
      const memory = await run(await project('pytest-memory', 'block = bytearray(10 * 2**30)\n'));
      assert.equal(memory.kind, 'did-not-run');
      assert.match(memory.kind === 'did-not-run' ? memory.reason : '', new RegExp(MEMORY_REACHED));
    });
  });
}
