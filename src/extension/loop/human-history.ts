// SWE-CI: Record Human History — replays the upstream first-parent commits as the run
// `human-history`, with the progress, the log lines and the closing message a person sees.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { commitStartedName, replayHumanHistory } from '../../core/history/replay-history';
import type { LoopEvent } from '../../core/loop/loop-types';
import type { IterationRecord } from '../../core/loop/iteration-record';
import { HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import { historyRequest } from '../../core/loop/loop-request';
import { runSettings } from '../config';
import type { EnvironmentManager } from '../environment/environment-manager';
import { isAbortError } from '../../core/util/errors';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TaskFolder } from '../../core/workspace/task-folder';

export interface HumanHistoryCall {
  task: TaskFolder;
  environments: EnvironmentManager;
  /** SWE-CI: Stop (the loop controller's slot); the notification's Cancel aborts too. */
  signal: AbortSignal;
  /** Each recorded commit, as the loop's `iteration-recorded` event, for the views that follow runs live. */
  onEvent: (event: LoopEvent) => void;
  /** Each message the progress notification shows (the status bar follows it). */
  onProgress: (message: string) => void;
}

export async function recordHumanHistory({ task, environments, signal: stop, onEvent, onProgress }: HumanHistoryCall): Promise<void> {
  let recorded = 0;
  try {
    const settings = runSettings(vscode.Uri.file(task.root));
    const result = await withCancellableProgress(vscode.l10n.t('SWE-CI: recording the human history'), ({ report: toast, signal: cancel }) => {
      const report = (message: string) => {
        toast(message);
        onProgress(message);
      };
      const signal = AbortSignal.any([stop, cancel]);
      return environments.use(task, { signal, report }, (env) =>
        replayHumanHistory({
          ...historyRequest(settings, env),
          task,
          signal,
          onEvent: (e) => {
            if (e.type === 'commit-started') {
              report(`${commitStartedName(e)}: ${e.sha.slice(0, 10)} ${e.subject}`);
              log().info(`[human-history] ${e.sha.slice(0, 10)} ${e.subject}`);
            } else if (e.type === 'commit-recorded') {
              recorded++;
              log().info(`[human-history #${e.record.iteration}] gap ${e.record.gap}`);
              onEvent({ type: 'iteration-recorded', run: HUMAN_HISTORY_RUN, record: e.record });
            }
          },
        }),
      );
    });
    log().info(`Human history: ${result.ran} commits run, ${result.cached} from the cache`);
    void offerHistory(result.records, result.ran, result.cached);
  } catch (err) {
    if (!isAbortError(err)) return showError(vscode.l10n.t('Recording the human history failed'), err);
    // The core keeps the commits recorded before the stop (a next replay skips them).
    log().info(`Record Human History: cancelled after ${recorded} commit${recorded === 1 ? '' : 's'}`);
    const kept =
      recorded === 0
        ? ''
        : ' ' +
          (recorded === 1
            ? vscode.l10n.t('The 1 commit recorded before it stay; a next replay goes on from there.')
            : vscode.l10n.t('The {0} commits recorded before it stay; a next replay goes on from there.', recorded));
    void messages.showInformationMessage(vscode.l10n.t('SWE-CI: Record Human History cancelled. Nothing partial was recorded.') + kept);
  }
}

/** What was recorded, in the words of the chart (commits, gaps), and where to look at it. */
async function offerHistory(records: readonly IterationRecord[], ran: number, cached: number): Promise<void> {
  const commits = records.length - 1;
  const last = records[records.length - 1];
  const gap = (r: IterationRecord | undefined) => (r === undefined ? '?' : r.gap < 0 ? vscode.l10n.t('not measured') : String(r.gap));
  const reuse =
    cached > 0
      ? ' ' + vscode.l10n.t('pytest ran on {0} of the {1} states (the base and each commit); {2} came from the cache.', ran, ran + cached, cached)
      : '';
  const showChart = vscode.l10n.t('Show Chart');
  const openLast = vscode.l10n.t('Open Last Commit');
  const text =
    commits === 1
      ? vscode.l10n.t(
          'Human history recorded as the run {0}: 1 developer commit, gap {1} at the base → {2} after the last commit.',
          HUMAN_HISTORY_RUN,
          gap(records[0]),
          gap(last),
        )
      : vscode.l10n.t(
          'Human history recorded as the run {0}: {1} developer commits, gap {2} at the base → {3} after the last commit.',
          HUMAN_HISTORY_RUN,
          commits,
          gap(records[0]),
          gap(last),
        );
  const choice = await messages.showInformationMessage(text + reuse, showChart, ...(last && commits > 0 ? [openLast] : []));
  if (choice === showChart) await vscode.commands.executeCommand('sweci.showChart');
  else if (choice === openLast && last) await vscode.commands.executeCommand('sweci.openIteration', { run: HUMAN_HISTORY_RUN, iteration: last.iteration });
}
