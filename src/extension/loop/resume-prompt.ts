// After a window reload or a crash: each run with an iteration in progress is offered to the
// user (resume it, or discard that iteration). Never started unasked: agents cost money.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { discardPendingIteration, findPendingRuns } from '../../core/loop/run-loop';
import { showError } from '../errors';
import { log } from '../log';
import type { TaskFolder } from '../../core/workspace/task-folder';

export interface ResumePrompt {
  task: TaskFolder | undefined;
  /** Makes `run` the run the loop commands record into. */
  setActiveRun: (run: string) => Promise<void>;
  /** Continues the active run (its pending iteration first). */
  resume: () => Promise<unknown>;
}

export async function offerResume({ task, setActiveRun, resume }: ResumePrompt): Promise<void> {
  if (!task || !vscode.workspace.isTrusted) return;
  for (const summary of await findPendingRuns(task).catch(() => [])) {
    const { name } = summary.info;
    const pending = summary.pending!;
    const where = pending.lastCompletedStep ? vscode.l10n.t('after its {0} step', pending.lastCompletedStep) : vscode.l10n.t('before its first step finished');
    const resumeIt = vscode.l10n.t('Resume');
    const discard = vscode.l10n.t('Discard Iteration');
    const choice = await messages.showInformationMessage(
      vscode.l10n.t('SWE-CI: run {0} stopped in iteration {1}, {2}. Resume it from there?', name, pending.iteration, where),
      resumeIt,
      discard,
    );
    if (choice === resumeIt) {
      await setActiveRun(name);
      await resume();
    } else if (choice === discard) {
      try {
        await discardPendingIteration(task, name);
        log().info(`Discarded the pending iteration ${pending.iteration} of ${name}`);
      } catch (err) {
        showError(vscode.l10n.t('Discarding the iteration failed'), err);
      }
    }
  }
}
