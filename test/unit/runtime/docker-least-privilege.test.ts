// Least privilege (issue 29) through the container routes, as CI and cluster pods run them: as
// root, with default settings, against the real engines: Docker, and Podman (issue 48) through
// the same suite. Scripted hostile agents in containers and a hostile package under test in
// pytest's container try to be root, to set the host's core_pattern, to write outside their
// mounts and to read the harness's environment. Each test fails on a harness that lets them.
// Exhausting the machine through the same routes is docker-exhaustion.test.ts (it runs alone).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { DEFAULT_RUNTIME_SETTINGS } from '../../../src/core/runtime/runtime-settings';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { AGENTS_IN_IMAGE } from '../helpers/docker';
import { ENGINES } from '../helpers/podman';
import { architect, describeRoute, hostile, inContainer } from './least-privilege-route';

/** Checks one probe line: not root, no capabilities, neither core_pattern nor the image writable. */
function assertHeld(line: string): void {
  const m = /^\w+ uid (\d+) gid (\d+) capeff ([0-9a-f]+) core_pattern (.*) rootfs (.*) MYSECRET (\S+)$/.exec(line);
  assert.ok(m, line);
  assert.notEqual(Number(m[1]), 0, `not uid 0: ${line}`);
  assert.notEqual(Number(m[2]), 0, `not gid 0: ${line}`);
  assert.equal(Number(m[1]), DEFAULT_RUNTIME_SETTINGS.sandboxUser.uid, `run by root, a container is the sandbox user: ${line}`);
  assert.equal(BigInt(`0x${m[3]}`), 0n, `no effective capabilities: ${line}`);
  assert.match(m[4], /^refused \d+$/, `the host's kernel settings are read-only: ${line}`);
  assert.equal(m[5], 'refused 30', `the image's files are read-only (EROFS): ${line}`);
  assert.equal(m[6], 'absent', `nothing of the harness's environment: ${line}`);
}

for (const engine of ENGINES) {
  describeRoute(engine, 'least privilege', (route) => {
    test('neither an agent in a container nor pytest is root, has a capability, can set core_pattern or write the image; what they wrote is the harness user’s after', async () => {
      const taskDir = await route.task();
      const secret = `sweci-secret-${randomBytes(8).toString('hex')}`;
      process.env.MYSECRET = secret;
      try {
        await route.loop(taskDir, 'privilege', { architect: architect(), programmer: hostile('privilege.py') });
      } finally {
        delete process.env.MYSECRET;
      }
      const log = await fs.readFile(path.join(taskFolder(taskDir).run('privilege').iterationDir(1), 'programmer-try-1.log'), 'utf8');
      const agent = log.split('\n').filter((l) => l.startsWith('agent uid'));
      assert.equal(agent.length, 1, log);
      const { codeDir, scoringCodeDir } = taskFolder(taskDir);
      // pytest runs on the committed code, checked out in the scoring folder.
      const proof = path.join(scoringCodeDir, 'sweci-proof.txt');
      const code = (await fs.readFile(proof, 'utf8')).trim().split('\n');
      assert.ok(code.length >= 1 && code.every((l) => l.startsWith('code uid')), code.join('\n'));
      for (const line of [...agent, ...code]) assertHeld(line);
      // Handed back: what the containers made in app/ is the harness user's again.
      for (const made of [path.join(codeDir, 'made-by-agent.txt'), proof]) {
        const st = await fs.stat(made);
        assert.deepEqual([st.uid, st.gid], [process.getuid?.(), process.getgid?.()], `${made} is the harness user's`);
      }
      const st = await fs.stat(taskFolder(taskDir).appDir);
      assert.deepEqual([st.uid, st.gid], [process.getuid?.(), process.getgid?.()], "app/ is the harness user's");
    });

    test("in containers too: a package that rewrites pytest's report at exit keeps its honest gap, and what a Programmer leaves in app/ is gone before the next Architect", async () => {
      const taskDir = await route.task();
      await route.loop(taskDir, 'forge', { architect: hostile('look.py'), programmer: hostile('forge-and-plant.py') }, { iterations: 2, format: 'builtin' });
      const [zero, one, two] = await readIterationRecords(taskFolder(taskDir).run('forge').iterationsFile);
      assert.ok(zero.gap > 0, 'the base has failures to forge');
      assert.equal(one.pytest_error, undefined, 'scored');
      assert.equal(one.gap, zero.gap, `the forgery changed nothing (gap ${zero.gap} → ${one.gap})`);
      assert.match(
        await fs.readFile(path.join(taskFolder(taskDir).run('forge').iterationDir(1), 'code.diff'), 'utf8'),
        /_sweci_forge/,
        'the forgery is in the scored code',
      );
      assert.deepEqual(one.programmer?.removed_from_app, ['app/.claude', 'app/notes-for-the-architect.txt']);
      assert.ok(two, 'a second iteration ran');
      const seen = await fs.readFile(path.join(taskFolder(taskDir).run('forge').iterationDir(2), 'architect-try-1.log'), 'utf8');
      assert.match(seen, /^architect sees /m);
      assert.doesNotMatch(seen, /^architect sees .*(\.claude|notes-for-the-architect|\.stolen)/m, 'the second Architect finds none of it');
    });

    test("an agent in a container reads neither the oracle, the dataset nor the task's records", async () => {
      const taskDir = await route.task();
      const secret = [...route.secrets, taskFolder(taskDir).taskFile, path.join(taskDir, '.sweci')];
      const snoop = inContainer(`python ${AGENTS_IN_IMAGE}/snoop.py`, { env: { SWECI_SNOOP_PATHS: secret.join(path.delimiter) } });
      await route.loop(taskDir, 'snoop', { architect: architect(), programmer: snoop });
      const log = await fs.readFile(path.join(taskFolder(taskDir).run('snoop').iterationDir(1), 'programmer-try-1.log'), 'utf8');
      for (const p of secret) assert.ok(log.includes(`unreadable: ${p}\n`), `the agent could read ${p}:\n${log}`);
      assert.doesNotMatch(log, /^readable: /m);
      assert.doesNotMatch(log, /^found: /m, 'the agent found an oracle, dataset or task file');
    });
  });
}
