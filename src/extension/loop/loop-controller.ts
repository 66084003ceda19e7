// Runs the CI loop from commands: one step, one iteration, or the loop, with agents or the
// user in each role. The core loop owns the state (files); this class only starts it,
// threads cancellation down, and forwards its events to the log and the views.
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { AgentRole } from '../../core/agents/agent-driver';
import { agentHint as hintFor } from '../../core/agents/agent-settings';
import { setUpRoles } from '../../core/loop/role-setup';
import type { TaskEnvironment } from '../../core/runtime/task-environment';
import type { EnvironmentManager } from '../environment/environment-manager';
import type { LoopEvent, LoopOptions, RoleSetup } from '../../core/loop/loop-types';
import { replayHumanHistory } from '../../core/history/replay-history';
import { createRun, discardPendingIteration, findPendingRuns, removeRunWithoutIterations, runLoop, type LoopResult } from '../../core/loop/run-loop';
import { readRunInfo, suggestRunName } from '../../core/loop/run-store';
import { runNameProblem, HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import type { ApiKeys } from '../agents/api-keys';
import { agentSettings, integritySettings, loopSettings, pytestSettings } from '../config';
import { isAbortError, errorMessage } from '../../core/util/errors';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TaskController } from '../task-controller';
import { requireTrust } from '../trust';
import { HumanSteps } from './human-step';
import { LineSplitter } from './line-splitter';

const ACTIVE_RUN = 'sweci.activeRun';

export interface ExecuteRequest {
  /** What the user asked for, for titles and logs. */
  title: string;
  /** Roles the user plays in this call (the others use their configured agent). */
  human?: AgentRole[];
  iterations?: number;
  stopAfterStep?: AgentRole;
}

export class LoopController implements vscode.Disposable {
  readonly humans = new HumanSteps();
  private readonly emitter = new vscode.EventEmitter<LoopEvent>();
  /** Every loop event, for views that follow a run live. */
  readonly onEvent = this.emitter.event;
  private readonly progressEmitter = new vscode.EventEmitter<string>();
  /** Each message the progress notification shows, at the same moment (the status bar follows it). */
  readonly onProgress = this.progressEmitter.event;
  private running: { abort: AbortController; run: string; done: Promise<LoopResult | undefined> } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly tasks: TaskController,
    private readonly environments: EnvironmentManager,
    private readonly keys: ApiKeys,
  ) {}

  get activeRun(): string | undefined {
    return this.context.workspaceState.get<string>(ACTIVE_RUN);
  }

  get runningRun(): string | undefined {
    return this.running?.run;
  }

  async setActiveRun(run: string | undefined): Promise<void> {
    await this.context.workspaceState.update(ACTIVE_RUN, run);
  }

  /** SWE-CI: New Run… — the next loop command records into a new run. */
  async newRun(): Promise<void> {
    const taskDir = this.tasks.taskDir();
    if (!taskDir) return void messages.showInformationMessage('No SWE-CI task is open. Check one out first.');
    const suggestion = await suggestRunName(taskDir, agentHint());
    const name = await vscode.window.showInputBox({
      title: 'Name of the new run',
      value: suggestion,
      validateInput: (v) => (v === HUMAN_HISTORY_RUN ? 'That name is kept for the human-history replay' : runNameProblem(v)),
    });
    if (!name) return;
    await this.setActiveRun(name);
    log().info(`The next iteration starts run ${name}`);
    void messages.showInformationMessage(`The next Run Iteration or Run Loop starts run ${name} (from the base commit).`);
  }

  /** Stops the running loop: agents and pytest are killed, nothing partial is recorded. */
  stop(): void {
    if (!this.running) return void messages.showInformationMessage('No SWE-CI run is in progress.');
    log().info(`Stopping run ${this.running.run}`);
    this.running.abort.abort();
  }

  submit(): void {
    if (!this.humans.submit()) {
      void messages.showInformationMessage('Nothing waits for a submit. Start with "SWE-CI: I\'ll Be the Programmer" or "I\'ll Be the Architect".');
    }
  }

  async execute(req: ExecuteRequest): Promise<LoopResult | undefined> {
    const taskDir = this.tasks.taskDir();
    if (!taskDir) {
      void messages.showInformationMessage('No SWE-CI task is open. Check one out first.');
      return undefined;
    }
    if (!requireTrust('run agents')) return undefined;
    if (this.running) {
      void messages.showWarningMessage(`Run ${this.running.run} is in progress. Stop it first, or wait for it.`);
      return undefined;
    }
    const abort = new AbortController();
    const done = this.executeIn(taskDir, req, abort);
    this.running = { abort, run: this.activeRun ?? '…', done };
    try {
      return await done;
    } finally {
      this.running = undefined;
      await this.tasks.reload();
    }
  }

  private async executeIn(taskDir: string, req: ExecuteRequest, abort: AbortController): Promise<LoopResult | undefined> {
    try {
      const outputs = new Map<string, LineSplitter>();
      return await withCancellableProgress(`SWE-CI: ${req.title}`, async ({ report: toast, signal }) => {
        // One report for the toast and the status bar, so neither lags the other.
        const report = (message: string) => {
          toast(message);
          this.progressEmitter.fire(message);
        };
        signal.addEventListener('abort', () => abort.abort(), { once: true });
        return this.environments.use(taskDir, { signal: abort.signal, report }, async (env) => {
          const roles = await this.roles(req.human ?? [], env);
          const { run, created } = await this.ensureRun(taskDir, roles, env);
          if (this.running) this.running.run = run;
          report(`run ${run}`);
          const onEvent = (event: LoopEvent) => {
            this.follow(event, report, outputs);
            this.emitter.fire(event);
          };
          const options: LoopOptions = {
            taskDir,
            run,
            roles,
            ...testsIn(taskDir, env),
            humanStep: this.humans.step,
            signal: abort.signal,
            onEvent,
            iterations: req.iterations,
            stopAfterStep: req.stopAfterStep,
            maxFileMb: integritySettings(vscode.Uri.file(taskDir)).maxFileMb,
            maxIterationMb: integritySettings(vscode.Uri.file(taskDir)).maxIterationMb,
          };
          let result: LoopResult;
          try {
            result = await runLoop(options);
          } catch (err) {
            for (const s of outputs.values()) s.flush();
            if (created) await this.removeEmptyRun(taskDir, run);
            throw err;
          }
          for (const s of outputs.values()) s.flush();
          this.announce(result);
          return result;
        });
      });
    } catch (err) {
      if (isAbortError(err)) {
        log().info(`${req.title}: cancelled`);
        void messages.showInformationMessage(`SWE-CI: ${req.title} cancelled. Nothing partial was recorded.`);
      } else {
        showError(`${req.title} failed`, err);
      }
      return undefined;
    }
  }

  /**
   * A run this call created whose first iteration never completed a step (an agent missing,
   * a cancel) holds nothing: remove it rather than leave an empty run with a pending iteration.
   * The active run keeps its name, so the next call creates it again.
   */
  private async removeEmptyRun(taskDir: string, run: string): Promise<void> {
    try {
      if (await removeRunWithoutIterations(taskDir, run)) log().info(`Removed run ${run}: it had no completed step yet`);
    } catch (err) {
      log().warn(`Could not remove the empty run ${run}: ${errorMessage(err)}`);
    }
  }

  /**
   * After a window reload or a crash: a run with an iteration in progress is offered to the
   * user (resume it, or discard that iteration). Never started unasked: agents cost money.
   */
  async offerResume(resume: () => Promise<unknown>): Promise<void> {
    const taskDir = this.tasks.taskDir();
    if (!taskDir || !vscode.workspace.isTrusted) return;
    for (const summary of await findPendingRuns(taskDir).catch(() => [])) {
      const { name } = summary.info;
      const pending = summary.pending!;
      const where = pending.lastCompletedStep ? `after its ${pending.lastCompletedStep} step` : 'before its first step finished';
      const choice = await messages.showInformationMessage(
        `SWE-CI: run ${name} stopped in iteration ${pending.iteration}, ${where}. Resume it from there?`,
        'Resume',
        'Discard Iteration',
      );
      if (choice === 'Resume') {
        await this.setActiveRun(name);
        await resume();
      } else if (choice === 'Discard Iteration') {
        try {
          await discardPendingIteration(taskDir, name);
          log().info(`Discarded the pending iteration ${pending.iteration} of ${name}`);
        } catch (err) {
          showError('Discarding the iteration failed', err);
        }
      }
    }
  }

  /** SWE-CI: Record Human History — replays the upstream first-parent commits as the run `human-history`. */
  async recordHumanHistory(): Promise<void> {
    const taskDir = this.tasks.taskDir();
    if (!taskDir) return void messages.showInformationMessage('No SWE-CI task is open. Check one out first.');
    if (!requireTrust('replay the human history')) return;
    try {
      const { historyCommits, historyTimeoutMs } = loopSettings(vscode.Uri.file(taskDir));
      const result = await withCancellableProgress('SWE-CI: recording the human history', ({ report, signal }) =>
        this.environments.use(taskDir, { signal, report }, (env) =>
          replayHumanHistory({
            ...pytestSettings(vscode.Uri.file(taskDir)),
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
                this.emitter.fire({ type: 'iteration-recorded', run: HUMAN_HISTORY_RUN, record: e.record });
              }
            },
          }),
        ),
      );
      log().info(`Human history: ${result.ran} commits run, ${result.cached} from the cache`);
      void messages.showInformationMessage(`Human history recorded: ${result.records.length - 1} commits (${result.ran} run now, ${result.cached} cached).`);
    } catch (err) {
      showError('Recording the human history failed', err);
    }
  }

  private async roles(human: AgentRole[], env: TaskEnvironment): Promise<Record<AgentRole, RoleSetup>> {
    const agents = {
      architect: human.includes('architect') ? { kind: 'human' as const } : agentSettings('architect'),
      programmer: human.includes('programmer') ? { kind: 'human' as const } : agentSettings('programmer'),
    };
    return setUpRoles(agents, env, await this.keys.environment());
  }

  /** The active run, created (branch at the base, line 0 = the base run) when it does not exist yet. */
  private async ensureRun(taskDir: string, roles: Record<AgentRole, RoleSetup>, env: TaskEnvironment): Promise<{ run: string; created: boolean }> {
    let run = this.activeRun;
    if (run && (await readRunInfo(taskDir, run))) return { run, created: false };
    run ??= await suggestRunName(taskDir, agentHint());
    log().info(`Creating run ${run}`);
    await createRun({
      taskDir,
      run,
      roles,
      ...testsIn(taskDir, env),
      maxIterations: loopSettings().maxIterations,
    });
    await this.setActiveRun(run);
    return { run, created: true };
  }

  private follow(event: LoopEvent, report: (message: string) => void, outputs: Map<string, LineSplitter>): void {
    switch (event.type) {
      case 'step-started': {
        const who = event.kind === 'human' ? 'you' : (event.agent ?? event.step);
        const attempt = event.attempt > 1 ? ` (try ${event.attempt})` : '';
        report(`iteration ${event.iteration} · ${event.step}${event.step === 'pytest' ? '' : ` · ${who}`}${attempt}`);
        log().info(`[${event.run} #${event.iteration}] ${event.step} started${attempt}${event.logFile ? ` — log: ${event.logFile}` : ''}`);
        break;
      }
      case 'agent-output': {
        const key = `${event.role}:${event.attempt}:${event.stream}`;
        let splitter = outputs.get(key);
        if (!splitter) {
          splitter = new LineSplitter((line) => log().info(`${event.role} │ ${line}`));
          outputs.set(key, splitter);
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
      case 'iteration-recorded': {
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
        break;
      }
      case 'loop-finished':
        log().info(`[${event.run}] stopped: ${event.reason}${event.error ? ` (${event.error})` : ''}`);
        break;
    }
  }

  private announce(result: LoopResult): void {
    if (result.recorded.length === 0 && (result.reason === 'solved' || result.reason === 'max-iterations')) {
      // Nothing ran: say why instead of finishing silently.
      void messages.showInformationMessage(
        result.reason === 'solved'
          ? `${result.run} is already solved (gap 0 after ${result.iterations} iteration(s)): there is nothing left to run. Use "SWE-CI: New Run…" to start another run.`
          : `${result.run} already has its maximum of ${result.iterations} iterations (gap ${result.lastGap}): nothing was run. Raise sweci.loop.maxIterations for new runs, or use "SWE-CI: New Run…".`,
      );
    } else if (result.reason === 'solved') {
      void messages.showInformationMessage(`${result.run}: every target test passes (gap 0) after ${result.iterations} iteration(s).`);
    } else if (result.reason === 'max-iterations') {
      void messages.showInformationMessage(`${result.run}: stopped after the maximum of ${result.iterations} iterations; gap ${result.lastGap}.`);
    }
  }

  dispose(): void {
    this.running?.abort.abort();
    this.humans.dispose();
    this.emitter.dispose();
    this.progressEmitter.dispose();
  }
}

/** A run name hint from who plays the roles, e.g. "claude-code". */
function agentHint(): string {
  try {
    return hintFor(agentSettings('architect'), agentSettings('programmer'));
  } catch {
    return 'run';
  }
}

/** Where pytest runs and with what; agents come with their drivers (see roles()). */
function testsIn(taskDir: string, env: TaskEnvironment): Pick<LoopOptions, 'runtime' | 'pytest'> {
  return { runtime: env.tests, pytest: { ...pytestSettings(vscode.Uri.file(taskDir)), python: env.python } };
}
