// SWE-CI: Record Human History — replays the upstream first-parent commits as the run
// `human-history`, with the progress, the log lines and the closing message a person sees.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { replayHumanHistory } from '../../core/history/replay-history';
import type { LoopEvent } from '../../core/loop/loop-types';
import { HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import { loopSettings, pytestSettings } from '../config';
import type { EnvironmentManager } from '../environment/environment-manager';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';

export interface HumanHistoryCall {
  taskDir: string;
  environments: EnvironmentManager;
  /** Each recorded commit, as the loop's `iteration-recorded` event, for the views that follow runs live. */
  onEvent: (event: LoopEvent) => void;
}

export async function recordHumanHistory({ taskDir, environments, onEvent }: HumanHistoryCall): Promise<void> {
  try {
    const scope = vscode.Uri.file(taskDir);
    const { historyCommits, historyTimeoutMs } = loopSettings(scope);
    const result = await withCancellableProgress('SWE-CI: recording the human history', ({ report, signal }) =>
      environments.use(taskDir, { signal, report }, (env) =>
        replayHumanHistory({
          ...pytestSettings(scope),
          runtime: env.tests,
          python: env.python,
          timeoutMs: historyTimeoutMs,
          taskDir,
          count: historyCommits,
          signal,
          onEvent: (e) => {
            if (e.type === 'commit-started') {
              report(`commit ${e.index + 1} of ${e.total}: ${e.sha.slice(0, 10)} ${e.subject}`);
              log().info(`[human-history] ${e.sha.slice(0, 10)} ${e.subject}`);
            } else if (e.type === 'commit-recorded') {
              log().info(`[human-history #${e.record.iteration}] gap ${e.record.gap}`);
              onEvent({ type: 'iteration-recorded', run: HUMAN_HISTORY_RUN, record: e.record });
            }
          },
        }),
      ),
    );
    log().info(`Human history: ${result.ran} commits run, ${result.cached} from the cache`);
    void messages.showInformationMessage(
      `Human history recorded: ${result.records.length - 1} developer commits, ${result.ran ? `${result.ran} tested now` : 'none tested now'}${result.cached ? ` and ${result.cached} from the cache` : ''}.`,
    );
  } catch (err) {
    showError('Recording the human history failed', err);
  }
}
