// In the real extension host: SWE-CI: Replay Run… on a run whose agents called their model through
// the gateway. Both roles are a scripted agent that asks its model (model-client.py, a real program
// run by the real driver) the project's model server on this machine's loopback; the replay is a
// new run answered from the recording, with no call reaching the server.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import { readIterationRecords } from '../../src/core/loop/iteration-record';
import { chatCompletionsAdapter } from '../../scripts/stand-in-model/chat-completions';
import { promptText } from '../../scripts/stand-in-model/conversation';
import { startModelServer, type ModelServer } from '../../scripts/stand-in-model/model-server';
import { agentsDir, api } from './helpers';
import { SAMPLE_REQUIREMENT as REQUIREMENT } from '../../scripts/stand-in-model/sample-requirement';

const cfg = () => vscode.workspace.getConfiguration('sweci');
const global = vscode.ConfigurationTarget.Global;
const KEYS = [
  'architect.agent',
  'architect.customCommand',
  'architect.model',
  'programmer.agent',
  'programmer.customCommand',
  'programmer.model',
  'agents.baseUrl',
];

suite('Replay Run', function () {
  this.timeout(300_000);
  let taskDir: string;
  let server: ModelServer;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-replay-')));
    assert.ok(await sweci.checkOutTask({ source: 'dataset', datasetDir: demo.datasetDir, taskId: demo.taskId, targetDir: taskDir }));
    server = await startModelServer({
      brain: (c) => {
        const architect = promptText(c).includes('# Role: Architect');
        return { actions: [{ kind: 'text', text: architect ? REQUIREMENT : 'a note from the model' }], usage: { input: 500, cachedInput: 0, output: 20 } };
      },
      adapters: [chatCompletionsAdapter],
    });
    const agent = `python3 ${path.join(agentsDir, 'model-client.py')}`;
    for (const role of ['architect', 'programmer']) {
      await cfg().update(`${role}.agent`, 'custom', global);
      await cfg().update(`${role}.customCommand`, agent, global);
      await cfg().update(`${role}.model`, 'm', global);
    }
    await cfg().update('agents.baseUrl', `${server.origin}/v1`, global);
  });

  suiteTeardown(async () => {
    for (const key of KEYS) await cfg().update(key, undefined, global);
    await (await api()).setActiveRun(undefined);
    await server?.close();
  });

  test('a recorded run replays into a new run: the same requirement.xml and code.diff, and no model call', async () => {
    const sweci = await api();
    await sweci.setActiveRun('recorded');
    await vscode.commands.executeCommand('sweci.runIteration');
    const recorded = await readIterationRecords(taskFolder(taskDir).run('recorded').iterationsFile);
    assert.equal(recorded.length, 2, 'one iteration recorded');
    assert.equal(recorded[1].architect?.usage_source, 'wire');
    // Model calls: the endpoint check before the run asked for the model list, once.
    const lists = server.requests.filter((q) => /\/models\/?$/.test(q.path ?? '')).length;
    assert.equal(lists, 1, 'the endpoint check asked for the model list once');
    const calls = server.requests.length;
    assert.equal(calls - lists, 2, 'the Architect and the Programmer each called the model once');

    await vscode.commands.executeCommand('sweci.replayRun', { summary: { info: { name: 'recorded' } } });
    const replayed = await readIterationRecords(taskFolder(taskDir).run('recorded-replay-1').iterationsFile);
    assert.equal(replayed.length, 2, 'the replay went as far as the recorded run');
    assert.equal(server.requests.length, calls, 'the replay called no model');
    for (const file of ['requirement.xml', 'code.diff']) {
      const want = fs.readFileSync(path.join(taskFolder(taskDir).run('recorded').dir, 'iter-001', file), 'utf8');
      assert.equal(fs.readFileSync(path.join(taskFolder(taskDir).run('recorded-replay-1').dir, 'iter-001', file), 'utf8'), want, file);
    }
    assert.equal(replayed[1].gap, recorded[1].gap);
  });
});
