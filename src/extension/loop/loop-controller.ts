// Runs the CI loop from commands: one step, one iteration, or the loop, with agents or the
// user in each role; and the human-history replay. The core loop owns the state (files); this
// class holds the active run and the one slot a call runs in, threads cancellation down, and
// forwards its events to the views. What a call is given comes from core/loop/loop-request.ts (as
// for the CLI); creating its run, and removing one it left empty, is run-creation.ts's; what a
// person reads of a call is loop-reporter.ts's.
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { AgentRole } from '../../core/agents/agent-driver';
import { replayFromRun } from '../../core/loop/run-replay';
import type { EnvironmentManager } from '../environment/environment-manager';
import type { LoopEvent, LoopOptions } from '../../core/loop/loop-types';
import { runLoop, type LoopResult } from '../../core/loop/run-loop';
import { loopRequest } from '../../core/loop/loop-request';
import { HUMAN_HISTORY_RUN } from '../../core/loop/run-name';
import type { ApiKeys } from '../agents/api-keys';
import { isAbortError } from '../../core/util/errors';
import { runSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TaskController } from '../task-controller';
import { requireTrust } from '../trust';
import { recordHumanHistory } from './human-history';
import { HumanSteps } from './human-step';
import { announceResult, LoopReporter } from './loop-reporter';
import { ensureRun, removeEmptyRun } from './run-creation';
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
    if (!this.running) return void messages.showInformationMessage(vscode.l10n.t('No SWE-CI run is in progress.'));
    log().info(`Stopping run ${this.running.run}`);
    this.running.abort.abort();
  }

  submit(): void {
    if (!this.humans.submit()) {
      void messages.showInformationMessage(
        vscode.l10n.t('Nothing waits for a submit. Start with "SWE-CI: I\'ll Be the Programmer" or "I\'ll Be the Architect".'),
      );
    }
  }

  async execute(req: ExecuteRequest): Promise<LoopResult | undefined> {
    const task = this.tasks.task();
    if (!task) {
      void messages.showInformationMessage(vscode.l10n.t('No SWE-CI task is open. Check one out first.'));
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
      return await withCancellableProgress(vscode.l10n.t('SWE-CI: {0}', req.title), async ({ report: toast, signal }) => {
        // One report for the toast and the status bar, so neither lags the other.
        const report = (message: string) => {
          toast(message);
          this.progressEmitter.fire(message);
        };
        const reporter = new LoopReporter(report);
        signal.addEventListener('abort', () => abort.abort(), { once: true });
        return this.environments.use(task, { signal: abort.signal, report }, async (env) => {
          const request = loopRequest(runSettings(vscode.Uri.file(task.root)), env, {
            secretEnv: await this.keys.environment(),
            human: req.human ?? [],
            ...(req.replayFrom ? { replay: replayFromRun(task, req.replayFrom) } : {}),
          });
          const { run, created } = await ensureRun(task, this.activeRun, request, req.replayFrom);
          if (created) await this.setActiveRun(run);
          if (this.running) this.running.run = run;
          report(`run ${run}`);
          const onEvent = (event: LoopEvent) => {
            reporter.follow(event);
            this.emitter.fire(event);
          };
          const options: LoopOptions = {
            ...request,
            task,
            run,
            humanStep: this.humans.step,
            signal: abort.signal,
            onEvent,
            iterations: req.iterations,
            stopAfterStep: req.stopAfterStep,
          };
          let result: LoopResult;
          try {
            result = await runLoop(options);
          } catch (err) {
            reporter.flush();
            if (created) await removeEmptyRun(task, run);
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
        void messages.showInformationMessage(vscode.l10n.t('SWE-CI: {0} cancelled. Nothing partial was recorded.', req.title));
      } else {
        showError(vscode.l10n.t('{0} failed', req.title), err);
      }
      return undefined;
    }
  }

  /** Takes the one slot a call runs in, or says which run holds it and gives undefined. */
  private claim(run: string): AbortController | undefined {
    if (this.running) {
      void messages.showWarningMessage(vscode.l10n.t('Run {0} is in progress. Stop it first, or wait for it.', this.running.run));
      return undefined;
    }
    const abort = new AbortController();
    this.running = { abort, run };
    return abort;
  }

  /**
   * SWE-CI: Record Human History, in the same slot as the loop's calls (Stop stops it); its
   * recorded commits reach the views as loop events.
   */
  async recordHumanHistory(): Promise<void> {
    const task = this.tasks.task();
    if (!task) return void messages.showInformationMessage(vscode.l10n.t('No SWE-CI task is open. Check one out first.'));
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

  dispose(): void {
    this.running?.abort.abort();
    this.humans.dispose();
    this.emitter.dispose();
    this.progressEmitter.dispose();
  }
}
