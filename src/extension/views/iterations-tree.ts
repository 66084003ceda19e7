// The Iterations view: runs → iterations → the files of each iteration. It renders the
// run folders on disk and refreshes when the change feed says the runs changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readIterationRecords, type IterationRecord } from '../../core/loop/iteration-record';
import { ARCHIVE, listRuns, readRunSummary, type RunSummary } from '../../core/loop/run-store';
import { archivedRequirementUri } from '../revisions/revision-content';
import type { AgentRole } from '../../core/agents/agent-driver';
import { rolesWithEventLogs, triesIn } from '../../core/inspect/transcript-tries';
import type { ChangeFeed } from '../change-feed';
import type { LoopController } from '../loop/loop-controller';
import type { TaskController } from '../task-controller';
import { iterationDescription, iterationTooltip, runSolvedText } from '../revisions/iteration-text';
import { relativePaths } from './view-text';
import type { TaskFolder } from '../../core/workspace/task-folder';

export type IterationsNode =
  | { type: 'run'; summary: RunSummary }
  | {
      type: 'iteration';
      run: string;
      history: boolean;
      record: IterationRecord;
      line0?: IterationRecord;
      previous?: IterationRecord;
      /** The roles whose logs hold an event stream (a transcript without a calls record). */
      eventLogs?: AgentRole[];
    }
  | { type: 'file'; id: string; label: string; description?: string; tooltip?: string; icon: string; command: vscode.Command };

export class IterationsTreeProvider implements vscode.TreeDataProvider<IterationsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<IterationsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private records = new Map<string, IterationRecord[]>();
  /** The iteration selected for Compare: its row is marked. */
  private compareSelection: { run: string; iteration: number } | undefined;
  /** The two iterations compared in the iteration view: their rows say so, and follow it. */
  private compared: ReadonlyArray<{ run: string; iteration: number }> = [];

  constructor(
    private readonly tasks: TaskController,
    private readonly loop: LoopController,
    feed: ChangeFeed,
  ) {
    this.subs.push(feed.onDidChangeRuns(() => void this.refreshIfChanged()));
    this.refresh();
  }

  /**
   * What the runs' rows are drawn from: each run's summary and the size and time of its
   * iteration records, and which run is active or running. Kept from the last drawing of the
   * runs (getChildren of the root).
   */
  private drawn: string | undefined;

  private async runsSignature(task: TaskFolder, runs: readonly RunSummary[]): Promise<string> {
    const stats = await Promise.all(
      runs.map((r) =>
        fs.promises.stat(task.run(r.info.name).iterationsFile).then(
          (st) => `${st.size}:${st.mtimeMs}`,
          () => '-',
        ),
      ),
    );
    return JSON.stringify([this.loop.activeRun, this.loop.runningRun, runs, stats]);
  }

  /**
   * The change feed's news, drawn only when the runs differ from what the view shows. Redrawing
   * the whole tree drops a run's expansion that is in flight (VS Code's extension host answers
   * the children of a row it has just forgotten with none); at startup the feed's first news
   * (its watch starting, after the task is read) came while a person could already click a run,
   * which then stayed open and empty.
   */
  private async refreshIfChanged(): Promise<void> {
    const task = this.tasks.task();
    if (task && this.drawn !== undefined) {
      const now = await this.runsSignature(task, await listRuns(task)).catch(() => undefined);
      if (now === this.drawn) return;
    }
    this.refresh();
  }

  markCompareSelection(ref: { run: string; iteration: number } | undefined): void {
    this.compareSelection = ref;
    this.refresh();
  }

  /** The iterations the iteration view compares now (none: it shows one, or is closed). */
  markCompared(refs: ReadonlyArray<{ run: string; iteration: number }>): void {
    this.compared = refs;
    this.refresh();
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed.fire(undefined), 150);
  }

  /**
   * Refreshes at once. A TreeView.reveal waits for a refresh already fired, not for one still
   * pending in refresh()'s timer: a reveal of a row just recorded needs this first, or on a busy
   * machine it runs against the old rows and the refresh that follows drops its selection.
   */
  refreshNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.changed.fire(undefined);
  }

  async getChildren(node?: IterationsNode): Promise<IterationsNode[]> {
    const task = this.tasks.task();
    if (!task) return [];
    if (!node) {
      // The active run (where Run Iteration records) first: it is the one being worked on.
      const active = this.loop.activeRun;
      const listed = await listRuns(task);
      this.drawn = await this.runsSignature(task, listed).catch(() => undefined);
      const runs = listed.sort((a, b) => Number(b.info.name === active) - Number(a.info.name === active));
      return runs.map((summary) => ({ type: 'run' as const, summary }));
    }
    if (node.type === 'run') {
      const records = await readIterationRecords(task.run(node.summary.info.name).iterationsFile);
      this.records.set(node.summary.info.name, records);
      // Newest first: the latest iteration is what a user looks at.
      return records
        .map((record, i) => ({
          type: 'iteration' as const,
          run: node.summary.info.name,
          history: node.summary.info.kind === 'human-history',
          record,
          line0: records[0],
          previous: i > 0 ? records[i - 1] : undefined,
          eventLogs: rolesWithEventLogs(node.summary.info),
        }))
        .reverse();
    }
    if (node.type === 'iteration') return iterationFiles(task, node);
    return [];
  }

  /** Needed by TreeView.reveal (the chart reveals the iteration of a clicked point). */
  async getParent(node: IterationsNode): Promise<IterationsNode | undefined> {
    const task = this.tasks.task();
    if (!task || node.type !== 'iteration') return undefined;
    const summary = await readRunSummary(task, node.run);
    return summary && { type: 'run', summary };
  }

  getTreeItem(node: IterationsNode): vscode.TreeItem {
    switch (node.type) {
      case 'run': {
        const { info, iterations, lastGap, solved, pending, scoreFlags } = node.summary;
        const item = new vscode.TreeItem(info.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `run:${info.name}`;
        const active = this.loop.activeRun === info.name;
        const running = this.loop.runningRun === info.name;
        // Short enough for the default side bar width: the iterations are the rows below it.
        item.description = [
          solved
            ? runSolvedText(scoreFlags)
            : lastGap !== undefined
              ? lastGap < 0
                ? vscode.l10n.t('pytest did not run')
                : vscode.l10n.t('gap {0}', lastGap)
              : undefined,
          pending ? vscode.l10n.t('#{0} pending', pending.iteration) : undefined,
          running ? vscode.l10n.t('running') : active ? vscode.l10n.t('active') : undefined,
        ]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = running
          ? new vscode.ThemeIcon('sync~spin')
          : info.kind === 'human-history'
            ? new vscode.ThemeIcon('history')
            : new vscode.ThemeIcon(solved ? 'pass' : 'run-all', solved ? new vscode.ThemeColor('testing.iconPassed') : undefined);
        item.tooltip = new vscode.MarkdownString(
          [
            `**${info.name}** (${info.kind}): ` +
              (iterations === 1 ? vscode.l10n.t('1 iteration') : vscode.l10n.t('{0} iterations', iterations)) +
              (active ? vscode.l10n.t(', the active run (the loop commands record into it)') : ''),
            '',
            vscode.l10n.t('Architect: {0}', info.roles.architect.label),
            '',
            vscode.l10n.t('Programmer: {0}', info.roles.programmer.label),
            '',
            vscode.l10n.t('Created {0}', info.created),
            info.branch ? `\n\n${vscode.l10n.t('Branch `{0}`', info.branch)}` : '',
          ].join('\n'),
        );
        item.contextValue = info.kind === 'human-history' ? 'run-history' : 'run';
        return item;
      }
      case 'iteration': {
        const { record, line0 } = node;
        const label = record.iteration === 0 ? vscode.l10n.t('base') : `#${record.iteration}`;
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `iter:${node.run}:${record.iteration}`;
        // Roles, notes and pytest's error are whole in the tooltip; the row keeps what fits.
        const selected = this.compareSelection?.run === node.run && this.compareSelection.iteration === record.iteration;
        const compared = this.compared.some((c) => c.run === node.run && c.iteration === record.iteration);
        item.description = `${selected ? `◆ ${vscode.l10n.t('selected')} · ` : compared ? '↔ ' : ''}${iterationDescription(record, line0)}`;
        item.tooltip = new vscode.MarkdownString(
          `${compared ? `↔ ${vscode.l10n.t('Compared in the iteration view.')}\n\n` : ''}${iterationTooltip(record, line0)}`,
        );
        item.iconPath =
          record.gap < 0
            ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
            : record.gap === 0
              ? new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'))
              : record.regressions.length
                ? new vscode.ThemeIcon('arrow-down', new vscode.ThemeColor('testing.iconFailed'))
                : new vscode.ThemeIcon('circle-outline');
        if (selected) item.iconPath = new vscode.ThemeIcon('git-compare', new vscode.ThemeColor('focusBorder'));
        item.contextValue = 'iteration';
        // A click opens the iteration view there; the twistie still lists the archived files.
        item.command = { title: vscode.l10n.t('Open Iteration'), command: 'sweci.openIteration', arguments: [node] };
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.command = node.command;
        return item;
      }
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

function iterationFiles(task: TaskFolder, node: Extract<IterationsNode, { type: 'iteration' }>): IterationsNode[] {
  const layout = task.run(node.run);
  const dir = layout.iterationDir(node.record.iteration);
  const id = (what: string) => `file:${node.run}:${node.record.iteration}:${what}`;
  const open = (file: string): vscode.Command => ({ title: vscode.l10n.t('Open'), command: 'vscode.open', arguments: [vscode.Uri.file(file)] });
  const out: IterationsNode[] = [];
  // Every file row says where the file is, from the task folder.
  const withTooltips = (nodes: IterationsNode[]): IterationsNode[] =>
    nodes.map((n) =>
      n.type === 'file' && n.command.command === 'vscode.open' && n.command.arguments?.[0] instanceof vscode.Uri
        ? { ...n, tooltip: relativePaths(n.command.arguments[0].fsPath, task) }
        : n,
    );
  const has = (name: string) => fs.existsSync(path.join(dir, name));
  if (has(ARCHIVE.requirement)) {
    out.push({
      type: 'file',
      id: id('req'),
      label: 'requirement.xml',
      icon: 'checklist',
      command: {
        title: vscode.l10n.t('Open'),
        command: 'vscode.open',
        arguments: [archivedRequirementUri({ run: node.run, iteration: node.record.iteration })],
      },
    });
    const prev = node.previous && path.join(layout.iterationDir(node.previous.iteration), ARCHIVE.requirement);
    if (prev && fs.existsSync(prev)) {
      out.push({
        type: 'file',
        id: id('req-diff'),
        label: vscode.l10n.t('requirement.xml changes'),
        description: vscode.l10n.t('since #{0}', node.previous!.iteration),
        icon: 'diff',
        command: {
          title: vscode.l10n.t('Compare'),
          command: 'vscode.diff',
          arguments: [
            archivedRequirementUri({ run: node.run, iteration: node.previous!.iteration }),
            archivedRequirementUri({ run: node.run, iteration: node.record.iteration }),
            `requirement.xml #${node.previous!.iteration} ↔ #${node.record.iteration}`,
          ],
        },
      });
    }
  }
  if (node.record.iteration > 0 || node.previous) {
    // The multi-file diff editor between this iteration's commit and the previous one's.
    out.push({
      type: 'file',
      id: id('diff'),
      label: vscode.l10n.t('code changes'),
      icon: 'git-compare',
      command: { title: vscode.l10n.t('Code Changes'), command: 'sweci.openCodeChanges', arguments: [{ run: node.run, iteration: node.record.iteration }] },
    });
  }
  if (has(ARCHIVE.codeDiff))
    out.push({
      type: 'file',
      id: id('patch'),
      label: 'code.diff',
      description: vscode.l10n.t('as a patch'),
      icon: 'diff',
      command: open(path.join(dir, ARCHIVE.codeDiff)),
    });
  if (has(ARCHIVE.report))
    out.push({
      type: 'file',
      id: id('report'),
      label: vscode.l10n.t('test report'),
      description: vscode.l10n.t('failures first'),
      icon: 'beaker',
      // A table in the iteration view (its raw JSON is a click away there), not one-line JSON.
      command: { title: vscode.l10n.t('Open Test Report'), command: 'sweci.openTestReport', arguments: [{ run: node.run, iteration: node.record.iteration }] },
      tooltip: vscode.l10n.t("Each test's outcome, duration and message, from {0}", relativePaths(path.join(dir, ARCHIVE.report), task)),
    });
  if (has(ARCHIVE.summary))
    out.push({ type: 'file', id: id('summary'), label: 'summary.jsonl', icon: 'list-flat', command: open(path.join(dir, ARCHIVE.summary)) });
  if (has(ARCHIVE.pytestOutput))
    out.push({ type: 'file', id: id('pytest'), label: vscode.l10n.t('pytest output'), icon: 'output', command: open(path.join(dir, ARCHIVE.pytestOutput)) });
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  for (const name of entries.filter((n) => n.endsWith('.log'))) {
    out.push({
      type: 'file',
      id: id(name),
      label: name.replace(/\.log$/, '').replace('-try-', ` · ${vscode.l10n.t('try')} `),
      description: vscode.l10n.t('agent log'),
      icon: 'terminal',
      command: open(path.join(dir, name)),
    });
  }
  // What each agent try did, call by call: where the gateway recorded its model calls.
  for (const t of triesIn(entries, node.eventLogs)) {
    out.push({
      type: 'file',
      id: id(`transcript-${t.role}-${t.try}`),
      label: vscode.l10n.t('Transcript'),
      description: t.role === 'architect' ? vscode.l10n.t('Architect · try {0}', t.try) : vscode.l10n.t('Programmer · try {0}', t.try),
      tooltip: vscode.l10n.t('What the agent did in this try: its model calls, tool calls and the files it wrote'),
      icon: 'comment-discussion',
      command: {
        title: vscode.l10n.t('Open Transcript'),
        command: 'sweci.openTranscript',
        arguments: [{ run: node.run, iteration: node.record.iteration, role: t.role, try: t.try }],
      },
    });
  }
  for (const name of entries.filter((n) => n.endsWith('.prompt.md'))) {
    out.push({
      type: 'file',
      id: id(name),
      label: name.replace('.prompt.md', ` ${vscode.l10n.t('prompt')}`),
      icon: 'comment',
      command: open(path.join(dir, name)),
    });
  }
  return withTooltips(out);
}
