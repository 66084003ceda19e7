// SWE-CI: Open Transcript… without arguments: a quick pick of the open task's tries that left a
// calls record, the running run's first, newest first within each run.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { listRuns } from '../../core/loop/run-store';
import { listTries, type TryLocation } from '../../core/inspect/transcript-tries';
import type { TaskFolder } from '../../core/workspace/task-folder';

export function tryLabel(t: Pick<TryLocation, 'role' | 'try'>): string {
  return `${t.role === 'architect' ? 'Architect' : 'Programmer'} · try ${t.try}`;
}

export async function pickTry(
  task: TaskFolder,
  opts: { firstRun?: string; iteration?: { run: string; iteration: number } } = {},
): Promise<TryLocation | undefined> {
  const runs = opts.iteration ? [opts.iteration.run] : (await listRuns(task)).map((r) => r.info.name);
  runs.sort((a, b) => Number(b === opts.firstRun) - Number(a === opts.firstRun));
  const items: (vscode.QuickPickItem & { at?: TryLocation })[] = [];
  for (const run of runs) {
    const tries = (await listTries(task, run)).filter((t) => !opts.iteration || t.iteration === opts.iteration.iteration).reverse();
    if (tries.length === 0) continue;
    items.push({ label: run, kind: vscode.QuickPickItemKind.Separator });
    for (const t of tries)
      items.push({
        label: `$(comment-discussion) ${t.iteration === 0 ? vscode.l10n.t('base') : `#${t.iteration}`} · ${tryLabel(t)}`,
        description: t.pending ? vscode.l10n.t('running or unfinished') : undefined,
        at: t,
      });
  }
  if (items.length === 0) {
    void messages.showInformationMessage(
      vscode.l10n.t('No try has a transcript yet: transcripts come from agents whose model calls went through the gateway.'),
    );
    return undefined;
  }
  if (opts.iteration && items.length === 2) return items[1].at;
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Open the transcript of a try'), matchOnDescription: true }))?.at;
}
