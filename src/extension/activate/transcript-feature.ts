// The Transcript panel and SWE-CI: Open Transcript…: opened on a try (the Iterations view's
// Transcript rows, the iteration view's links), on the try running now (the status bar while a
// step runs), or on one the user picks.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { latestPendingTry, type TryRef } from '../../core/inspect/transcript-tries';
import type { ChangeFeed } from '../change-feed';
import { showError } from '../errors';
import type { LoopController } from '../loop/loop-controller';
import type { TaskController } from '../task-controller';
import { pickTry } from '../transcript/pick-try';
import { TranscriptDocuments } from '../transcript/transcript-documents';
import { TranscriptPanelHost } from '../transcript/transcript-panel';

/** What sweci.openTranscript takes: a try, the try running now in a run, an Iterations view row, or nothing (a pick). */
export type OpenTranscriptArgs = TryRef | { run: string; live: true } | { type: 'iteration'; run: string; record: { iteration: number } } | undefined;

export interface TranscriptFeature {
  panel: TranscriptPanelHost;
}

const isRole = (r: unknown): r is TryRef['role'] => r === 'architect' || r === 'programmer';
const isCount = (n: unknown, min: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min;

export function activateTranscript(context: vscode.ExtensionContext, controller: TaskController, feed: ChangeFeed, loop: LoopController): TranscriptFeature {
  const documents = new TranscriptDocuments();
  const panel = new TranscriptPanelHost({
    extensionUri: context.extensionUri,
    memento: context.workspaceState,
    task: () => controller.task(),
    feed,
    runningRun: () => loop.runningRun,
    documents,
  });
  const open = async (args: OpenTranscriptArgs): Promise<string | undefined> => {
    const dir = controller.task();
    if (!dir) return 'No SWE-CI task is open.';
    const a = (args ?? {}) as Record<string, unknown>;
    if (typeof a.run === 'string' && isRole(a.role) && isCount(a.iteration, 0) && isCount(a.try, 1))
      return panel.show({ run: a.run, iteration: a.iteration, role: a.role, try: a.try });
    if (typeof a.run === 'string' && a.live === true) {
      const at = await latestPendingTry(dir, a.run);
      return at ? panel.show(at) : `The step running in ${a.run} has made no model call through the gateway yet.`;
    }
    const record = a.record as { iteration?: unknown } | undefined;
    const iteration =
      a.type === 'iteration' && typeof a.run === 'string' && isCount(record?.iteration, 0) ? { run: a.run, iteration: record.iteration } : undefined;
    const at = await pickTry(dir, { firstRun: loop.runningRun ?? loop.activeRun, ...(iteration ? { iteration } : {}) });
    return at ? panel.show(at) : undefined;
  };
  context.subscriptions.push(
    documents,
    panel,
    vscode.commands.registerCommand('sweci.openTranscript', async (args?: OpenTranscriptArgs) => {
      try {
        const why = await open(args);
        if (why) void messages.showInformationMessage(why);
        return why;
      } catch (err) {
        showError(vscode.l10n.t('Open Transcript'), err);
        return undefined;
      }
    }),
  );
  return { panel };
}
