// What a person sees of one loop call: each event as log lines and the progress message,
// warnings when a recorded iteration changed what it must not, and the call's result.
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { LoopEvent } from '../../core/loop/loop-types';
import type { LoopResult } from '../../core/loop/run-loop';
import { log } from '../log';
import { LineSplitter } from './line-splitter';

export class LoopReporter {
  /** Agent output arrives in chunks; one splitter per role, try and stream makes whole lines. */
  private readonly outputs = new Map<string, LineSplitter>();

  constructor(private readonly report: (message: string) => void) {}

  follow(event: LoopEvent): void {
    switch (event.type) {
      case 'step-started': {
        const who = event.kind === 'human' ? 'you' : (event.agent ?? event.step);
        const attempt = event.attempt > 1 ? ` (try ${event.attempt})` : '';
        this.report(`iteration ${event.iteration} · ${event.step}${event.step === 'pytest' ? '' : ` · ${who}`}${attempt}`);
        log().info(`[${event.run} #${event.iteration}] ${event.step} started${attempt}${event.logFile ? ` — log: ${event.logFile}` : ''}`);
        break;
      }
      case 'agent-output': {
        const key = `${event.role}:${event.attempt}:${event.stream}`;
        let splitter = this.outputs.get(key);
        if (!splitter) {
          splitter = new LineSplitter((line) => log().info(`${event.role} │ ${line}`));
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
  if (r.tampered.length)
    void messages.showWarningMessage(
      `Iteration ${r.iteration}: the agent changed ${r.tampered.length} test file(s). They were restored and the change is not scored.`,
    );
  if (r.harness_tampering?.length) {
    void messages.showWarningMessage(
      `Iteration ${r.iteration}: the code changes how pytest collects or reports tests (${r.harness_tampering.slice(0, 3).join(', ')}). It is flagged; sweci.integrity.excludeHarnessTampering decides whether it is scored.`,
    );
  }
  if (r.outside_changes.length)
    void messages.showWarningMessage(
      `Iteration ${r.iteration}: the agent changed files outside app/code: ${r.outside_changes.slice(0, 3).join(', ')}${r.outside_changes.length > 3 ? '…' : ''}`,
    );
}

/** How the call ended, when it ended on its own (a failure or a cancel is said by the caller). */
export function announceResult(result: LoopResult): void {
  if (result.recorded.length === 0 && (result.reason === 'solved' || result.reason === 'max-iterations')) {
    // Nothing ran: say why instead of finishing silently.
    void messages.showInformationMessage(
      result.reason === 'solved'
        ? `${result.run} is already solved (gap 0 after ${result.iterations} iteration(s)): there is nothing left to run. Use "SWE-CI: New Run…" to start another run.`
        : `${result.run} already has its maximum of ${result.iterations} iterations (gap ${result.lastGap}): nothing was run. Raise sweci.loop.maxIterations for new runs, or use "SWE-CI: New Run…".`,
    );
  } else if (result.reason === 'solved') {
    void offerNextSteps(`${result.run}: every target test passes (gap 0) after ${result.iterations} iteration(s).`, result);
  } else if (result.reason === 'max-iterations') {
    void offerNextSteps(`${result.run}: stopped after the maximum of ${result.iterations} iterations; gap ${result.lastGap}.`, result);
  } else if (result.reason === 'paused' && result.recorded.length > 0) {
    const last = result.recorded[result.recorded.length - 1];
    const at = `#${last.iteration}`;
    const what = result.recorded.length === 1 ? `iteration ${at} recorded` : `${result.recorded.length} iterations recorded, the last ${at}`;
    void offerNextSteps(`${result.run}: ${what} · ${last.gap < 0 ? 'pytest did not run' : `gap ${last.gap}`}.`, result);
  }
}

/** The message, with the two places to look next: the newest iteration, and the chart. */
async function offerNextSteps(text: string, result: LoopResult): Promise<void> {
  const last = result.recorded[result.recorded.length - 1];
  const choice = await messages.showInformationMessage(text, ...(last ? ['Open Iteration'] : []), 'Show Chart');
  if (choice === 'Open Iteration' && last) await vscode.commands.executeCommand('sweci.openIteration', { run: result.run, iteration: last.iteration });
  else if (choice === 'Show Chart') await vscode.commands.executeCommand('sweci.showChart');
}
