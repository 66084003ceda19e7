// SWE-CI: Replay Run… — the loop again on what the model said in a recorded run: every model call
// is answered from that run's recording, no model is called, and the new run shows whether the
// agents do the same given the same answers (a prompt or agent that changed diverges, named).
import * as vscode from 'vscode';
import * as messages from '../messages';
import { hasRecordedCalls } from '../../core/loop/run-replay';
import { listRuns, suggestRunName } from '../../core/loop/run-store';
import type { TaskFolder } from '../../core/workspace/task-folder';

/**
 * The run to replay (the one given, or picked), how many iterations it recorded (the replay goes
 * no further: past them nothing is recorded), and the new run it replays into; undefined when
 * there is none or the user cancelled.
 */
export async function pickReplayedRun(task: TaskFolder | undefined, given?: string): Promise<{ run: string; iterations: number; into: string } | undefined> {
  if (!task) return void messages.showInformationMessage(vscode.l10n.t('No SWE-CI task is open. Check one out first.'));
  const runs = (await listRuns(task)).filter((r) => r.info.kind === 'loop');
  const replayable: string[] = [];
  const iterations = new Map<string, number>();
  for (const r of runs) {
    if (!(await hasRecordedCalls(task, r.info.name))) continue;
    replayable.push(r.info.name);
    iterations.set(r.info.name, r.iterations);
  }
  let run = given;
  if (run === undefined) {
    if (replayable.length === 0) {
      return void messages.showInformationMessage(
        vscode.l10n.t(
          'No run of this task recorded its model calls: only agents with a model endpoint (sweci.agents.baseUrl) go through the gateway that records them.',
        ),
      );
    }
    run = await vscode.window.showQuickPick(replayable, { title: vscode.l10n.t('Replay which run? Its model calls answer the new run.') });
    if (!run) return undefined;
  } else if (!replayable.includes(run)) {
    return void messages.showInformationMessage(
      vscode.l10n.t(
        'Run {0} recorded no model calls through the gateway (a custom agent without an endpoint, a human, or a run made before the gateway): there is nothing to replay.',
        run,
      ),
    );
  }
  return { run, iterations: iterations.get(run) ?? 0, into: await suggestRunName(task, `${run}-replay`) };
}
