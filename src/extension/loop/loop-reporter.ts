// What a person sees of one loop call: each event as log lines and the progress message,
// warnings when a recorded iteration changed what it must not, and the call's result.
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { AgentRole } from '../../core/agents/agent-driver';
import type { LoopEvent } from '../../core/loop/loop-types';
import { HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import type { LoopResult } from '../../core/loop/run-loop';
import { log } from '../log';
import { plural } from '../../core/util/plural';
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
        const attempt = event.attempt > 1 ? ` (try ${event.attempt})` : '';
        this.report(`iteration ${event.iteration} · ${event.step}${event.step === 'pytest' ? '' : ` · ${who}`}${attempt}`);
        log().info(`[${event.run} #${event.iteration}] ${event.step} started${attempt}${event.logFile ? ` — log: ${event.logFile}` : ''}`);
        break;
      }
      case 'agent-output': {
        const key = `${event.role}:${event.attempt}:${event.stream}`;
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
      `Iteration ${r.iteration}: ${who} changed ${r.tampered.length === 1 ? 'a test file' : `${r.tampered.length} test files`} (${r.tampered.slice(0, 3).join(', ')}${r.tampered.length > 3 ? '…' : ''}). ${r.tampered.length === 1 ? 'It was' : 'They were'} restored and the change is not scored.`,
    );
  if (r.harness_tampering?.length) {
    void messages.showWarningMessage(
      `Iteration ${r.iteration}: the code changes how pytest collects or reports tests (${r.harness_tampering.slice(0, 3).join(', ')}). Its report cannot be trusted: it is flagged, and scored at the run's last honest measurement (sweci.integrity.keepFlagged scores its raw figure).`,
    );
  }
  if (r.outside_changes.length)
    void messages.showWarningMessage(
      `Iteration ${r.iteration}: ${who} changed files outside app/code: ${r.outside_changes.slice(0, 3).join(', ')}${r.outside_changes.length > 3 ? '…' : ''}`,
    );
}

/** Who changed an iteration's test files, as a warning names them: the agents, you, or the upstream developers. */
function changedBy(event: Extract<LoopEvent, { type: 'iteration-recorded' }>): string {
  if (event.run === HUMAN_HISTORY_RUN) return "the developers' commit";
  const r = event.record;
  const roles = (['architect', 'programmer'] as const).filter((role) => event.tamperedBy?.[role]?.length);
  const who = (roles.length ? roles : (['architect', 'programmer'] as const)).map((role) => r[role]?.kind).filter(Boolean);
  const kinds = new Set(who);
  if (kinds.size === 1)
    return kinds.has('human') ? 'you' : roles.length === 1 ? `the ${roles[0] === 'architect' ? 'Architect' : 'Programmer'} agent` : 'the agents';
  return 'you and the agent';
}

/** How the call ended, when it ended on its own (a failure or a cancel is said by the caller). */
export function announceResult(result: LoopResult, stoppedAfter?: { role: AgentRole; requirementFile: string }): void {
  if (result.reason === 'paused' && result.recorded.length === 0 && stoppedAfter) {
    void offerStepAfter(result, stoppedAfter.role, stoppedAfter.requirementFile);
  } else if (result.recorded.length === 0 && (result.reason === 'solved' || result.reason === 'max-iterations')) {
    // Nothing ran: say why instead of finishing silently.
    void messages.showInformationMessage(
      result.reason === 'solved'
        ? `${result.run} is already solved (gap 0 after ${plural(result.iterations, 'iteration')}): there is nothing left to run. Use "SWE-CI: New Run…" to start another run.`
        : `${result.run} already has its maximum of ${result.iterations} iterations (gap ${result.lastGap}): nothing was run. Raise sweci.loop.maxIterations for new runs, or use "SWE-CI: New Run…".`,
    );
  } else if (result.reason === 'solved') {
    void offerNextSteps(`${result.run}: every target test passes (gap 0) after ${plural(result.iterations, 'iteration')}.`, result);
  } else if (result.reason === 'max-iterations') {
    void offerNextSteps(`${result.run}: stopped after the maximum of ${result.iterations} iterations; gap ${result.lastGap}.`, result);
  } else if (result.reason === 'paused' && result.recorded.length > 0) {
    const last = result.recorded[result.recorded.length - 1];
    const at = `#${last.iteration}`;
    const what = result.recorded.length === 1 ? `iteration ${at} recorded` : `${result.recorded.length} iterations recorded, the last ${at}`;
    void offerNextSteps(`${result.run}: ${what} · ${last.gap < 0 ? 'pytest did not run' : `gap ${last.gap}`}.`, result);
  }
}

/** After Run Architect or Run Programmer: what the step left, and the step that comes next. */
async function offerStepAfter(result: LoopResult, role: AgentRole, requirementFile: string): Promise<void> {
  const at = `${result.run} #${result.iterations + 1}`;
  if (role === 'architect') {
    const choice = await messages.showInformationMessage(
      `${at}: the Architect wrote requirement.xml. Next: Run Programmer (or Run Iteration to go on through pytest).`,
      'Run Programmer',
      'Open requirement.xml',
    );
    if (choice === 'Run Programmer') await vscode.commands.executeCommand('sweci.runProgrammer');
    else if (choice === 'Open requirement.xml') await vscode.window.showTextDocument(vscode.Uri.file(requirementFile), { preview: false });
  } else {
    const choice = await messages.showInformationMessage(
      `${at}: the Programmer is done. Next: Run Tests, which runs pytest and records the iteration.`,
      'Run Tests',
    );
    if (choice === 'Run Tests') await vscode.commands.executeCommand('sweci.runTests');
  }
}

/** The message, with the two places to look next: the newest iteration, and the chart. */
async function offerNextSteps(text: string, result: LoopResult): Promise<void> {
  const last = result.recorded[result.recorded.length - 1];
  const choice = await messages.showInformationMessage(text, ...(last ? ['Open Iteration'] : []), 'Show Chart');
  if (choice === 'Open Iteration' && last) await vscode.commands.executeCommand('sweci.openIteration', { run: result.run, iteration: last.iteration });
  else if (choice === 'Show Chart') await vscode.commands.executeCommand('sweci.showChart');
}
