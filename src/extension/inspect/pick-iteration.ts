// "Which iteration?" as a quick pick, for a command run with none chosen (from the palette, a
// keybinding, or with the Iterations view empty of a selection): the runs, newest iteration first.
import * as vscode from 'vscode';
import { readIterationRecords } from '../../core/loop/iteration-record';
import { listRuns } from '../../core/loop/run-store';
import * as messages from '../messages';
import type { RevisionRef } from '../revisions/revision-content';
import type { TaskFolder } from '../../core/workspace/task-folder';

type Item = vscode.QuickPickItem & { ref?: RevisionRef };

/** The items: a separator per run (the active one first), then its iterations, newest first. */
export async function iterationItems(task: TaskFolder, activeRun?: string): Promise<Item[]> {
  const runs = (await listRuns(task)).sort((a, b) => Number(b.info.name === activeRun) - Number(a.info.name === activeRun));
  const items: Item[] = [];
  for (const run of runs) {
    const records = await readIterationRecords(task.run(run.info.name).iterationsFile).catch(() => []);
    if (records.length === 0) continue;
    items.push({ label: run.info.name, kind: vscode.QuickPickItemKind.Separator });
    for (const r of [...records].reverse()) {
      items.push({
        label: r.iteration === 0 ? vscode.l10n.t('base') : `#${r.iteration}`,
        description: r.gap < 0 ? vscode.l10n.t('pytest did not run') : vscode.l10n.t('gap {0}', r.gap),
        detail: r.note,
        ref: { run: run.info.name, iteration: r.iteration },
      });
    }
  }
  return items;
}

/** Asks for an iteration; undefined when the user cancels or there is none. */
export async function pickIteration(task: TaskFolder, title: string, activeRun?: string): Promise<RevisionRef | undefined> {
  const items = await iterationItems(task, activeRun);
  if (!items.some((i) => i.ref)) {
    void messages.showInformationMessage(vscode.l10n.t('This task has no iterations yet: run one first (Run Iteration in the Iterations view).'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: vscode.l10n.t('an iteration (type a run name or #number to filter)'),
    matchOnDescription: true,
  });
  return picked?.ref;
}
