// While an iteration is selected for Compare, the status bar says which, until the selection is
// used (Compare with Selected) or cleared: a click compares it with an iteration the user picks.
import * as vscode from 'vscode';
import type { RevisionRef } from '../revisions/revision-content';

export function compareSelectionStatus(onDidChange: vscode.Event<RevisionRef | undefined>): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('sweci.compareSelection', vscode.StatusBarAlignment.Left, 9);
  item.name = 'SWE-CI Compare Selection';
  item.command = 'sweci.compareWithSelected';
  const sub = onDidChange((ref) => {
    if (!ref) return item.hide();
    const at = ref.iteration === 0 ? 'base' : `#${ref.iteration}`;
    item.text = `$(git-compare) ${ref.run} ${at}`;
    item.tooltip = vscode.l10n.t(
      '{0} {1} is selected for Compare. Click to compare it with another iteration; SWE-CI: Clear Compare Selection clears it.',
      ref.run,
      at,
    );
    item.show();
  });
  return vscode.Disposable.from(item, sub);
}
