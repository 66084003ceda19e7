// The open task's environment (where pytest and agents run), opened on first use from the
// settings and the task's own image, kept while the settings stay the same, and disposed
// (containers removed) when they change, when another task opens, and when the window closes.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { describeEnvironment, openTaskEnvironment, type TaskEnvironment } from '../../core/runtime/task-environment';
import { environmentText } from './environment-text';
import { readEnvironmentRecord } from '../../core/workspace/environment-record';
import { readTaskRecord } from '../../core/workspace/materialize';
import { imageArchiveOf, type TaskSpec } from '../../core/task/task-spec';
import { pytestSettings, runtimeSettings } from '../config';
import { log } from '../log';
import type { TaskFolder } from '../../core/workspace/task-folder';

export interface OpenProgress {
  signal?: AbortSignal;
  report?: (message: string) => void;
}

interface Held {
  task: TaskFolder;
  /** The settings it was opened with; other settings mean another environment. */
  key: string;
  env: Promise<TaskEnvironment>;
  /** Commands using it now: a replaced environment is disposed when the last one is done. */
  users: number;
  retired: boolean;
}

export class EnvironmentManager implements vscode.Disposable {
  private held: Held | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the environment in use changes (views show which one). */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private opened: { description: string; note?: string } | undefined;

  /** Environments replaced while a command still used them. */
  private readonly retired = new Set<Held>();
  /** Environments of checkouts in progress (forSpec), not yet adopted or disposed. */
  private readonly loose = new Set<TaskEnvironment>();

  constructor() {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The next command opens the environment the new settings say; this one goes when free.
        if (['sweci.runtime', 'sweci.docker', 'sweci.python'].some((s) => e.affectsConfiguration(s))) this.retire();
      }),
    );
  }

  /** What the last opened environment is, for the Task view and the status bar. */
  get description(): { description: string; note?: string } | undefined {
    return this.opened;
  }

  /**
   * Runs `fn` with the environment of a checked-out task (opened now if needed; loading its
   * image may take a while). While `fn` runs, the environment is not disposed, even when the
   * settings change under it.
   */
  async use<T>(task: TaskFolder, progress: OpenProgress, fn: (env: TaskEnvironment) => Promise<T>): Promise<T> {
    const held = this.hold(task, progress);
    held.users++;
    try {
      return await fn(await held.env);
    } finally {
      held.users--;
      if (held.retired && held.users === 0) void this.dispose1(held);
    }
  }

  private hold(task: TaskFolder, progress: OpenProgress): Held {
    const scope = vscode.Uri.file(task.root);
    const settings = runtimeSettings(scope);
    const hostPython = pytestSettings(scope).python;
    const key = JSON.stringify([settings, hostPython]);
    if (this.held?.task.root === task.root && this.held.key === key) return this.held;
    this.retire();
    const env = (async () => {
      const [record, recorded] = await Promise.all([readTaskRecord(task), readEnvironmentRecord(task)]);
      const imageArchive = record ? imageArchiveOf(record.task) : undefined;
      return this.open(settings, { imageArchive, recorded }, hostPython, progress);
    })();
    const held: Held = { task, key, env, users: 0, retired: false };
    this.held = held;
    // A failed open is not kept: the next command tries again (the engine may be back).
    env.catch(() => {
      if (this.held === held) this.held = undefined;
    });
    return held;
  }

  /**
   * An environment for a task being checked out (not yet a folder); the caller adopts or disposes
   * it. Until then it is counted here too, so a window closing mid-checkout removes its containers.
   */
  async forSpec(spec: TaskSpec, progress: OpenProgress = {}, image?: string): Promise<TaskEnvironment> {
    // An image built for this task (a curated candidate's) is where its tests run, whatever sweci.runtime says.
    const configured = runtimeSettings();
    const settings = image ? { ...configured, runtime: 'docker' as const, docker: { ...configured.docker, image } } : configured;
    const env = await this.open(settings, { imageArchive: imageArchiveOf(spec) }, pytestSettings().python, progress);
    const dispose = env.dispose.bind(env);
    const loose: TaskEnvironment = {
      ...env,
      dispose: () => {
        this.loose.delete(loose);
        return dispose();
      },
    };
    this.loose.add(loose);
    return loose;
  }

  /** Keeps a just-opened environment as the one of `task` (after a checkout into this window). */
  adopt(task: TaskFolder, env: TaskEnvironment): void {
    this.loose.delete(env);
    this.retire();
    const scope = vscode.Uri.file(task.root);
    this.held = { task, key: JSON.stringify([runtimeSettings(scope), pytestSettings(scope).python]), env: Promise.resolve(env), users: 0, retired: false };
  }

  private async open(
    settings: ReturnType<typeof runtimeSettings>,
    task: Parameters<typeof openTaskEnvironment>[1],
    hostPython: string,
    progress: OpenProgress,
  ): Promise<TaskEnvironment> {
    const env = await openTaskEnvironment(settings, task, {
      hostPython,
      signal: progress.signal,
      onProgress: (message) => {
        log().info(message);
        progress.report?.(message);
      },
    });
    // The log in English, as the CLI's; the views in the display language.
    log().info(`Runtime: ${describeEnvironment(env.record)}${env.note ? ` (${env.note})` : ''}`);
    if (env.note) void messages.showWarningMessage(vscode.l10n.t('SWE-CI: {0}', env.note));
    this.opened = { description: environmentText(env.record), ...(env.note ? { note: env.note } : {}) };
    this.changed.fire();
    return env;
  }

  /** The held environment is replaced: disposed now if no command uses it, else when the last is done. */
  private retire(): void {
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    held.retired = true;
    if (held.users === 0) void this.dispose1(held);
    else this.retired.add(held);
  }

  private async dispose1(held: Held): Promise<void> {
    this.retired.delete(held);
    try {
      await (await held.env).dispose();
    } catch {
      // It never opened: nothing to free.
    }
  }

  /** Disposes every environment now, used or not (the window is closing; its steps were stopped). */
  async release(): Promise<void> {
    const all = [...this.retired, ...(this.held ? [this.held] : [])];
    this.held = undefined;
    await Promise.all([...all.map((h) => this.dispose1(h)), ...[...this.loose].map((env) => env.dispose().catch(() => undefined))]);
  }

  dispose(): void {
    void this.release();
    for (const d of this.disposables) d.dispose();
  }
}
