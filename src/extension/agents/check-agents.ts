// SWE-CI: Check Agents: the core's check of each role's agent (executable and version, endpoint
// and key, one real step on a scratch task), with progress and Cancel, shown as a table.
import * as vscode from 'vscode';
import { checkAgents, formatAgentChecks } from '../../core/agents/check/agent-check';
import { openHostRuntime } from '../../core/runtime/task-environment';
import { agentSettings, modelAccess, runtimeSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import * as messages from '../messages';
import type { ApiKeys } from './api-keys';

export async function checkAgentsCommand(keys: ApiKeys): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void messages.showWarningMessage('SWE-CI runs no agent in an untrusted workspace. Trust the workspace to check the agents.');
    return;
  }
  try {
    const agents = { architect: agentSettings('architect'), programmer: agentSettings('programmer') };
    const secretEnv = await keys.environment();
    const runtime = await openHostRuntime(runtimeSettings());
    try {
      const rows = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'SWE-CI: Checking agents', cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return checkAgents({ agents, secretEnv, runtime, model: modelAccess(), signal: abort.signal, onProgress: (m) => progress.report({ message: m }) });
        },
      );
      const table = formatAgentChecks(rows);
      log().info(`Check Agents:\n${table}`);
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# SWE-CI: Check Agents\n\n${table}\n` });
      await vscode.window.showTextDocument(doc, { preview: true });
      const failed = rows.filter((r) => !r.ok).map((r) => r.role);
      if (failed.length === 0) void messages.showInformationMessage('Both agents work: each wrote its scratch file through its endpoint.');
      else void messages.showWarningMessage(`The ${failed.join(' and ')} cannot run yet: the table says why.`);
    } finally {
      await runtime.dispose();
    }
  } catch (err) {
    showError('Check Agents failed', err);
  }
}
