// Owns what the extension knows about the open task. State comes from files on disk;
// the controller re-reads them after its own runs and when another process writes them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from './messages';
import { runCurrentTests } from '../core/checkout/run-current-tests';
import { loadTaskState, type TaskState } from '../core/checkout/task-state';
import { pytestSettings } from './config';
import type { ChangeFeed } from './change-feed';
import type { EnvironmentManager } from './environment/environment-manager';
import { showError } from './errors';
import { log } from './log';
import { withCancellableProgress } from './progress';
import { requireTrust } from './trust';
import { taskFolder, type TaskFolder } from '../core/workspace/task-folder';

export class TaskController implements vscode.Disposable {
  private state: TaskState | undefined;
  private opened: TaskFolder | undefined;
  private readonly changed = new vscode.EventEmitter<TaskState | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private testRun: Promise<void> | undefined;
  private loadedOnce: () => void = () => undefined;
  /**
   * Settles once the task has been read the first time. A view's first list waits for it: the
   * workbench shows the SWE-CI view before the task is read, and an empty first answer could be
   * kept when the change that follows comes while the workbench still waits for that answer.
   */
  readonly firstLoad = new Promise<void>((resolve) => (this.loadedOnce = resolve));

  constructor(
    private readonly environments: EnvironmentManager,
    private readonly feed: ChangeFeed,
  ) {
    this.disposables.push(
      // Another window or the CLI may run the tests: re-read when its files change.
      feed.onDidChangeTaskFiles(() => void this.reload()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.reload()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()),
    );
  }

  get current(): TaskState | undefined {
    return this.state;
  }

  /** The workspace folder that holds a task, if any: the one task-folder object the extension passes on while it stays open. */
  task(): TaskFolder | undefined {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const task = this.opened?.root === folder.uri.fsPath ? this.opened : taskFolder(folder.uri.fsPath);
      if (fs.existsSync(task.taskFile)) return (this.opened = task);
    }
    return undefined;
  }

  async reload(): Promise<TaskState | undefined> {
    try {
      const dir = this.task();
      try {
        this.state = dir ? await loadTaskState(dir) : undefined;
      } catch (err) {
        this.state = undefined;
        showError(vscode.l10n.t('SWE-CI could not read the task'), err);
      }
      this.feed.watch(dir?.root);
      await this.updateContext();
      this.changed.fire(this.state);
      return this.state;
    } finally {
      this.loadedOnce();
    }
  }

  /**
   * Restores the target's tests, runs pytest on app/code, and regenerates app/non-passed.
   * `signal` cancels it as the notification's Cancel does (Test Explorer's Run All passes its
   * token's); a request that joins a run in flight cannot cancel that run.
   */
  runTests(signal?: AbortSignal): Promise<void> {
    // One run at a time: a second request waits for the run in flight.
    this.testRun ??= this.doRunTests(signal).finally(() => (this.testRun = undefined));
    return this.testRun;
  }

  private async doRunTests(cancel?: AbortSignal): Promise<void> {
    const state = this.state ?? (await this.reload());
    if (!state) {
      void messages.showInformationMessage(vscode.l10n.t('No SWE-CI task is open. Check one out first.'));
      return;
    }
    if (!requireTrust('run the tests')) return;
    const settings = pytestSettings(vscode.Uri.file(state.task.root));
    try {
      const result = await withCancellableProgress(vscode.l10n.t('SWE-CI: running tests'), ({ report, signal: own }) => {
        const signal = cancel ? AbortSignal.any([own, cancel]) : own;
        return this.environments.use(state.task, { signal, report }, (env) => {
          log().info(`Running pytest on ${state.task.codeDir} with ${env.python} (${env.tests.description})`);
          report('pytest on app/code');
          return runCurrentTests({
            ...settings,
            python: env.python,
            task: state.task,
            record: state.record,
            runtime: env.tests,
            signal,
            onOutput: (chunk) => log().trace(chunk.trimEnd()),
          });
        });
      });
      if (result.restoredTests.length > 0) {
        log().warn(`Restored the target's tests/ before running (changed: ${result.restoredTests.join(', ')})`);
      }
      if (result.run.kind === 'did-not-run') {
        this.reportDidNotRun(state.task, result.run.reason ?? 'unknown reason');
      } else {
        log().info(`pytest finished (exit ${result.run.exitCode}); gap ${result.gap}`);
      }
    } catch (err) {
      showError(vscode.l10n.t('Running the tests failed'), err);
    }
    await this.reload();
  }

  private reportDidNotRun(task: TaskFolder, reason: string): void {
    const outputFile = task.current.output;
    const message = `${reason} ${vscode.l10n.t("The previous report is kept; pytest's output is in {0}.", path.basename(outputFile))}`;
    log().warn(`${message} (${outputFile})`);
    void messages.showWarningMessage(message, vscode.l10n.t('Show pytest Output')).then((choice) => {
      if (choice) void vscode.window.showTextDocument(vscode.Uri.file(outputFile));
    });
  }

  private async updateContext(): Promise<void> {
    const s = this.state;
    const set = (key: string, value: boolean) => vscode.commands.executeCommand('setContext', key, value);
    await Promise.all([
      set('sweci.taskOpen', !!s),
      set('sweci.hasReport', !!s?.counts),
      set('sweci.gapZero', s?.counts?.gap === 0),
      set('sweci.untrusted', !vscode.workspace.isTrusted),
      // A SWE-bench instance has no upstream commits to replay: no Record Human History.
      set('sweci.hasHumanHistory', !!s && s.record.task.source.kind !== 'swe-bench'),
    ]);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
