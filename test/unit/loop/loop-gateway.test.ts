// The model gateway through the real loop (issue 30), as root with default settings: a scripted
// agent that calls its model the way a CLI does (model-client.py, Chat Completions through
// SWECI_BASE_URL), sandboxed with no network but the gateway, against the project's scripted model
// server on this machine's loopback. What the wire says decides: the tokens recorded are the
// server's, a failure the agent swallows fails its try, a bound ends the run, and a recorded run
// replays with the server gone.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS, type ModelAccess } from '../../../src/core/agents/model-access';
import { Budget, BudgetExhaustedError } from '../../../src/core/gateway/budget';
import { readGatewayCalls } from '../../../src/core/records/gateway-call';
import { replayFromRun } from '../../../src/core/loop/run-replay';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import type { LoopEvent, RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { ARCHIVE } from '../../../src/core/loop/run-store';
import { UserError } from '../../../src/core/util/errors';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { promptText, type Conversation, type Reply } from '../../../scripts/stand-in-model/conversation';
import { startModelServer, type ModelServer } from '../../../scripts/stand-in-model/model-server';
import { missingSandbox } from '../helpers/require-sandbox';
import { filesHolding } from '../helpers/list-tree';
import { AGENTS_DIR, DemoWorld, PYTHON, SANDBOX, loopOptions, runtime } from './demo-fixture';
import { SAMPLE_REQUIREMENT as REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';

const KEY = 'sk-sweci-gateway-loop-0123456789';

type Mode = 'ok' | 'status-500' | 'status-401' | 'error-body' | 'empty' | 'hang';

let world: DemoWorld;
let server: ModelServer;
let mode: Mode = 'ok';

/** Plays both roles: the requirement for the Architect, a note numbered by the prompt's iteration for the Programmer. */
function brain(c: Conversation): Reply {
  const prompt = promptText(c);
  const role = prompt.includes('# Role: Architect') ? 'architect' : 'programmer';
  switch (mode) {
    case 'status-500':
      return { actions: [], httpError: { status: 500, message: 'the model is down' }, label: role };
    case 'status-401':
      return { actions: [], httpError: { status: 401, message: 'invalid api key' }, label: role };
    case 'error-body':
      return { actions: [], httpError: { status: 400, message: 'context length exceeded' }, label: role };
    case 'empty':
      return { actions: [], label: role };
    case 'hang':
      return { actions: [], fault: 'hang', label: role };
    case 'ok':
      // Usage of its own: the server counts a call that offers no tools as a free side call.
      return {
        actions: [{ kind: 'text', text: role === 'architect' ? REQUIREMENT : `note ${prompt.length}` }],
        usage: { input: 1000 + prompt.length, cachedInput: 100, output: 50 },
        label: role,
      };
  }
}

function agent(
  extra: { script?: string; maxTries?: number; env?: Record<string, string>; access?: Partial<ModelAccess>; promptTemplateFile?: string } = {},
): RoleSetup {
  const settings: AgentSettings = {
    kind: 'custom',
    command: `${PYTHON} ${JSON.stringify(path.join(AGENTS_DIR, extra.script ?? 'model-client.py'))}`,
    promptVia: 'stdin',
    baseUrl: `${server.origin}/v1`,
    model: 'm',
    timeoutSec: 60,
    maxTries: extra.maxTries ?? 1,
    ...(extra.promptTemplateFile ? { promptTemplateFile: extra.promptTemplateFile } : {}),
    env: { SWECI_TEST_KEY_SHA256: createHash('sha256').update(KEY).digest('hex'), SWECI_TEST_DIRECT_PORT: String(server.port), ...extra.env },
  };
  const model: ModelAccess = { ...DEFAULT_MODEL_ACCESS, ...extra.access };
  return { settings, driver: createDriver(settings, { host: runtime, model }), secretEnv: { SWECI_API_KEY: KEY } };
}

const both = (setup: () => RoleSetup) => ({ architect: setup(), programmer: setup() });

/** What reached the server: the model calls, and the model lists the endpoint check asked before a run. */
function reached() {
  const lists = server.requests.filter((r) => /\/models\/?$/.test(r.path ?? '')).length;
  return { calls: server.requests.length - lists, lists };
}

function served(label: string) {
  const mine = server.requests.filter((r) => r.label === label && r.usage);
  return { calls: mine.length, input: mine.reduce((a, r) => a + r.usage!.input, 0), output: mine.reduce((a, r) => a + r.usage!.output, 0) };
}

/** Runs one iteration that must fail; the error it failed with. */
async function failingRun(name: string, roles: ReturnType<typeof both>, iterations = 1): Promise<{ error: unknown; events: LoopEvent[] }> {
  const task = await world.task(name);
  const events: LoopEvent[] = [];
  const error = await startRun({ ...loopOptions(task, 'r', roles, { onEvent: (e) => events.push(e) }), maxIterations: iterations }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, events };
}

describe('the model gateway through the loop: a confined agent reaches only its model, and the wire decides', { timeout: 10 * 60_000 }, () => {
  before(async () => {
    world = await DemoWorld.create('gateway');
    server = await startModelServer({ brain, adapters: [chatCompletionsAdapter], requireKey: KEY });
  });
  after(async () => {
    await server?.close();
    await world?.dispose();
  });

  test('one iteration: tokens and calls are the server’s, every call is recorded, the agent holds no real key and reaches nothing but the gateway', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    mode = 'ok';
    const before = reached();
    const task = await world.task('ok');
    const result = await startRun({ ...loopOptions(task, 'r', both(agent)), maxIterations: 1 });
    assert.equal(result.reason, 'max-iterations');
    const [, line] = await readIterationRecords(taskFolder(task.taskDir).run('r').iterationsFile);
    const dir = taskFolder(task.taskDir).run('r').iterationDir(1);
    for (const role of ['architect', 'programmer'] as const) {
      const step = line[role];
      const wire = served(role);
      assert.equal(step?.usage_source, 'wire', role);
      assert.equal(step?.network, 'model-only', role);
      assert.equal(step?.model_calls, 1, `${role}: one model call`);
      assert.equal(step?.input_tokens, wire.input, `${role}: input tokens are the server's`);
      assert.equal(step?.output_tokens, wire.output, `${role}: output tokens are the server's`);
      assert.equal(step?.cost_usd, undefined, 'no price: the cost is unknown, not 0');
      const calls = await readGatewayCalls(path.join(dir, ARCHIVE.agentCalls(role, 1)));
      assert.equal(calls.length, 1, `${role}: the call is recorded`);
      assert.equal(calls[0].status, 200);
      assert.deepEqual(calls[0].usage, { input: wire.input, output: wire.output, cached: 100, reasoning: 0 });
      assert.ok(wire.input > 1000, `${role}: the server reported its usage (${wire.input})`);
      assert.equal(step?.cached_tokens, 100);
      const log = await fs.readFile(path.join(dir, ARCHIVE.agentLog(role, 1)), 'utf8');
      assert.match(log, /^real key seen: no$/m, `${role} holds no real key`);
      assert.match(log, /^direct: refused$/m, `${role} cannot reach the model server itself`);
      assert.match(log, /# network: none of its own: only the model, through SWE-CI's gateway/);
      assert.match(log, /# wire: +1 model call, \d+ input \(100 cached\) and 50 output tokens, cost unknown/);
    }
    assert.equal(reached().calls - before.calls, 2, 'two calls reached the server, no more');
    assert.equal(reached().lists - before.lists, 1, 'and, before the run, one model list: the endpoint check (both roles share the endpoint)');
    assert.equal(await fs.readFile(path.join(dir, ARCHIVE.requirement), 'utf8'), REQUIREMENT, "the Architect's document is the model's answer");
    assert.deepEqual(await filesHolding(task.taskDir, KEY), [], 'the real key is in no file of the task (the calls records included)');
  });

  for (const [fault, reason] of [
    ['status-500', /its model calls failed: no model call succeeded: HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: the model is down/],
    ['status-401', /its model calls failed: no model call succeeded: HTTP 401 from .*invalid api key/],
    ['error-body', /its model calls failed: no model call succeeded: HTTP 400 from .*context length exceeded/],
    ['empty', /its model calls failed: the model's last answer was empty/],
    ['hang', /its model calls failed: no model call succeeded: no byte from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions for 1\.5 s/],
  ] as const) {
    test(`a model call that fails (${fault}) fails the try with the wire's reason, though the agent exits 0`, async (t) => {
      if (!SANDBOX) return missingSandbox(t);
      mode = fault;
      const { error } = await failingRun(
        fault,
        both(() => agent({ access: { callTimeoutMs: 1500 } })),
      );
      assert.ok(error instanceof UserError, String(error));
      assert.match(error.message, /The architect \(custom: model-client\.py\) failed its only try in iteration 1: try 1: /);
      assert.match(error.message, reason);
    });
  }

  test('a CLI that calls again after every error is stopped at sweci.agents.maxCallsPerTry: budget-exhausted, and the run stops there', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    mode = 'error-body';
    const before = reached().calls;
    const { error, events } = await failingRun(
      'call-cap',
      both(() => agent({ maxTries: 3, env: { SWECI_TEST_RETRY_FOREVER: '1' }, access: { maxCallsPerTry: 5 } })),
    );
    assert.ok(error instanceof BudgetExhaustedError, String(error));
    assert.match(error.message, /stopped in iteration 1, try 1: budget exhausted: calls per try \(5\)/);
    assert.equal(reached().calls - before, 5, 'five calls reached the server; the sixth was refused by the gateway');
    const finished = events.find((e) => e.type === 'loop-finished');
    assert.equal(finished?.type === 'loop-finished' ? finished.reason : undefined, 'budget-exhausted');
    assert.equal(events.filter((e) => e.type === 'step-started').length, 1, 'no second try: a spent bound is not tried again');
  });

  test("a task's cost budget (with prices) stops the run once spent: budget-exhausted", async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    mode = 'ok';
    const budget = new Budget('task', { maxCostUsd: 0.000001 });
    const access = { prices: { m: { input: 1, output: 1 } }, budgets: [budget] };
    const { error } = await failingRun(
      'cost',
      both(() => agent({ access })),
      2,
    );
    assert.ok(error instanceof BudgetExhaustedError, String(error));
    assert.match(error.message, /budget exhausted: task cost \(\$0\.000001\)/);
    assert.ok(budget.costUsd > 0.000001, `the budget counted the cost: ${budget.costUsd}`);
  });

  test('a recorded run replays with the model server gone: the same requirement.xml, code.diff and scores; a changed prompt diverges at call 1', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    mode = 'ok';
    const recorded = await world.task('recorded');
    await startRun({ ...loopOptions(recorded, 'r', both(agent)), maxIterations: 2 });
    const replayed = await world.task('replayed');
    // In another task folder (sweci run --replay-from): the recording's paths are moved to it.
    const replay = replayFromRun(taskFolder(recorded.taskDir), 'r', taskFolder(replayed.taskDir));
    const before = server.requests.length;
    await startRun({
      ...loopOptions(
        replayed,
        'r',
        both(() => agent({ access: { replay } })),
      ),
      maxIterations: 2,
    });
    assert.equal(server.requests.length, before, 'the replay called no model');
    const a = await readIterationRecords(taskFolder(recorded.taskDir).run('r').iterationsFile);
    const b = await readIterationRecords(taskFolder(replayed.taskDir).run('r').iterationsFile);
    assert.equal(b.length, 3);
    for (const i of [1, 2]) {
      for (const file of [ARCHIVE.requirement, ARCHIVE.codeDiff]) {
        const want = await fs.readFile(path.join(taskFolder(recorded.taskDir).run('r').iterationDir(i), file), 'utf8');
        assert.equal(await fs.readFile(path.join(taskFolder(replayed.taskDir).run('r').iterationDir(i), file), 'utf8'), want, `iteration ${i}: ${file}`);
      }
      assert.equal(b[i].gap, a[i].gap);
      assert.deepEqual(b[i].pytest, a[i].pytest);
      assert.equal(b[i].programmer?.input_tokens, a[i].programmer?.input_tokens, 'the replayed tokens are the recording’s');
    }
    // In the same task folder, as a new run (the editor's Replay Run): the same again.
    await startRun({
      ...loopOptions(
        recorded,
        'r-replay',
        both(() => agent({ access: { replay: replayFromRun(taskFolder(recorded.taskDir), 'r') } })),
      ),
      maxIterations: 2,
    });
    assert.equal(server.requests.length, before, 'no model was called');
    for (const i of [1, 2]) {
      for (const file of [ARCHIVE.requirement, ARCHIVE.codeDiff]) {
        const want = await fs.readFile(path.join(taskFolder(recorded.taskDir).run('r').iterationDir(i), file), 'utf8');
        assert.equal(
          await fs.readFile(path.join(taskFolder(recorded.taskDir).run('r-replay').iterationDir(i), file), 'utf8'),
          want,
          `same folder, iteration ${i}: ${file}`,
        );
      }
    }
    // The same replay with another prompt (the role's own template): the Architect's first call differs from the recording.
    const changed = await world.task('diverged');
    const promptTemplateFile = path.join(changed.taskDir, '..', 'diverged-prompt.md');
    await fs.writeFile(promptTemplateFile, '# Role: Architect\nAnother prompt.\n');
    const error = await startRun({
      ...loopOptions(
        changed,
        'r',
        both(() => agent({ access: { replay }, promptTemplateFile })),
      ),
      maxIterations: 1,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof UserError, String(error));
    assert.match(error.message, /try 1: its model calls failed: diverged at call 1: \$\.messages\[0\]\.content/);
  });

  test('a CLI that dies before its first model call: the try says how it ended, not only that no call was made', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    mode = 'ok';
    // list-then-die.py lists the models through the gateway, then exits with code 3 and an error line.
    const { error, events } = await failingRun('died-first', { architect: agent({ script: 'list-then-die.py' }), programmer: agent() });
    assert.ok(error instanceof UserError, String(error));
    const finished = events.flatMap((e) => (e.type === 'step-finished' && e.step === 'architect' ? [e] : []));
    assert.equal(finished.length, 1);
    assert.match(
      finished[0].message ?? '',
      /^its model calls failed: the agent made no model call \(only GET \/v1\/models\) \(it exited with code 3: .*cannot load its settings \(scripted\)\)$/,
    );
  });

  test('a step that made no model call replays as it is, and its log says so; a try the recording does not have is still refused', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    mode = 'ok';
    // A Programmer with an endpoint that changes nothing and asks no model (no-output.py).
    const idle = (access: Partial<ModelAccess> = {}): RoleSetup => agent({ script: 'no-output.py', access });
    const task = await world.task('idle');
    const folder = taskFolder(task.taskDir);
    await startRun({ ...loopOptions(task, 'r', { architect: agent(), programmer: idle() }), maxIterations: 1 });
    const recordedDir = folder.run('r').iterationDir(1);
    assert.equal((await readGatewayCalls(path.join(recordedDir, ARCHIVE.agentCalls('programmer', 1)))).length, 0, 'the Programmer made no call');

    const before = server.requests.length;
    const replay = replayFromRun(folder, 'r');
    await startRun({ ...loopOptions(task, 'r-replay', { architect: agent({ access: { replay } }), programmer: idle({ replay }) }), maxIterations: 1 });
    assert.equal(server.requests.length, before, 'the replay called no model');
    const dir = folder.run('r-replay').iterationDir(1);
    assert.match(
      await fs.readFile(path.join(dir, ARCHIVE.agentLog('programmer', 1)), 'utf8'),
      /# replay: {2}the recorded try made no model call: it runs again as it is/,
    );
    assert.match(await fs.readFile(path.join(dir, ARCHIVE.agentLog('architect', 1)), 'utf8'), /# replay: {2}answered from the recording \(1 call\)/);
    for (const file of [ARCHIVE.requirement, ARCHIVE.codeDiff]) {
      assert.equal(await fs.readFile(path.join(dir, file), 'utf8'), await fs.readFile(path.join(recordedDir, file), 'utf8'), file);
    }
    // Beyond the recording (a second iteration it never ran) nothing is made up: refused.
    const error = await startRun({
      ...loopOptions(task, 'r-replay-2', { architect: agent({ access: { replay } }), programmer: idle({ replay }) }),
      maxIterations: 2,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof UserError, String(error));
    assert.match(error.message, /Nothing to replay for the architect's try 1 of iteration 2/);
  });
});
