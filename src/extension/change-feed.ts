// The one change feed the extension listens to, and the only place it watches files (a unit
// test, test/unit/architecture/one-change-feed.test.ts, keeps it so): the open task's `.sweci/`
// records (written by this window, another window or the CLI), the results matrix of the
// sequence the task may sit in, the loop's own events, and, for the requirement.xml language
// server, the files under app/code and app/non-passed/summary.jsonl; and, while the Leaderboard
// panel is open, its leaderboard.json and the records of the experiments it ranks. Views render what the files
// say when the feed fires. The calls records of the iteration in progress grow with every model
// call: they have their own event, so only the Transcript panel redraws for them. The open
// task's records are also stat'ed every 2 s, because a host can lose file events
// (records-signature.ts says when); the watchers stay, for their speed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CALLS_SUFFIX } from '../core/agents/model-route';
import { CL_RESULTS_FILE } from '../core/sequence/cl-results';
import { EXPERIMENT_FILE } from '../core/workspace/layout';
import { taskFolder, taskRelative } from '../core/workspace/task-folder';
import type { LoopEvent } from '../core/loop/loop-types';
import { experimentLayout } from '../core/batch/experiment';
import { recordsSignature, StampPoll, stamps, type RecordsSignature } from './records-signature';

/** A task's records the views follow: its task file, the current report's run, each run's records and its try's model calls. */
const RECORDS_GLOB = `{${[
  taskRelative((t) => t.taskFile),
  taskRelative((t) => t.current.run),
  taskRelative((t) => t.run('*').runFile),
  taskRelative((t) => t.run('*').iterationsFile),
  `${taskRelative((t) => t.run('*').pendingDir)}/*${CALLS_SUFFIX}`,
].join(',')}}`;
/** Loop events after which a run's records (run.json, iteration.jsonl, pending/) differ. */
const RUN_EVENTS: ReadonlySet<LoopEvent['type']> = new Set(['iteration-recorded', 'loop-finished', 'step-started']);
/** How often the open task's records are stat'ed, for the file events a host loses (records-signature.ts). */
const POLL_MS = 2000;
/**
 * How often the Leaderboard's sources are stat'ed for the same reason: each leaderboard.json, and
 * each experiment's sweci-experiment.json and batch-status folder (a task's lock and status files
 * come and go there as it starts and finishes, so the folder's time moves; a few stats, whatever
 * the experiment's size).
 */
const LEADERBOARD_POLL_MS = 3000;

/** A file under some task's app/code, or its app/non-passed/summary.jsonl, appeared, changed or went. */
export interface RequirementInputChange {
  uri: vscode.Uri;
  kind: 'created' | 'changed' | 'deleted';
}

export class ChangeFeed implements vscode.Disposable {
  private readonly taskChanged = new vscode.EventEmitter<void>();
  private readonly runsChanged = new vscode.EventEmitter<void>();
  private readonly callsChanged = new vscode.EventEmitter<void>();
  private readonly sequenceChanged = new vscode.EventEmitter<void>();
  private readonly inputsChanged = new vscode.EventEmitter<RequirementInputChange[]>();
  private readonly leaderboardChanged = new vscode.EventEmitter<void>();
  /** task.json or the current code's last pytest run changed on disk. */
  readonly onDidChangeTaskFiles = this.taskChanged.event;
  /** A run was created, recorded an iteration, started a step or finished (debounced). */
  readonly onDidChangeRuns = this.runsChanged.event;
  /** A calls record of a try in progress (runs/<run>/pending/<role>-try-<N>.calls.jsonl) was written (debounced). */
  readonly onDidChangeCalls = this.callsChanged.event;
  /** The results matrix (cl-results.json) beside the open task, in its experiment folder, changed (debounced). */
  readonly onDidChangeSequence = this.sequenceChanged.event;
  /** A leaderboard.json or a record of an experiment the Leaderboard ranks changed (debounced: runs record in bursts). */
  readonly onDidChangeLeaderboard = this.leaderboardChanged.event;
  private watchers: vscode.FileSystemWatcher[] = [];
  private leaderboardWatchers: vscode.FileSystemWatcher[] = [];
  private leaderboardKey = '';
  private leaderboardTimer: NodeJS.Timeout | undefined;
  private leaderboardPoll: StampPoll<string> | undefined;
  /** The requirement.xml server's inputs, in every task of the workspace: watched from the first listener on. */
  private inputWatchers: vscode.FileSystemWatcher[] | undefined;
  private pendingInputs = new Map<string, RequirementInputChange>();
  private dir: string | undefined;
  private taskTimer: NodeJS.Timeout | undefined;
  private runsTimer: NodeJS.Timeout | undefined;
  private callsTimer: NodeJS.Timeout | undefined;
  private sequenceTimer: NodeJS.Timeout | undefined;
  private inputsTimer: NodeJS.Timeout | undefined;
  private poll: StampPoll<RecordsSignature> | undefined;

  /**
   * Files under app/code or a summary.jsonl of any task in the workspace changed, batched (debounced):
   * what the requirement.xml language server checks a document against. Nothing is watched until
   * the first listener (the server, once a requirement.xml opens).
   */
  readonly onDidChangeRequirementInputs: vscode.Event<RequirementInputChange[]> = (listener, thisArgs, disposables) => {
    this.watchRequirementInputs();
    return this.inputsChanged.event(listener, thisArgs, disposables);
  };

  /** Watches `dir`'s records (none when undefined); views are told the runs may have changed. */
  watch(dir: string | undefined): void {
    if (dir === this.dir && this.watchers.length > 0) return;
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    this.dir = dir;
    this.poll?.dispose();
    this.poll = undefined;
    if (dir) {
      const runsDir = taskFolder(dir).runsDir + path.sep;
      const records = watcher(new vscode.RelativePattern(vscode.Uri.file(dir), RECORDS_GLOB), (uri) =>
        uri.fsPath.endsWith(CALLS_SUFFIX) ? this.callsDidChange() : uri.fsPath.startsWith(runsDir) ? this.runsDidChange() : this.taskFilesDidChange(),
      );
      // A task of `sweci run --sequence` sits in the experiment folder, beside its cl-results.json
      // (outside the workspace folder, so a watcher of its own).
      const sequence = watcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(dir)), CL_RESULTS_FILE), () => this.sequenceDidChange());
      this.watchers = [records, sequence];
      this.poll = new StampPoll(
        () => recordsSignature(dir),
        (now, before) => {
          if (now.task !== before.task) this.taskFilesDidChange();
          if (now.runs !== before.runs) this.runsDidChange();
          if (now.calls !== before.calls) this.callsDidChange();
        },
        POLL_MS,
      );
    }
    this.runsDidChange();
  }

  /**
   * Watches what a leaderboard ranks (nothing when both are empty): its `files` (a leaderboard.json)
   * and, in each experiment folder, sweci-experiment.json and every task's iteration records, which
   * grow as runs finish, whether this window, another or the CLI runs them.
   */
  watchLeaderboard(files: readonly string[], experiments: readonly string[]): void {
    const key = JSON.stringify([files, experiments]);
    if (key === this.leaderboardKey) return;
    this.leaderboardKey = key;
    for (const w of this.leaderboardWatchers) w.dispose();
    const changed = () => {
      clearTimeout(this.leaderboardTimer);
      this.leaderboardTimer = setTimeout(() => this.leaderboardChanged.fire(), 500);
    };
    this.leaderboardPoll?.dispose();
    const polled = [...files, ...experiments.flatMap((dir) => [experimentLayout(dir).file, experimentLayout(dir).statusDir])];
    this.leaderboardPoll =
      polled.length > 0
        ? new StampPoll(
            () => stamps(polled),
            (now, before) => now !== before && changed(),
            LEADERBOARD_POLL_MS,
          )
        : undefined;
    this.leaderboardWatchers = [
      ...files.map((f) => watcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(f)), path.basename(f)), changed)),
      ...experiments.map((dir) =>
        watcher(new vscode.RelativePattern(vscode.Uri.file(dir), `{${EXPERIMENT_FILE},*/${taskRelative((t) => t.run('*').iterationsFile)}}`), changed),
      ),
    ];
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

  private sequenceDidChange(): void {
    clearTimeout(this.sequenceTimer);
    this.sequenceTimer = setTimeout(() => this.sequenceChanged.fire(), 200);
  }

  private watchRequirementInputs(): void {
    if (this.inputWatchers) return;
    const input = (kind: RequirementInputChange['kind']) => (uri: vscode.Uri) => {
      // The last change of a file in the batch is the one that holds.
      this.pendingInputs.delete(uri.toString());
      this.pendingInputs.set(uri.toString(), { uri, kind });
      clearTimeout(this.inputsTimer);
      this.inputsTimer = setTimeout(() => {
        const changes = [...this.pendingInputs.values()];
        this.pendingInputs.clear();
        this.inputsChanged.fire(changes);
      }, 100);
    };
    this.inputWatchers = [`**/${taskRelative((t) => t.codeDir)}/**`, `**/${taskRelative((t) => t.summaryFile)}`].map((glob) => {
      const w = vscode.workspace.createFileSystemWatcher(glob);
      w.onDidCreate(input('created'));
      w.onDidChange(input('changed'));
      w.onDidDelete(input('deleted'));
      return w;
    });
  }

  private taskFilesDidChange(): void {
    clearTimeout(this.taskTimer);
    this.taskTimer = setTimeout(() => this.taskChanged.fire(), 300);
  }

  dispose(): void {
    clearTimeout(this.taskTimer);
    clearTimeout(this.runsTimer);
    clearTimeout(this.callsTimer);
    clearTimeout(this.sequenceTimer);
    clearTimeout(this.inputsTimer);
    clearTimeout(this.leaderboardTimer);
    this.poll?.dispose();
    this.leaderboardPoll?.dispose();
    for (const w of [...this.watchers, ...this.leaderboardWatchers, ...(this.inputWatchers ?? [])]) w.dispose();
    this.taskChanged.dispose();
    this.runsChanged.dispose();
    this.callsChanged.dispose();
    this.sequenceChanged.dispose();
    this.inputsChanged.dispose();
    this.leaderboardChanged.dispose();
  }
}

/** A watcher calling `changed` on every create, change and delete of what `pattern` matches. */
function watcher(pattern: vscode.GlobPattern, changed: (uri: vscode.Uri) => void): vscode.FileSystemWatcher {
  const w = vscode.workspace.createFileSystemWatcher(pattern);
  w.onDidCreate(changed);
  w.onDidChange(changed);
  w.onDidDelete(changed);
  return w;
}
