// Status bar: task · run · iteration · a(c), and the step while a loop runs.
import type { EnvironmentManager } from '../environment/environment-manager';
import { environmentText } from '../environment/environment-text';
import * as vscode from 'vscode';
import { readIterationRecords } from '../../core/loop/iteration-record';
import { listRuns } from '../../core/loop/run-store';
import type { ChangeFeed } from '../change-feed';
import type { LoopController } from '../loop/loop-controller';
import type { TaskController } from '../task-controller';
import { changeOf, formatChange } from '../revisions/iteration-text';
import { statusText } from './status-text';
import type { TaskFolder } from '../../core/workspace/task-folder';

async function latestLoopRun(task: TaskFolder): Promise<string | undefined> {
  const runs = (await listRuns(task).catch(() => [])).filter((r) => r.info.kind === 'loop');
  return runs[runs.length - 1]?.info.name;
}

export class LoopStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('sweci.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subs: vscode.Disposable[] = [];
  /** The progress toast's message while a loop runs; shown as soon as the toast shows it. */
  private progress: string | undefined;
  private parts: string[] = [];
  private docker = false;
  private runtime: string | undefined;
  /** Only the latest update() may write what it read: an older, slower one would show stale runs. */
  private generation = 0;

  constructor(
    private readonly tasks: TaskController,
    private readonly loop: LoopController,
    private readonly environments: EnvironmentManager,
    feed: ChangeFeed,
  ) {
    this.item.name = 'SWE-CI';
    this.item.command = 'sweci.iterations.focus';
    this.subs.push(
      tasks.onDidChange(() => void this.update()),
      environments.onDidChange(() => void this.update()),
      loop.onProgress((message) => {
        this.progress = message;
        this.render();
      }),
      loop.onEvent((e) => {
        if (e.type === 'loop-finished') this.progress = undefined;
      }),
      // Recorded iterations change the run's numbers; steps only the progress text (rendered above).
      feed.onDidChangeRuns(() => void this.update()),
    );
    void this.update();
  }

  async update(): Promise<void> {
    const generation = ++this.generation;
    const state = this.tasks.current;
    if (!state) return this.item.hide();
    // With no run chosen yet, show the run worked on last.
    const run = this.loop.runningRun ?? this.loop.activeRun ?? (await latestLoopRun(state.task));
    const parts = [state.record.task.id];
    if (run) {
      parts.push(run);
      const records = await readIterationRecords(state.task.run(run).iterationsFile).catch(() => []);
      const last = records[records.length - 1];
      if (last) parts.push(`#${last.iteration}`, formatChange(changeOf(last, records[0])));
    } else if (state.counts) {
      parts.push(vscode.l10n.t('gap {0}', state.counts.gap));
    }
    if (generation !== this.generation) return;
    this.parts = parts;
    this.runtime = this.environments.description?.description ?? (state.environment ? environmentText(state.environment) : undefined);
    this.docker = !!this.runtime && /^(docker|podman) /.test(this.runtime);
    this.render();
  }

  /** Writes the item from what is known now, without reading files (progress must not wait). */
  private render(): void {
    if (!this.tasks.current) return this.item.hide();
    const running = !!this.loop.runningRun;
    if (!running) this.progress = undefined;
    this.item.text = statusText({ parts: this.parts, running, progress: this.progress, docker: this.docker });
    const now = running && this.progress ? `\n${vscode.l10n.t('Now: {0}.', this.progress)}` : '';
    // While a step runs, a click follows it: the running try's transcript, live.
    const run = this.loop.runningRun;
    this.item.command = run
      ? { title: vscode.l10n.t('Open the Running Transcript'), command: 'sweci.openTranscript', arguments: [{ run, live: true }] }
      : 'sweci.iterations.focus';
    const click = run ? vscode.l10n.t('Click for the running step’s transcript.') : vscode.l10n.t('Click for the Iterations view.');
    this.item.tooltip = [
      vscode.l10n.t('SWE-CI: task · run · iteration · normalized change a(c).') + now,
      vscode.l10n.t('Runtime: {0}.', this.runtime ?? vscode.l10n.t('not chosen yet')),
      click,
    ].join('\n');
    this.item.show();
  }

  /** What the item shows (for tests). */
  get shown(): { text: string; tooltip: string } {
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? '') };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
