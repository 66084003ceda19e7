// In the real extension host: SWE-CI: Check Agents with the roles configured in settings, played
// by scripted agents (real programs run by the real driver): a verdict and a table row per role,
// in one read-only document that each check refreshes (no untitled buffer to save).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentsDir, api, until } from './helpers';

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
    for (const key of ['architect.agent', 'architect.customCommand', 'programmer.agent', 'programmer.customCommand'])
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
});
