// SWE-CI: Check Agents: the core's check of each role's agent (executable and version, endpoint
// and key, one real step on a scratch task), with progress and Cancel, shown in the one Check
// Agents document (a verdict per role, then the table). Beside it, which runtimes answer on this
// machine (Docker, Podman, local) and why the others do not, as `sweci agents check` says.
import * as vscode from 'vscode';
import { checkAgents, formatAgentChecks, summarizeAgentChecks } from '../../core/agents/check/agent-check';
import { probeRuntimes, runtimeProbesTable } from '../../core/runtime/runtime-probe';
import { openHostRuntime } from '../../core/runtime/task-environment';
import { agentSettings, modelAccess, runtimeSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import * as messages from '../messages';
import type { ApiKeys } from './api-keys';
import type { CheckDocument } from './check-document';

export async function checkAgentsCommand(keys: ApiKeys, document: CheckDocument): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void messages.showWarningMessage(vscode.l10n.t('SWE-CI runs no agent in an untrusted workspace. Trust the workspace to check the agents.'));
    return;
  }
  const started = new Date().toLocaleTimeString();
  try {
    const agents = { architect: agentSettings('architect'), programmer: agentSettings('programmer') };
    const secretEnv = await keys.environment();
    const settings = runtimeSettings();
    const runtime = await openHostRuntime(settings);
    try {
      // An editor already showing the last result says that a new check is under way.
      document.set(vscode.l10n.t('Checking the agents (started at {0})…', started));
      const [rows, probes] = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('SWE-CI: Checking agents'), cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return Promise.all([
            checkAgents({ agents, secretEnv, runtime, model: modelAccess(), signal: abort.signal, onProgress: (m) => progress.report({ message: m }) }),
            // No runtime failing fails the check: it says which ones a run could use.
            probeRuntimes(settings, abort.signal),
          ]);
        },
      );
      const table = formatAgentChecks(rows);
      const summary = summarizeAgentChecks(rows);
      const runtimes = runtimeProbesTable(probes);
      log().info(`Check Agents:\n${table}\n${runtimes}`);
      const runtimesHeading = `## ${vscode.l10n.t('Runtimes on this machine (sweci.runtime: {0})', settings.runtime)}`;
      document.set(
        `${vscode.l10n.t('Checked at {0}: {1}', started, summary.headline)}\n\n${summary.lines.join('\n')}\n\n${table}\n\n${runtimesHeading}\n\n${runtimes}`,
      );
      await document.show();
      if (summary.ok) void messages.showInformationMessage(vscode.l10n.t('SWE-CI: {0}', summary.headline));
      else void messages.showWarningMessage(vscode.l10n.t('SWE-CI: {0} Check Agents says why.', summary.headline));
    } finally {
      await runtime.dispose();
    }
  } catch (err) {
    document.set(vscode.l10n.t('The check at {0} did not finish: the log says why.', started));
    showError(vscode.l10n.t('Check Agents failed'), err);
  }
}
