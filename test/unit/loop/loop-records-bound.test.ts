// Calls records bounded in bytes through the real loop (issue 43), as root with default settings:
// a scripted agent (flood.py) floods SWE-CI's gateway with calls of about 4 MB each (a 2 MB
// prompt, a 1 MB answer kept twice), sandboxed, against the project's model server on this
// machine's loopback. At sweci.agents.maxCallsBytesPerTry (256 MiB) the gateway refuses the next
// call and the run stops budget-exhausted, the record whole and just past the bound. On a real
// tmpfs a little over sweci.agents.minFreeDiskMb (64 MB), the run stops "disk nearly full" and
// every record written so far is whole.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import { BudgetExhaustedError } from '../../../src/core/gateway/budget';
import { RECORD_CAP_BYTES } from '../../../src/core/gateway/calls-file';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { ARCHIVE } from '../../../src/core/loop/run-store';
import { parseGatewayCalls, type GatewayCall } from '../../../src/core/records/gateway-call';
import { DiskNearlyFullError, freeBytes } from '../../../src/core/util/free-space';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { startModelServer, type ModelServer } from '../../../scripts/stand-in-model/model-server';
import { missingSandbox } from '../helpers/require-sandbox';
import { AGENTS_DIR, DemoWorld, PYTHON, SANDBOX, loopOptions, runtime, type DemoTask } from './demo-fixture';

const KEY = 'sk-sweci-records-bound-0123456789';

let world: DemoWorld;
let server: ModelServer;

function flooder(): RoleSetup {
  const settings: AgentSettings = {
    kind: 'custom',
    command: `${PYTHON} ${JSON.stringify(path.join(AGENTS_DIR, 'flood.py'))}`,
    promptVia: 'stdin',
    baseUrl: `${server.origin}/v1`,
    model: 'm',
    timeoutSec: 600,
    maxTries: 1,
  };
  // Default settings: the bounds as a user gets them.
  return { settings, driver: createDriver(settings, { host: runtime, model: DEFAULT_MODEL_ACCESS }), secretEnv: { SWECI_API_KEY: KEY } };
}

const both = () => ({ architect: flooder(), programmer: flooder() });

/** Every line of a calls record parses, and the file ends with a whole line: its calls. Read once (at the cap it is 256 MiB). */
async function wholeRecord(file: string): Promise<GatewayCall[]> {
  const text = await fs.readFile(file, 'utf8');
  assert.ok(text.endsWith('\n'), `${file} ends with a whole line`);
  return parseGatewayCalls(text, file);
}

describe('calls records bounded in bytes, through the loop', { timeout: 10 * 60_000 }, () => {
  before(async () => {
    world = await DemoWorld.create('records-bound');
    // Every answer is 1 MB of text: with the 2 MB prompt, a line of about 4 MB (under the 4 MiB line cap).
    server = await startModelServer({
      brain: () => ({ actions: [{ kind: 'text', text: 'x'.repeat(1_000_000) }], usage: { input: 10, cachedInput: 0, output: 10 } }),
      adapters: [chatCompletionsAdapter],
      requireKey: KEY,
    });
  });
  after(async () => {
    await server?.close();
    await world?.dispose();
  });

  test('a flood of 4 MB calls stops at sweci.agents.maxCallsBytesPerTry (256 MiB): budget-exhausted, the record whole and within one line of the bound', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const task = await world.task('flood');
    const started = performance.now();
    const error = await startRun({ ...loopOptions(task, 'r', both()), maxIterations: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const seconds = (performance.now() - started) / 1000;
    assert.ok(error instanceof BudgetExhaustedError, String(error));
    assert.match(
      error.message,
      /The architect \(custom: flood\.py\) stopped in iteration 1, try 1: budget exhausted: calls record per try \(268435456 bytes\)/,
    );
    const file = path.join(taskFolder(task.taskDir).run('r').pendingDir, ARCHIVE.agentCalls('architect', 1));
    const size = (await fs.stat(file)).size;
    const calls = await wholeRecord(file);
    const lines = calls.length;
    t.diagnostic(`bytes at the cap: ${size} (${lines} lines, ${(size / lines / 1e6).toFixed(2)} MB each) in ${seconds.toFixed(1)} s for the whole run`);
    assert.ok(size >= DEFAULT_MODEL_ACCESS.maxCallsBytesPerTry, `${size} bytes: the bound was reached`);
    assert.ok(size < DEFAULT_MODEL_ACCESS.maxCallsBytesPerTry + RECORD_CAP_BYTES + 64 * 1024, `${size} bytes: one line past the bound, and one small refusal`);
    const log = await fs.readFile(path.join(taskFolder(task.taskDir).run('r').pendingDir, ARCHIVE.agentLog('architect', 1)), 'utf8');
    // The gateway's stop ends the agent at once: the harness's footer says why.
    assert.match(log, /^# stopped: budget exhausted: calls record per try \(268435456 bytes\)$/m);
    assert.equal(calls[calls.length - 1].refused, 'budget exhausted: calls record per try (268435456 bytes)', 'the refused call is the last line');
    assert.equal(calls[calls.length - 1].request, undefined, 'without its 2 MB body');
  });

  test('on a nearly full disk (a real tmpfs a little over the 64 MB floor) the run stops "disk nearly full" and every record written so far is whole', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    if (process.getuid?.() !== 0) return t.skip('mounting a tmpfs needs root');
    const made = await world.task('disk');
    const mount = world.scratch('small-disk');
    await fs.mkdir(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=100m', 'tmpfs', mount]);
    try {
      const taskDir = path.join(mount, 'task');
      execFileSync('cp', ['-a', made.taskDir, taskDir]);
      const task: DemoTask = { ...made, taskDir };
      const error = await startRun({ ...loopOptions(task, 'r', both()), maxIterations: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof DiskNearlyFullError, String(error));
      assert.match(
        error.message,
        /stopped in iteration 1, try 1: disk nearly full: [\d.]+ MB free at .*, below the floor of 64\.0 MB \(sweci\.agents\.minFreeDiskMb\)/,
      );
      assert.ok((await freeBytes(mount))! >= 64 * 1024 * 1024 - RECORD_CAP_BYTES, 'the floor held');
      const run = taskFolder(taskDir).run('r');
      const file = path.join(run.pendingDir, ARCHIVE.agentCalls('architect', 1));
      const lines = (await wholeRecord(file)).length;
      t.diagnostic(`${lines} whole lines before the floor; ${(await freeBytes(mount))! / 1e6} MB left free`);
      assert.ok(lines >= 1);
      // The run's own records are whole: its lines, its run.json.
      assert.equal((await readIterationRecords(run.iterationsFile)).length, 1, 'the base line');
      JSON.parse(await fs.readFile(path.join(run.dir, 'run.json'), 'utf8'));
    } finally {
      execFileSync('umount', ['-l', mount]);
    }
  });
});
