// In the real extension host: SWE-CI: Open Transcript… on a recorded try. Both roles are a
// scripted agent with tools (tool-client.py, a real program run by the real driver) whose model
// is the project's model server on this machine's loopback, answering as a model does: a shell
// command, then a file write. The panel gets the try's transcript; its "Open in diff editor"
// opens what the write changed, read-only; a message naming a call that wrote nothing opens nothing.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import { readIterationRecords } from '../../src/core/loop/iteration-record';
import type { TranscriptHostMessage } from '../../src/shared/transcript-protocol';
import type { SweciApi } from '../extension/test-api';
import { chatCompletionsAdapter } from '../../scripts/stand-in-model/chat-completions';
import { startModelServer, type ModelServer } from '../../scripts/stand-in-model/model-server';
import { SAMPLE_REQUIREMENT } from '../../scripts/stand-in-model/sample-requirement';
import { roleOf, taskBrain } from '../../scripts/stand-in-model/task-brain';
import { toolResults } from '../../scripts/stand-in-model/conversation';
import { agentsDir, api, until } from './helpers';

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
const RUN = 'with-tools';
const HELPER = 'def answer():\n    return 42\n';

function lastTranscript(sweci: SweciApi): Extract<TranscriptHostMessage, { type: 'transcript' }> | undefined {
  const posted = sweci.transcriptMessages().posted;
  return posted[posted.length - 1];
}

suite('Transcript panel', function () {
  this.timeout(300_000);
  let taskDir: string;
  let server: ModelServer;
  /** The Architect's write of requirement.xml comes slowly: its try stays running a while. */
  let slowWrite = false;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-transcript-')));
    assert.ok(await sweci.checkOutTask({ source: 'dataset', datasetDir: demo.datasetDir, taskId: demo.taskId, targetDir: taskDir }));
    const brain = taskBrain({ requirementXml: SAMPLE_REQUIREMENT, files: { 'helper.py': HELPER } });
    server = await startModelServer({
      brain: (c) => {
        const reply = brain(c);
        return slowWrite && roleOf(c) === 'architect' && toolResults(c).length === 1 ? { ...reply, paceMs: 4000 } : reply;
      },
      adapters: [chatCompletionsAdapter],
    });
    const agent = `python3 ${path.join(agentsDir, 'tool-client.py')}`;
    for (const role of ['architect', 'programmer']) {
      await cfg().update(`${role}.agent`, 'custom', global);
      await cfg().update(`${role}.customCommand`, agent, global);
      await cfg().update(`${role}.model`, 'sweci-coder', global);
    }
    await cfg().update('agents.baseUrl', `${server.origin}/v1`, global);
    await sweci.setActiveRun(RUN);
    await vscode.commands.executeCommand('sweci.runIteration');
    const records = await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile);
    assert.equal(records.length, 2, 'one iteration recorded');
  });

  suiteTeardown(async () => {
    for (const key of KEYS) await cfg().update(key, undefined, global);
    await (await api()).setActiveRun(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server?.close();
  });

  test("opening a recorded try's transcript sends the webview its calls: the shell command with its output, the write, the figures", async () => {
    const sweci = await api();
    const why = await vscode.commands.executeCommand('sweci.openTranscript', { run: RUN, iteration: 1, role: 'programmer', try: 1 });
    assert.equal(why, undefined);
    const msg = await until('the transcript posted to the panel', () => lastTranscript(sweci));
    // The host posted the try as soon as the panel opened; the page got it only once it said ready.
    const order = sweci.transcriptOrder();
    assert.ok(order.indexOf('received ready') >= 0 && order.indexOf('posted transcript') > order.indexOf('received ready'), order.join(', '));
    const t = msg.transcript;
    assert.deepEqual([t.run, t.iteration, t.role, t.try, t.source], [RUN, 1, 'programmer', 1, 'gateway']);
    assert.equal(msg.live, false, 'a finished try is not live');
    assert.deepEqual(msg.steps, { previous: true, next: false }, "the Architect's try comes before; none after");
    assert.deepEqual(
      t.calls.map((c) => c.toolCalls.map((tc) => tc.name)),
      [['bash'], ['write'], []],
      'a command, a write, then the answer',
    );
    // The command's output is the next call's input: what the agent really ran.
    const results = t.calls[1].input.filter((i) => i.kind === 'tool-result');
    assert.ok(
      results.some((r) => r.kind === 'tool-result' && r.output.includes('42')),
      JSON.stringify(results),
    );
    // Tokens as the wire reported them: what the server sent for the Programmer's first call.
    const first = server.requests.find((r) => r.label === 'programmer');
    assert.deepEqual([t.calls[0].usage?.input, t.calls[0].usage?.output], [first?.usage?.input, first?.usage?.output]);
    assert.equal(t.totals.calls, 3);
    assert.deepEqual(sweci.transcriptShown(), { run: RUN, iteration: 1, role: 'programmer', try: 1, pending: false, live: false });
    // The webview drew them (its test hook).
    await until('the panel says what it drew', () => sweci.transcriptMessages().received.find((m) => m.type === 'rendered' && m.calls === 3));
  });

  test('Open in diff editor: the write, read-only, from the transcript; a call that wrote nothing opens nothing', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.openTranscript', { run: RUN, iteration: 1, role: 'programmer', try: 1 });
    await sweci.transcriptReceive({ type: 'open-diff', call: 2, tool: 0 });
    const tab = await until('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(tab.modified.scheme, 'sweci-transcript');
    assert.equal(path.posix.basename(tab.modified.path), 'helper.py');
    assert.equal((await vscode.workspace.openTextDocument(tab.modified)).getText(), HELPER);
    assert.equal((await vscode.workspace.openTextDocument(tab.original)).getText(), '', 'a new file: against empty');

    await sweci.transcriptReceive({ type: 'open-diff', call: 1, tool: 0 });
    assert.ok(
      sweci.lastMessages().some((m) => /Call 1 wrote no file/.test(m.text)),
      'the shell call wrote no file: said, nothing opened',
    );
    // A message naming a path is not one the panel sends: dropped before anything acts on it.
    await sweci.transcriptReceive({ type: 'open-diff', call: 2, tool: 0, path: '/etc/passwd' });
    assert.equal(sweci.transcriptMessages().received.filter((m) => m.type === 'open-diff').length, 2);
  });

  test('Previous try steps to the Architect, whose write of requirement.xml is in its transcript', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.openTranscript', { run: RUN, iteration: 1, role: 'programmer', try: 1 });
    await sweci.transcriptReceive({ type: 'step', direction: -1 });
    const msg = await until('the Architect’s transcript', () => (lastTranscript(sweci)?.transcript.role === 'architect' ? lastTranscript(sweci) : undefined));
    const writes = msg.transcript.calls.flatMap((c) => c.toolCalls).filter((tc) => tc.name === 'write');
    assert.equal(writes.length, 1);
    assert.match(JSON.stringify(writes[0].input), /requirement\.xml/);
    assert.deepEqual(msg.steps, { previous: false, next: true });
  });

  test('the running try is followed live: its calls as they come, then the finished try', async () => {
    const sweci = await api();
    const run = 'followed-live';
    await sweci.setActiveRun(run);
    slowWrite = true;
    const pending = path.join(taskFolder(taskDir).run(run).pendingDir, 'architect-try-1.calls.jsonl');
    const done = vscode.commands.executeCommand('sweci.runIteration');
    try {
      await until('the Architect’s first call recorded', () => fs.existsSync(pending) && fs.readFileSync(pending, 'utf8').trim() !== '', 60_000);
      assert.match(sweci.statusBar().tooltip, /Click for the running step’s transcript/);
      // What the status bar's click runs.
      await vscode.commands.executeCommand('sweci.openTranscript', { run, live: true });
      const first = await until('the live transcript', () => {
        const m = lastTranscript(sweci);
        return m?.transcript.run === run ? m : undefined;
      });
      assert.equal(first.live, true);
      assert.equal(first.transcript.calls.length, 1, 'the call so far');
      // The write arrives: the panel is sent the grown try without being asked.
      const grown = await until('the second call', () => {
        const m = lastTranscript(sweci);
        return m?.transcript.run === run && m.transcript.calls.length >= 2 ? m : undefined;
      });
      assert.equal(grown.transcript.calls[1].toolCalls[0]?.name, 'write');
    } finally {
      slowWrite = false;
      await done;
    }
    // Archived with its iteration: the same try, no longer live.
    const finished = await until('the finished try', () => {
      const m = lastTranscript(sweci);
      return m?.transcript.run === run && !m.live ? m : undefined;
    });
    assert.equal(finished.transcript.calls.length, 3);
    assert.equal(sweci.transcriptShown()?.pending, false);
  });
});
