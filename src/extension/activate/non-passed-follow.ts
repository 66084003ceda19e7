// The Non-passed view follows the iteration view: while an iteration is shown, the view lists
// the tests as they were there, until the user asks for the current code's again.
import * as vscode from 'vscode';
import { iterationNonPassed } from '../../core/inspect/iteration-details';
import type { IterationViewHost } from '../inspect/iteration-view';
import * as messages from '../messages';
import type { RevisionRef } from '../revisions/revision-content';
import type { TaskController } from '../task-controller';
import type { NonPassedTreeProvider } from '../views/non-passed-tree';

const FOLLOW_KEY = 'sweci.nonPassed.followIteration';

export function activateNonPassedFollow(
  context: vscode.ExtensionContext,
  controller: TaskController,
  tree: NonPassedTreeProvider,
  view: IterationViewHost,
  updateView: () => void,
): void {
  let followed = 0;
  const follow = async (ref: RevisionRef | undefined) => {
    const dir = controller.task();
    const on = context.workspaceState.get<boolean>(FOLLOW_KEY, true);
    const call = ++followed;
    const data = on && ref && dir ? await iterationNonPassed(dir, ref.run, ref.iteration).catch(() => undefined) : undefined;
    // Quick steps: only the latest iteration's tests are shown, whichever load finishes last.
    if (call !== followed) return;
    tree.showIteration(data && ref ? { label: `${ref.run} ${ref.iteration === 0 ? 'base' : `#${ref.iteration}`}`, data } : undefined);
    updateView();
    await vscode.commands.executeCommand('setContext', 'sweci.nonPassedAtIteration', !!data);
    await vscode.commands.executeCommand('setContext', 'sweci.nonPassedFollows', on);
  };
  const shownRef = (): RevisionRef | undefined => {
    const shown = view.shown;
    return shown?.kind === 'iteration' ? { run: shown.details.run, iteration: shown.details.iteration } : undefined;
  };
  context.subscriptions.push(
    view.onDidShowIteration((ref) => void follow(ref)),
    vscode.commands.registerCommand('sweci.showCurrentNonPassed', async () => {
      await context.workspaceState.update(FOLLOW_KEY, false);
      await follow(undefined);
    }),
    vscode.commands.registerCommand('sweci.followIterationView', async () => {
      await context.workspaceState.update(FOLLOW_KEY, true);
      const ref = shownRef();
      await follow(ref);
      // With no iteration open nothing changes yet: say what will.
      if (!ref) {
        const choice = await messages.showInformationMessage(
          vscode.l10n.t("The Non-passed view now follows the Iteration view: open an iteration and it lists that iteration's tests."),
          vscode.l10n.t('Open Iteration…'),
        );
        if (choice) await vscode.commands.executeCommand('sweci.openIteration');
      }
    }),
  );
  void vscode.commands.executeCommand('setContext', 'sweci.nonPassedFollows', context.workspaceState.get<boolean>(FOLLOW_KEY, true));
}
