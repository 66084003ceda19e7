// Runs the CI loop from commands: one step, one iteration, or the loop, with agents or the
// user in each role; and the human-history replay. The core loop owns the state (files); this
// class only starts a call (one at a time), threads cancellation down, and forwards its events
// to the views. What a person reads of a call is loop-reporter.ts's.
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { AgentRole } from '../../core/agents/agent-driver';
import { setUpRoles } from '../../core/loop/role-setup';
import { replayFromRun } from '../../core/loop/run-replay';
import type { ReplaySource } from '../../core/agents/model-access';
import type { TaskEnvironment } from '../../core/runtime/task-environment';
import type { EnvironmentManager } from '../environment/environment-manager';
import type { LoopEvent, LoopOptions, RoleSetup } from '../../core/loop/loop-types';
import { createRun, removeRunWithoutIterations, runLoop, type LoopResult } from '../../core/loop/run-loop';
import { readRunInfo } from '../../core/loop/run-store';
import { HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import type { ApiKeys } from '../agents/api-keys';
import { agentSettings, integritySettings, loopSettings, modelAccess, pytestSettings } from '../config';
import { isAbortError, errorMessage } from '../../core/util/errors';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TaskController } from '../task-controller';
import { requireTrust } from '../trust';
import { recordHumanHistory } from './human-history';
import { HumanSteps } from './human-step';
import { announceResult, LoopReporter } from './loop-reporter';
import { suggestedRunName } from './new-run';
import type { TaskFolder } from '../../core/workspace/task-folder';

const ACTIVE_RUN = 'sweci.activeRun';

export interface ExecuteRequest {
  /** What the user asked for, for titles and logs. */
  title: string;
  /** Roles the user plays in this call (the others use their configured agent). */
  human?: AgentRole[];
  iterations?: number;
  stopAfterStep?: AgentRole;
  /** Answer every model call from this run's recording (Replay Run), calling no model. */
  replayFrom?: string;
}

export class LoopController implements vscode.Disposable {
  readonly humans = new HumanSteps();
  private readonly emitter = new vscode.EventEmitter<LoopEvent>();
  /** Every loop event, for views that follow a run live. */
  readonly onEvent = this.emitter.event;
  private readonly progressEmitter = new vscode.EventEmitter<string>();
  /** Each message the progress notification shows, at the same moment (the status bar follows it). */
  readonly onProgress = this.progressEmitter.event;
  /** The one call that runs (a step, an iteration, the loop, or the human-history replay): what Stop aborts. */
  private running: { abort: AbortController; run: string } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly tasks: TaskController,
    private readonly environments: EnvironmentManager,
    private readonly keys: ApiKeys,
  ) {}

  /** The run the loop commands record into (kept per workspace). */
  get activeRun(): string | undefined {
    return this.context.workspaceState.get<string>(ACTIVE_RUN);
  }

  get runningRun(): string | undefined {
    return this.running?.run;
  }

  async setActiveRun(run: string | undefined): Promise<void> {
    await this.context.workspaceState.update(ACTIVE_RUN, run);
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
    const task = this.tasks.task();
    if (!task) {
      void messages.showInformationMessage('No SWE-CI task is open. Check one out first.');
      return undefined;
    }
    if (!requireTrust('run agents')) return undefined;
    const abort = this.claim(this.activeRun ?? '…');
    if (!abort) return undefined;
    try {
      return await this.executeIn(task, req, abort);
    } finally {
      this.running = undefined;
      await this.tasks.reload();
    }
  }

  private async executeIn(task: TaskFolder, req: ExecuteRequest, abort: AbortController): Promise<LoopResult | undefined> {
    try {
      return await withCancellableProgress(`SWE-CI: ${req.title}`, async ({ report: toast, signal }) => {
        // One report for the toast and the status bar, so neither lags the other.
        const report = (message: string) => {
          toast(message);
          this.progressEmitter.fire(message);
        };
        const reporter = new LoopReporter(report);
        signal.addEventListener('abort', () => abort.abort(), { once: true });
        return this.environments.use(task, { signal: abort.signal, report }, async (env) => {
          const roles = await this.roles(req.human ?? [], env, req.replayFrom ? replayFromRun(task, req.replayFrom) : undefined);
          const { run, created } = await this.ensureRun(task, roles, env, req.replayFrom);
          if (this.running) this.running.run = run;
          report(`run ${run}`);
          const onEvent = (event: LoopEvent) => {
            reporter.follow(event);
            this.emitter.fire(event);
          };
          const integrity = integritySettings(vscode.Uri.file(task.root));
          const options: LoopOptions = {
            task,
            run,
            roles,
            ...testsIn(task, env),
            humanStep: this.humans.step,
            signal: abort.signal,
            onEvent,
            iterations: req.iterations,
            stopAfterStep: req.stopAfterStep,
            maxFileMb: integrity.maxFileMb,
            maxIterationMb: integrity.maxIterationMb,
          };
          let result: LoopResult;
          try {
            result = await runLoop(options);
          } catch (err) {
            reporter.flush();
            if (created) await this.removeEmptyRun(task, run);
            throw err;
          }
          reporter.flush();
          announceResult(result, req.stopAfterStep && { role: req.stopAfterStep, requirementFile: task.requirementFile });
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

  /** Takes the one slot a call runs in, or says which run holds it and gives undefined. */
  private claim(run: string): AbortController | undefined {
    if (this.running) {
      void messages.showWarningMessage(`Run ${this.running.run} is in progress. Stop it first, or wait for it.`);
      return undefined;
    }
    const abort = new AbortController();
    this.running = { abort, run };
    return abort;
  }

  /**
   * A run this call created whose first iteration never completed a step (an agent missing,
   * a cancel) holds nothing: remove it rather than leave an empty run with a pending iteration.
   * The active run keeps its name, so the next call creates it again.
   */
  private async removeEmptyRun(task: TaskFolder, run: string): Promise<void> {
    try {
      if (await removeRunWithoutIterations(task, run)) log().info(`Removed run ${run}: it had no completed step yet`);
    } catch (err) {
      log().warn(`Could not remove the empty run ${run}: ${errorMessage(err)}`);
    }
  }

  /**
   * SWE-CI: Record Human History, in the same slot as the loop's calls (Stop stops it); its
   * recorded commits reach the views as loop events.
   */
  async recordHumanHistory(): Promise<void> {
    const task = this.tasks.task();
    if (!task) return void messages.showInformationMessage('No SWE-CI task is open. Check one out first.');
    if (!requireTrust('replay the human history')) return;
    const abort = this.claim(HUMAN_HISTORY_RUN);
    if (!abort) return;
    try {
      await recordHumanHistory({
        task,
        environments: this.environments,
        signal: abort.signal,
        onEvent: (e) => this.emitter.fire(e),
        onProgress: (message) => this.progressEmitter.fire(message),
      });
    } finally {
      this.running = undefined;
    }
  }

  private async roles(human: AgentRole[], env: TaskEnvironment, replay?: ReplaySource): Promise<Record<AgentRole, RoleSetup>> {
    const agents = {
      architect: human.includes('architect') ? { kind: 'human' as const } : agentSettings('architect'),
      programmer: human.includes('programmer') ? { kind: 'human' as const } : agentSettings('programmer'),
    };
    return setUpRoles(agents, env, await this.keys.environment(), [], { ...modelAccess(), ...(replay ? { replay } : {}) });
  }

  /** The active run, created (branch at the base, line 0 = the base run) when it does not exist yet. */
  private async ensureRun(
    task: TaskFolder,
    roles: Record<AgentRole, RoleSetup>,
    env: TaskEnvironment,
    replayFrom?: string,
  ): Promise<{ run: string; created: boolean }> {
    let run = this.activeRun;
    if (run && (await readRunInfo(task, run))) return { run, created: false };
    run ??= await suggestedRunName(task);
    log().info(`Creating run ${run}`);
    await createRun({
      task,
      run,
      roles,
      ...testsIn(task, env),
      // A replay goes as far as the run it replays.
      maxIterations: (replayFrom ? (await readRunInfo(task, replayFrom))?.maxIterations : undefined) ?? loopSettings().maxIterations,
    });
    await this.setActiveRun(run);
    return { run, created: true };
  }

  dispose(): void {
    this.running?.abort.abort();
    this.humans.dispose();
    this.emitter.dispose();
    this.progressEmitter.dispose();
  }
}

/** Where pytest runs and with what; agents come with their drivers (see roles()). */
function testsIn(task: TaskFolder, env: TaskEnvironment): Pick<LoopOptions, 'runtime' | 'pytest'> {
  return { runtime: env.tests, pytest: { ...pytestSettings(vscode.Uri.file(task.root)), python: env.python } };
}
