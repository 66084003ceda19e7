// The one change feed the views listen to: one watcher of the open task's `.sweci/` records
// (written by this window, another window or the CLI) plus the loop's own events. Views render
// what the files say when the feed fires; none watches files itself. The calls records of the
// iteration in progress grow with every model call: they have their own event, so only the
// Transcript panel redraws for them.
import * as vscode from 'vscode';
import type { LoopEvent } from '../core/loop/loop-types';

/** Loop events after which a run's records (run.json, iteration.jsonl, pending/) differ. */
const RUN_EVENTS: ReadonlySet<LoopEvent['type']> = new Set(['iteration-recorded', 'loop-finished', 'step-started']);

export class ChangeFeed implements vscode.Disposable {
  private readonly taskChanged = new vscode.EventEmitter<void>();
  private readonly runsChanged = new vscode.EventEmitter<void>();
  private readonly callsChanged = new vscode.EventEmitter<void>();
  /** task.json or the current code's last pytest run changed on disk. */
  readonly onDidChangeTaskFiles = this.taskChanged.event;
  /** A run was created, recorded an iteration, started a step or finished (debounced). */
  readonly onDidChangeRuns = this.runsChanged.event;
  /** A calls record of a try in progress (runs/<run>/pending/<role>-try-<N>.calls.jsonl) was written (debounced). */
  readonly onDidChangeCalls = this.callsChanged.event;
  private watcher: vscode.FileSystemWatcher | undefined;
  private dir: string | undefined;
  private taskTimer: NodeJS.Timeout | undefined;
  private runsTimer: NodeJS.Timeout | undefined;
  private callsTimer: NodeJS.Timeout | undefined;

  /** Watches `dir`'s records (none when undefined); views are told the runs may have changed. */
  watch(dir: string | undefined): void {
    if (dir === this.dir && this.watcher) return;
    this.watcher?.dispose();
    this.watcher = undefined;
    this.dir = dir;
    if (dir) {
      this.watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(
          vscode.Uri.file(dir),
          '.sweci/{task.json,reports/current.run.json,runs/*/run.json,runs/*/iteration.jsonl,runs/*/pending/*.calls.jsonl}',
        ),
      );
      const changed = (uri: vscode.Uri) =>
        uri.fsPath.endsWith('.calls.jsonl') ? this.callsDidChange() : /[\\/]runs[\\/]/.test(uri.fsPath) ? this.runsDidChange() : this.taskFilesDidChange();
      this.watcher.onDidChange(changed);
      this.watcher.onDidCreate(changed);
      this.watcher.onDidDelete(changed);
    }
    this.runsDidChange();
  }

  /** Feeds a loop event in (the loop controller's emitter). */
  loopEvent(e: LoopEvent): void {
    if (RUN_EVENTS.has(e.type)) this.runsDidChange();
  }

  runsDidChange(): void {
    clearTimeout(this.runsTimer);
    this.runsTimer = setTimeout(() => this.runsChanged.fire(), 150);
  }

  private callsDidChange(): void {
    clearTimeout(this.callsTimer);
    this.callsTimer = setTimeout(() => this.callsChanged.fire(), 200);
  }

  private taskFilesDidChange(): void {
    clearTimeout(this.taskTimer);
    this.taskTimer = setTimeout(() => this.taskChanged.fire(), 300);
  }

  dispose(): void {
    clearTimeout(this.taskTimer);
    clearTimeout(this.runsTimer);
    clearTimeout(this.callsTimer);
    this.watcher?.dispose();
    this.taskChanged.dispose();
    this.runsChanged.dispose();
    this.callsChanged.dispose();
  }
}
