// The Task view: which task is open, where it came from, and how its last pytest run went.
// Rows that name a file open it.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { TaskState } from '../../core/checkout/task-state';
import type { TaskController } from '../task-controller';
import type { EnvironmentManager } from '../environment/environment-manager';
import { environmentText } from '../environment/environment-text';
import type { ReportFormat } from '../../core/pytest/pytest-command';
import { relativePaths, shortDescription } from './view-text';
import { summarizeRole, type RoleSummary } from '../../core/agents/agent-summary';
import { findBubblewrap } from '../../core/runtime/sandbox';
import { agentSettings, runtimeSettings } from '../config';
import { errorMessage } from '../../core/util/errors';

interface InfoRow {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: string;
  color?: string;
  file?: string;
  /** What a click does when it does not open `file`. */
  command?: vscode.Command;
}

export class TaskInfoTreeProvider implements vscode.TreeDataProvider<InfoRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private rows: InfoRow[] = [];
  private readonly sub: vscode.Disposable;
  /** Whether bubblewrap can confine here; unknown until asked once. */
  private sandbox: boolean | undefined;
  private readonly firstLoad: Promise<void>;

  constructor(
    controller: TaskController,
    private readonly environments: EnvironmentManager,
  ) {
    this.firstLoad = controller.firstLoad;
    this.sub = vscode.Disposable.from(
      controller.onDidChange((state) => this.render(state)),
      environments.onDidChange(() => this.render(controller.current)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('sweci')) this.render(controller.current);
      }),
    );
    this.render(controller.current);
    void findBubblewrap().then((bwrap) => {
      this.sandbox = bwrap !== undefined;
      this.render(controller.current);
    });
  }

  private render(state: TaskState | undefined): void {
    this.rows = state ? taskRows(state, this.environments.description, agentRows(this.sandbox)) : [];
    this.changed.fire(undefined);
  }

  /** The rows once the task has been read (TaskController.firstLoad: the view is shown before that). */
  getChildren(row?: InfoRow): InfoRow[] | Promise<InfoRow[]> {
    return row ? [] : this.firstLoad.then(() => this.rows);
  }

  /** The rows as drawn now. */
  get shownRows(): readonly InfoRow[] {
    return this.rows;
  }

  getTreeItem(row: InfoRow): vscode.TreeItem {
    const item = new vscode.TreeItem(row.label);
    item.id = row.id;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(row.icon, row.color ? new vscode.ThemeColor(row.color) : undefined);
    if (row.file) item.command = { title: vscode.l10n.t('Open'), command: 'vscode.open', arguments: [vscode.Uri.file(row.file)] };
    else if (row.command) item.command = row.command;
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

/** The rows, with the roles' rows after the Runtime row (where the steps run, then who plays them). */
function taskRows(state: TaskState, inUse: EnvironmentManager['description'], agents: InfoRow[]): InfoRow[] {
  const { task } = state.record;
  const layout = state.task;
  // Short in the row, whole in the tooltip: the side bar is narrow.
  const commit = (sha: string, date?: string) => `${sha.slice(0, 7)}${date ? ` · ${date.slice(0, 10)}` : ''}`;
  const rel = (text: string) => relativePaths(text, state.task);
  const rows: InfoRow[] = [
    { id: 'task', label: task.id, icon: 'package', tooltip: sourceTooltip(state), file: layout.taskFile },
    {
      id: 'base',
      label: vscode.l10n.t('Base'),
      description: commit(task.baseSha, task.baseDate),
      tooltip: `${task.baseSha}${task.baseDate ? `\n${task.baseDate}` : ''}`,
      icon: 'git-commit',
    },
    task.source.kind === 'swe-bench'
      ? {
          id: 'target',
          label: vscode.l10n.t('Target'),
          description: vscode.l10n.t('{0} to fix · {1} to keep', task.source.instance.failToPass.length, task.source.instance.passToPass.length),
          tooltip: vscode.l10n.t(
            "FAIL_TO_PASS ({0}) and PASS_TO_PASS ({1}) must all pass: that is resolved, the SWE-bench way.\nThe tests are the base with the instance's test patch ({2}); no fixed code is needed.",
            task.source.instance.failToPass.length,
            task.source.instance.passToPass.length,
            task.targetSha.slice(0, 12),
          ),
          icon: 'target',
        }
      : {
          id: 'target',
          label: vscode.l10n.t('Target'),
          description: commit(task.targetSha, task.targetDate),
          tooltip: `${task.targetSha}${task.targetDate ? `\n${task.targetDate}` : ''}\n${vscode.l10n.t('Its tests are the yardstick; its code stays outside the workspace.')}`,
          icon: 'target',
        },
    runtimeRow(state, inUse),
    ...agents,
  ];
  const run = state.lastRun;
  if (run) {
    const when = new Date(run.finishedAt).toLocaleTimeString();
    const secs = (run.durationMs / 1000).toFixed(1);
    rows.push(
      run.kind === 'ran'
        ? {
            id: 'run',
            label: vscode.l10n.t('Last pytest run'),
            // A lossy report is said where it is seen (its counts may differ from the reference's),
            // in a word that fits the default width; the tooltip says why.
            description: vscode.l10n.t('exit {0} · {1} s', String(run.exitCode), secs) + (run.reportFormat === 'junit' ? ` · ${vscode.l10n.t('lossy')}` : ''),
            tooltip:
              `${vscode.l10n.t('Finished at {0}.', when)}\n\n${rel(run.command)}` +
              (run.reportFormat ? `\n\n${vscode.l10n.t('Report: {0}', reportWriter(run.reportFormat))}` : ''),
            icon: 'beaker',
            ...(run.reportFormat === 'junit' ? { color: 'problemsWarningIcon.foreground' } : {}),
            file: layout.current.output,
          }
        : {
            id: 'run',
            label: vscode.l10n.t('pytest did not run'),
            description: shortDescription(run.reason ?? '', state.task, 24),
            tooltip: `${run.reason ? `${rel(run.reason)}\n\n` : ''}${rel(run.command)}\n\n${vscode.l10n.t("Finished at {0}. Click to open pytest's output.", when)}`,
            icon: 'warning',
            color: 'problemsWarningIcon.foreground',
            file: layout.current.output,
          },
    );
  }
  if (state.counts) {
    rows.push({
      id: 'summary',
      label: 'summary.jsonl',
      description: vscode.l10n.t('{0} tests', state.counts.gap),
      icon: 'list-flat',
      file: layout.summaryFile,
      tooltip: `${vscode.l10n.t('{0} non-passed tests for the Architect', state.counts.gap)}\n${rel(layout.summaryFile)}`,
    });
  }
  if (fs.existsSync(layout.requirementFile)) {
    rows.push({ id: 'requirement', label: 'requirement.xml', icon: 'checklist', file: layout.requirementFile, tooltip: rel(layout.requirementFile) });
  }
  return rows;
}

function reportWriter(format: ReportFormat): string {
  switch (format) {
    case 'json-report':
      return vscode.l10n.t('pytest-json-report (as the reference)');
    case 'builtin':
      return vscode.l10n.t("SWE-CI's report plugin (pytest-json-report's format)");
    case 'junit':
      return vscode.l10n.t('JUnit XML, which is lossy: an xpassed test counts as passed and some node ids are guessed (sweci.pytest.reportFormat)');
  }
}

/** Where the tests run: the environment in use, else the one recorded at checkout. */
function runtimeRow(state: TaskState, inUse: EnvironmentManager['description']): InfoRow {
  const recorded = state.environment ? environmentText(state.environment) : undefined;
  const full = inUse?.description ?? recorded ?? vscode.l10n.t('chosen at the first run (sweci.runtime)');
  const description = shortDescription(full, state.task, 28);
  const lines = [
    description !== full ? full : undefined,
    inUse ? vscode.l10n.t('In use: {0}', inUse.description) : undefined,
    recorded ? vscode.l10n.t('At checkout: {0}', recorded) + (state.environment?.imageId ? ` (${state.environment.imageId.slice(0, 19)})` : '') : undefined,
    inUse?.note,
    vscode.l10n.t('Set by sweci.runtime and sweci.docker.image.'),
  ].filter(Boolean);
  const docker = description.startsWith('docker') || description.startsWith('podman');
  return {
    id: 'runtime',
    label: vscode.l10n.t('Runtime'),
    description,
    tooltip: lines.join('\n'),
    icon: docker ? 'vm' : 'device-desktop',
    ...(inUse?.note ? { color: 'problemsWarningIcon.foreground' } : {}),
    file: state.task.environmentFile,
  };
}

/**
 * Who plays each role, one row each (a name fits the narrow side bar; two on one row did not),
 * with its endpoint and what it may do in the tooltip. A preset whose step is not confined is
 * held to file edits: the row says so in the warning colour.
 */
function agentRows(sandbox: boolean | undefined): InfoRow[] {
  let summaries: RoleSummary[];
  try {
    summaries = (['architect', 'programmer'] as const).map((role) => {
      const s = agentSettings(role);
      const sandboxOn = runtimeSettings().sandbox !== 'off' && sandbox !== false;
      const confined = s.kind !== 'human' && (s.runIn === 'container' || sandboxOn);
      return summarizeRole(role, s, confined);
    });
  } catch (err) {
    const message = errorMessage(err);
    return [
      {
        id: 'agents',
        label: vscode.l10n.t('Agents'),
        description: vscode.l10n.t('settings error'),
        tooltip: message,
        icon: 'warning',
        color: 'problemsWarningIcon.foreground',
      },
    ];
  }
  const title = (r: RoleSummary) => (r.role === 'architect' ? vscode.l10n.t('Architect') : vscode.l10n.t('Programmer'));
  return summaries.map((r) => ({
    id: r.role,
    label: title(r),
    description: r.restricted ? vscode.l10n.t('{0} · restricted', r.label) : r.label,
    tooltip: [
      vscode.l10n.t('{0}: {1}\n  endpoint: {2}\n  allowed: {3}', title(r), r.label, r.endpoint, r.permissions),
      r.restricted
        ? '\n' + vscode.l10n.t('Not confined (sweci.sandbox off, or no bubblewrap): presets may only edit files, so the Programmer cannot run the tests.')
        : '',
      vscode.l10n.t('Set by sweci.{0}.* and sweci.agents.baseUrl (click to open them). SWE-CI: Check Agents tries them.', r.role),
    ]
      .filter(Boolean)
      .join('\n'),
    icon: r.role === 'architect' ? 'hubot' : 'tools',
    command: { title: vscode.l10n.t('Open Settings'), command: 'workbench.action.openSettings', arguments: [`sweci.${r.role}.`] },
    ...(r.restricted ? { color: 'problemsWarningIcon.foreground' } : {}),
  }));
}

function sourceTooltip(state: TaskState): string {
  const s = state.record.task.source;
  if (s.kind === 'dataset') return vscode.l10n.t('From the dataset {0} (split {1})', s.datasetDir, s.split);
  if (s.kind === 'swe-bench') return vscode.l10n.t('SWE-bench instance {0} from {1}, on a clone at {2}', s.instance.instanceId, s.instancesFile, s.repoPath);
  return vscode.l10n.t('From {0}: {1} → {2}', s.repoPath, s.baseRef, s.targetRef);
}
