// Naming runs: SWE-CI: New Run… asks for the name of the run the next loop command starts;
// without one, a run is named after who plays the roles.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { agentHint } from '../../core/agents/agent-settings';
import { HUMAN_HISTORY_RUN, runNameProblem } from '../../core/loop/run-name';
import { suggestRunName } from '../../core/loop/run-store';
import { agentSettings } from '../config';
import { log } from '../log';
import type { TaskFolder } from '../../core/workspace/task-folder';

/** SWE-CI: New Run… — the next loop command records into a new run. */
export async function askForNewRun(task: TaskFolder | undefined, setActiveRun: (run: string) => Promise<void>): Promise<void> {
  if (!task) return void messages.showInformationMessage(vscode.l10n.t('No SWE-CI task is open. Check one out first.'));
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Name of the new run'),
    value: await suggestedRunName(task),
    validateInput: (v) => (v === HUMAN_HISTORY_RUN ? vscode.l10n.t('That name is kept for the human-history replay') : runNameProblem(v)),
  });
  if (!name) return;
  await setActiveRun(name);
  log().info(`The next iteration starts run ${name}`);
  void messages.showInformationMessage(vscode.l10n.t('The next Run Iteration or Run Loop starts run {0} (from the base commit).', name));
}

/** A free run name from who plays the roles, e.g. "claude-code-2". */
export async function suggestedRunName(task: TaskFolder): Promise<string> {
  let hint: string;
  try {
    hint = agentHint(agentSettings('architect'), agentSettings('programmer'));
  } catch {
    hint = 'run';
  }
  return suggestRunName(task, hint);
}
