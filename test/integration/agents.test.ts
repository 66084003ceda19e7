// In the real extension host: SWE-CI: Check Agents with the roles configured in settings, played
// by scripted agents (real programs run by the real driver): a verdict and a table row per role,
// in one read-only document that each check refreshes (no untitled buffer to save). Below the
// agents, which runtimes answer on this machine and why the others do not.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentsDir, api, until } from './helpers';
import { emptyPodmanStore } from '../unit/helpers/podman-store';

const cfg = () => vscode.workspace.getConfiguration('sweci');
const global = vscode.ConfigurationTarget.Global;

/** The Check Agents document once it holds a result newer than `after` (its text, else undefined). */
function checkResult(after = ''): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'sweci-check');
  const text = doc?.getText();
  return text?.startsWith('# SWE-CI: Check Agents') && text.includes('| Role |') && text !== after ? text : undefined;
}

suite('Check Agents', function () {
  this.timeout(120_000);

  suiteSetup(async () => {
    await api();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const key of [
      'architect.agent',
      'architect.customCommand',
      'programmer.agent',
      'programmer.customCommand',
      'docker.socketPath',
      'podman.root',
      'podman.runroot',
    ])
      await cfg().update(key, undefined, global);
  });

  test('each role runs one real step on a scratch task; the table says what worked and what did not', async () => {
    await cfg().update('architect.agent', 'custom', global);
    await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'check.py')}`, global);
    await cfg().update('programmer.agent', 'custom', global);
    await cfg().update('programmer.customCommand', `python3 ${path.join(agentsDir, 'fail.py')}`, global);
    await vscode.commands.executeCommand('sweci.checkAgents');
    const text = await until('the Check Agents result', () => checkResult());
    const rows = text.split('\n').filter((l) => /^\| (architect|programmer) \|/.test(l));
    assert.equal(rows.length, 2, text);
    assert.match(
      rows[0],
      /^\| architect \| custom: check\.py \| ✓ \S*python3 \(a custom command: its version is not asked\) \| – no endpoint set: .* \| ✓ wrote sweci-check\.txt in [\d.]+ s · \d+ in, 3 out \|$/,
    );
    assert.match(rows[1], /^\| programmer \| custom: fail\.py \| .* \| ✗ exited with code 3 after [\d.]+ s: .*model quota exceeded/);
    assert.match(
      text,
      /: The programmer cannot run yet\.\n\n- architect \(custom: check\.py\): ready\n- programmer \(custom: fail\.py\): cannot run yet\. one real step: exited with code 3/,
    );
    // Shown rendered: the Markdown preview of the sweci-check document.
    await until('the result shown as its Markdown preview', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputWebview && /markdown\.preview/.test(input.viewType) ? true : undefined;
    });

    // Again: the same document is refreshed in place; nothing untitled is left to save.
    await vscode.commands.executeCommand('sweci.checkAgents');
    await until('the second result', () => checkResult(text));
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'sweci-check').length, 1);
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((d) => d.isUntitled).map((d) => d.uri.toString()),
      [],
    );
  });

  test('the runtimes on this machine: each that answers says as what, one that does not says why', async function () {
    // Podman's service starts on an empty store: slower than the agents' check on a loaded machine.
    this.timeout(300_000);
    // Podman on a store of this test's own (its service is started and stopped by the check); Docker at a socket that is not there.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-probe-'));
    const store = { root: path.join(tmp, 'podman'), runroot: path.join(tmp, 'pr') };
    const missing = path.join(tmp, 'no-docker.sock');
    try {
      await cfg().update('architect.agent', 'custom', global);
      await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'check.py')}`, global);
      await cfg().update('programmer.agent', 'human', global);
      await cfg().update('docker.socketPath', missing, global);
      await cfg().update('podman.root', store.root, global);
      await cfg().update('podman.runroot', store.runroot, global);
      await vscode.commands.executeCommand('sweci.checkAgents');
      // This check's result: the only one naming this test's missing socket.
      const text = await until('the Check Agents result with the runtimes', () => (checkResult()?.includes(missing) ? checkResult() : undefined), 240_000);
      assert.match(
        text,
        /\n## Runtimes on this machine \(sweci\.runtime: auto\)\n\n\| Runtime \| Answers \| Where and as what, or why not \|\n\|---\|---\|---\|\n/,
        text,
      );
      const row = (runtime: string) => text.split('\n').find((l) => l.startsWith(`| ${runtime} |`)) ?? assert.fail(`no ${runtime} row:\n${text}`);
      assert.ok(row('docker').startsWith('| docker | ✗ | ') && row('docker').includes(missing), row('docker'));
      assert.match(row('podman'), /^\| podman \| ✓ \| Podman \d+\.\d+\.\d+ \(rootful, as root\) \|$/);
      assert.match(row('local'), /^\| local \| ✓ \| (sandboxed with bubblewrap|not isolated: .*) \|$/);
      // The agents' verdict is the agents' alone: a runtime that does not answer fails nothing.
      assert.match(text, /: The architect's agent can run\./);
    } finally {
      await emptyPodmanStore(store, tmp);
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
