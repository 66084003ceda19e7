// A real try's transcript: one iteration of the real loop, both roles played by a scripted agent
// with a real tool loop (tool-client.py: bash and write, over Chat Completions), confined, through
// the real model gateway, against the project's model server playing the task (task-brain.ts).
// Then `sweci transcript --format json` on the task folder: each call's tool calls with their
// inputs, the results the next call carried, and each call's tokens as the server reported them.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { callsWriting, filesWritten } from '../../../src/shared/tool-actions';
import { transcriptSchema, type Transcript } from '../../../src/shared/transcript-schema';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { startModelServer, type ModelServer } from '../../../scripts/stand-in-model/model-server';
import { SAMPLE_REQUIREMENT as REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';
import { taskBrain } from '../../../scripts/stand-in-model/task-brain';
import { missingSandbox } from '../helpers/require-sandbox';
import { AGENTS_DIR, DemoWorld, PYTHON, SANDBOX, loopOptions, runtime, type DemoTask } from '../loop/demo-fixture';

const KEY = 'sk-sweci-transcript-loop-0123456789';
const NOTES = 'Written by the model, through the write tool.\n';
const cli = path.resolve(__dirname, '../../../src/cli/main.js');

let world: DemoWorld;
let server: ModelServer;

function toolClient(): RoleSetup {
  const settings: AgentSettings = {
    kind: 'custom',
    command: `${PYTHON} ${JSON.stringify(path.join(AGENTS_DIR, 'tool-client.py'))}`,
    promptVia: 'stdin',
    baseUrl: `${server.origin}/v1`,
    model: 'm',
    timeoutSec: 120,
    maxTries: 1,
  };
  return { settings, driver: createDriver(settings, { host: runtime, model: DEFAULT_MODEL_ACCESS }), secretEnv: { SWECI_API_KEY: KEY } };
}

function transcriptOf(task: DemoTask, role: 'architect' | 'programmer'): Transcript {
  const r = spawnSync(process.execPath, [cli, 'transcript', task.taskDir, '--iteration', '1', '--role', role, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return transcriptSchema.parse(JSON.parse(r.stdout));
}

describe('the transcript of a real try through the loop and the gateway', { timeout: 10 * 60_000 }, () => {
  before(async () => {
    world = await DemoWorld.create('transcript');
    server = await startModelServer({
      brain: taskBrain({ requirementXml: REQUIREMENT, files: { 'NOTES.md': NOTES } }),
      adapters: [chatCompletionsAdapter],
      requireKey: KEY,
    });
  });
  after(async () => {
    await server?.close();
    await world?.dispose();
  });

  test('sweci transcript --format json: each call’s tool calls with their inputs, the results that came back, and the server’s tokens', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const task = await world.task('tools');
    const before = server.requests.length;
    const result = await startRun({ ...loopOptions(task, 'r', { architect: toolClient(), programmer: toolClient() }), maxIterations: 1 });
    assert.equal(result.reason, 'max-iterations');
    const [, line] = await readIterationRecords(taskFolder(task.taskDir).run('r').iterationsFile);
    const layout = taskFolder(task.taskDir);
    const served = server.requests.slice(before).filter((q) => q.usage);

    for (const role of ['architect', 'programmer'] as const) {
      const tr = transcriptOf(task, role);
      assert.equal(tr.source, 'gateway');
      assert.equal(tr.run, 'r');
      assert.equal(tr.agent, 'custom');
      assert.equal(tr.system, 'You are a coding agent. Use the tools to do the task, then say what you did.');
      assert.deepEqual(
        tr.tools.map((x) => x.name),
        ['bash', 'write'],
      );
      assert.equal(
        tr.calls.some((c) => c.side),
        false,
      );
      // Each call's tokens are the ones the server reported for it, in order; the totals are the iteration's.
      const mine = served.filter((q) => q.label === role);
      assert.deepEqual(
        tr.calls.map((c) => c.usage),
        mine.map((q) => ({ input: q.usage!.input, cached: q.usage!.cachedInput, output: q.usage!.output, reasoning: 0 })),
        `${role}: per-call usage`,
      );
      assert.equal(tr.totals.usage.input, line[role]?.input_tokens, `${role}: the transcript's total is the iteration's`);
      assert.equal(tr.totals.calls, line[role]?.model_calls);
      assert.match(
        tr.calls[0].input.map((i) => (i.kind === 'text' ? i.text : '')).join(''),
        new RegExp(`# Role: ${role === 'architect' ? 'Architect' : 'Programmer'}`),
      );
      assert.deepEqual(tr.calls[tr.calls.length - 1].toolCalls, [], 'the last answer is text');
    }

    const architect = transcriptOf(task, 'architect');
    assert.deepEqual(
      architect.calls.map((c) => c.toolCalls.map((x) => [x.name, x.input])),
      [[['bash', { command: `cat '${layout.summaryFile}'` }]], [['write', { filePath: layout.requirementFile, content: REQUIREMENT }]], []],
    );
    // The second call carried the shell's output: the summary, as the server received it.
    const read = architect.calls[1].input.find((i) => i.kind === 'tool-result');
    assert.equal(read?.kind === 'tool-result' && read.name, 'bash');
    const received = served.filter((q) => q.label === 'architect')[1].toolOutputs?.[0];
    assert.ok(received?.includes('"test"'), `the summary was read: ${received}`);
    assert.equal(read?.kind === 'tool-result' && read.output.slice(0, 2000), received);
    assert.deepEqual(callsWriting(filesWritten(architect), 'requirement.xml'), [2]);

    const programmer = transcriptOf(task, 'programmer');
    assert.deepEqual(
      programmer.calls.map((c) => c.toolCalls.map((x) => [x.name, x.input])),
      [
        [['bash', { command: 'python3 -c "print(6 * 7)"', workdir: layout.codeDir }]],
        [['write', { filePath: path.join(layout.codeDir, 'NOTES.md'), content: NOTES }]],
        [],
      ],
    );
    const shell = programmer.calls[1].input.find((i) => i.kind === 'tool-result');
    assert.equal(shell?.kind === 'tool-result' && shell.output, '42\n', 'the command ran, confined, and its output came back');
    assert.deepEqual(callsWriting(filesWritten(programmer), 'NOTES.md'), [2]);
  });
});
