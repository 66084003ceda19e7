// What a person sees of one loop call: each event as log lines and the progress message,
// warnings when a recorded iteration changed what it must not, and the call's result.
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { AgentRole } from '../../core/agents/agent-driver';
import type { LoopEvent } from '../../core/loop/loop-types';
import { HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import type { LoopResult } from '../../core/loop/run-loop';
import { log } from '../log';
import { WholeLines } from '../../core/util/whole-lines';
import { splitLines } from '../../shared/split-lines';

export class LoopReporter {
  /** Agent output arrives in chunks; one splitter per role, try and stream makes whole lines. */
  private readonly outputs = new Map<string, WholeLines>();

  constructor(private readonly report: (message: string) => void) {}

  follow(event: LoopEvent): void {
    switch (event.type) {
      case 'step-started': {
        const who = event.kind === 'human' ? 'you' : (event.agent ?? event.step);
        const tryNote = event.try > 1 ? ` (try ${event.try})` : '';
        this.report(`iteration ${event.iteration} · ${event.step}${event.step === 'pytest' ? '' : ` · ${who}`}${tryNote}`);
        log().info(`[${event.run} #${event.iteration}] ${event.step} started${tryNote}${event.logFile ? ` — log: ${event.logFile}` : ''}`);
        break;
      }
      case 'agent-output': {
        const key = `${event.role}:${event.try}:${event.stream}`;
        let splitter = this.outputs.get(key);
        if (!splitter) {
          splitter = new WholeLines((lines) => {
            for (const line of splitLines(lines)) log().info(`${event.role} │ ${line}`);
          });
          this.outputs.set(key, splitter);
        }
        splitter.push(event.chunk);
        break;
      }
      case 'pytest-output':
        for (const line of event.chunk.split(/\r?\n/)) if (line) log().trace(`pytest │ ${line}`);
        break;
      case 'step-finished': {
        const secs = (event.durationMs / 1000).toFixed(1);
        const line = `[${event.run} #${event.iteration}] ${event.step} ${event.ok ? 'finished' : 'failed'} in ${secs} s${event.message ? `: ${event.message}` : ''}`;
        if (event.ok) log().info(line);
        else log().warn(line);
        break;
      }
      case 'iteration-recorded':
        warnAbout(event);
        break;
      case 'loop-finished':
        log().info(`[${event.run}] stopped: ${event.reason}${event.error ? ` (${event.error})` : ''}`);
        break;
    }
  }

  /** The agents' last lines without a newline, when the call ends. */
  flush(): void {
    for (const s of this.outputs.values()) s.flush();
  }
}

/** The recorded line in the log; a toast for each thing the agent changed that it must not. */
function warnAbout(event: Extract<LoopEvent, { type: 'iteration-recorded' }>): void {
  const r = event.record;
  log().info(
    `[${event.run} #${r.iteration}] recorded: gap ${r.gap}${r.regressions.length ? `, ${r.regressions.length} regressions` : ''}${r.tampered.length ? `, tests/ tampered: ${r.tampered.join(', ')}` : ''}`,
  );
  const who = changedBy(event);
  if (r.tampered.length)
    void messages.showWarningMessage(
      r.tampered.length === 1
        ? vscode.l10n.t('Iteration {0}: {1} changed a test file ({2}). It was restored and the change is not scored.', r.iteration, who, r.tampered[0])
        : vscode.l10n.t(
            'Iteration {0}: {1} changed {2} test files ({3}). They were restored and the change is not scored.',
            r.iteration,
            who,
            r.tampered.length,
            r.tampered.slice(0, 3).join(', ') + (r.tampered.length > 3 ? '…' : ''),
          ),
    );
  if (r.harness_tampering?.length) {
    void messages.showWarningMessage(
      vscode.l10n.t(
        "Iteration {0}: the code changes how pytest collects or reports tests ({1}). Its report cannot be trusted: it is flagged, and scored at the run's last honest measurement (sweci.integrity.keepFlagged scores its raw figure).",
        r.iteration,
        r.harness_tampering.slice(0, 3).join(', '),
      ),
    );
  }
  if (r.outside_changes.length)
    void messages.showWarningMessage(
      vscode.l10n.t(
        'Iteration {0}: {1} changed files outside app/code: {2}',
        r.iteration,
        who,
        r.outside_changes.slice(0, 3).join(', ') + (r.outside_changes.length > 3 ? '…' : ''),
      ),
    );
}

/** Who changed an iteration's test files, as a warning names them: the agents, you, or the upstream developers. */
function changedBy(event: Extract<LoopEvent, { type: 'iteration-recorded' }>): string {
  if (event.run === HUMAN_HISTORY_RUN) return vscode.l10n.t("the developers' commit");
  const r = event.record;
  const roles = (['architect', 'programmer'] as const).filter((role) => event.tamperedBy?.[role]?.length);
  const who = (roles.length ? roles : (['architect', 'programmer'] as const)).map((role) => r[role]?.kind).filter(Boolean);
  const kinds = new Set(who);
  if (kinds.size === 1)
    return kinds.has('human')
      ? vscode.l10n.t('you')
      : roles.length === 1
        ? roles[0] === 'architect'
          ? vscode.l10n.t('the Architect agent')
          : vscode.l10n.t('the Programmer agent')
        : vscode.l10n.t('the agents');
  return vscode.l10n.t('you and the agent');
}

/** How the call ended, when it ended on its own (a failure or a cancel is said by the caller). */
export function announceResult(result: LoopResult, stoppedAfter?: { role: AgentRole; requirementFile: string }): void {
  if (result.reason === 'paused' && result.recorded.length === 0 && stoppedAfter) {
    void offerStepAfter(result, stoppedAfter.role, stoppedAfter.requirementFile);
  } else if (result.recorded.length === 0 && (result.reason === 'solved' || result.reason === 'max-iterations')) {
    // Nothing ran: say why instead of finishing silently.
    void messages.showInformationMessage(
      result.reason === 'solved'
        ? vscode.l10n.t(
            '{0} is already solved (gap 0 after {1}): there is nothing left to run. Use "SWE-CI: New Run…" to start another run.',
            result.run,
            iterationCount(result.iterations),
          )
        : vscode.l10n.t(
            '{0} already has its maximum of {1} iterations (gap {2}): nothing was run. Raise sweci.loop.maxIterations for new runs, or use "SWE-CI: New Run…".',
            result.run,
            result.iterations,
            String(result.lastGap),
          ),
    );
  } else if (result.reason === 'solved') {
    void offerNextSteps(vscode.l10n.t('{0}: every target test passes (gap 0) after {1}.', result.run, iterationCount(result.iterations)), result);
  } else if (result.reason === 'max-iterations') {
    void offerNextSteps(
      vscode.l10n.t('{0}: stopped after the maximum of {1} iterations; gap {2}.', result.run, result.iterations, String(result.lastGap)),
      result,
    );
  } else if (result.reason === 'paused' && result.recorded.length > 0) {
    const last = result.recorded[result.recorded.length - 1];
    const at = `#${last.iteration}`;
    const what =
      result.recorded.length === 1
        ? vscode.l10n.t('iteration {0} recorded', at)
        : vscode.l10n.t('{0} iterations recorded, the last {1}', result.recorded.length, at);
    void offerNextSteps(`${result.run}: ${what} · ${last.gap < 0 ? vscode.l10n.t('pytest did not run') : vscode.l10n.t('gap {0}', last.gap)}.`, result);
  }
}

/** After Run Architect or Run Programmer: what the step left, and the step that comes next. */
async function offerStepAfter(result: LoopResult, role: AgentRole, requirementFile: string): Promise<void> {
  const at = `${result.run} #${result.iterations + 1}`;
  if (role === 'architect') {
    const runProgrammer = vscode.l10n.t('Run Programmer');
    const openRequirement = vscode.l10n.t('Open requirement.xml');
    const choice = await messages.showInformationMessage(
      vscode.l10n.t('{0}: the Architect wrote requirement.xml. Next: Run Programmer (or Run Iteration to go on through pytest).', at),
      runProgrammer,
      openRequirement,
    );
    if (choice === runProgrammer) await vscode.commands.executeCommand('sweci.runProgrammer');
    else if (choice === openRequirement) await vscode.window.showTextDocument(vscode.Uri.file(requirementFile), { preview: false });
  } else {
    const runTests = vscode.l10n.t('Run Tests');
    const choice = await messages.showInformationMessage(
      vscode.l10n.t('{0}: the Programmer is done. Next: Run Tests, which runs pytest and records the iteration.', at),
      runTests,
    );
    if (choice === runTests) await vscode.commands.executeCommand('sweci.runTests');
  }
}

/** The message, with the two places to look next: the newest iteration, and the chart. */
async function offerNextSteps(text: string, result: LoopResult): Promise<void> {
  const last = result.recorded[result.recorded.length - 1];
  const openIteration = vscode.l10n.t('Open Iteration');
  const showChart = vscode.l10n.t('Show Chart');
  const choice = await messages.showInformationMessage(text, ...(last ? [openIteration] : []), showChart);
  if (choice === openIteration && last) await vscode.commands.executeCommand('sweci.openIteration', { run: result.run, iteration: last.iteration });
  else if (choice === showChart) await vscode.commands.executeCommand('sweci.showChart');
}

/** '1 iteration', '3 iterations' in the display language. */
function iterationCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 iteration') : vscode.l10n.t('{0} iterations', n);
}
