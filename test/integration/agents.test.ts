// In the real extension host: SWE-CI: Check Agents with the roles configured in settings, played
// by scripted agents (real programs run by the real driver): a table with one row per role.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentsDir, api, until } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('sweci');
const global = vscode.ConfigurationTarget.Global;

function checkTable(): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.isUntitled && d.getText().startsWith('# SWE-CI: Check Agents'));
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
    const doc = await until('the Check Agents table', checkTable);
    const rows = doc
      .getText()
      .split('\n')
      .filter((l) => /^\| (architect|programmer) \|/.test(l));
    assert.equal(rows.length, 2, doc.getText());
    assert.match(rows[0], /^\| architect \| custom: check\.py \| – a custom command .* \| ✓ wrote sweci-check\.txt in [\d.]+ s · \d+ in, 3 out \|$/);
    assert.match(rows[1], /^\| programmer \| custom: fail\.py \| .* \| ✗ exited with code 3 after [\d.]+ s: .*model quota exceeded/);
  });
});
