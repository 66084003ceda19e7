// The Task view: which task is open, where it came from, and how its last pytest run went.
// Rows that name a file open it.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { TaskState } from '../../core/checkout/task-state';
import type { TaskController } from '../task-controller';
import type { EnvironmentManager } from '../environment/environment-manager';
import { describeEnvironment } from '../../core/runtime/task-environment';
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

  constructor(
    controller: TaskController,
    private readonly environments: EnvironmentManager,
  ) {
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

  getChildren(row?: InfoRow): InfoRow[] {
    return row ? [] : this.rows;
  }

  getTreeItem(row: InfoRow): vscode.TreeItem {
    const item = new vscode.TreeItem(row.label);
    item.id = row.id;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(row.icon, row.color ? new vscode.ThemeColor(row.color) : undefined);
    if (row.file) item.command = { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.file(row.file)] };
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
      label: 'Base',
      description: commit(task.baseSha, task.baseDate),
      tooltip: `${task.baseSha}${task.baseDate ? `\n${task.baseDate}` : ''}`,
      icon: 'git-commit',
    },
    task.source.kind === 'swe-bench'
      ? {
          id: 'target',
          label: 'Target',
          description: `${task.source.instance.failToPass.length} to fix · ${task.source.instance.passToPass.length} to keep`,
          tooltip: `FAIL_TO_PASS (${task.source.instance.failToPass.length}) and PASS_TO_PASS (${task.source.instance.passToPass.length}) must all pass: that is resolved, the SWE-bench way.\nThe tests are the base with the instance's test patch (${task.targetSha.slice(0, 12)}); no fixed code is needed.`,
          icon: 'target',
        }
      : {
          id: 'target',
          label: 'Target',
          description: commit(task.targetSha, task.targetDate),
          tooltip: `${task.targetSha}${task.targetDate ? `\n${task.targetDate}` : ''}\nIts tests are the yardstick; its code stays outside the workspace.`,
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
            label: 'Last pytest run',
            // A lossy report is said where it is seen (its counts may differ from the reference's),
            // in a word that fits the default width; the tooltip says why.
            description: `exit ${run.exitCode} · ${secs} s${run.reportFormat === 'junit' ? ' · lossy' : ''}`,
            tooltip: `Finished at ${when}.\n\n${rel(run.command)}${run.reportFormat ? `\n\nReport: ${REPORT_WRITERS[run.reportFormat]}` : ''}`,
            icon: 'beaker',
            ...(run.reportFormat === 'junit' ? { color: 'problemsWarningIcon.foreground' } : {}),
            file: layout.current.output,
          }
        : {
            id: 'run',
            label: 'pytest did not run',
            description: shortDescription(run.reason ?? '', state.task, 24),
            tooltip: `${run.reason ? `${rel(run.reason)}\n\n` : ''}${rel(run.command)}\n\nFinished at ${when}. Click to open pytest's output.`,
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
      description: `${state.counts.gap} tests`,
      icon: 'list-flat',
      file: layout.summaryFile,
      tooltip: `${state.counts.gap} non-passed tests for the Architect\n${rel(layout.summaryFile)}`,
    });
  }
  if (fs.existsSync(layout.requirementFile)) {
    rows.push({ id: 'requirement', label: 'requirement.xml', icon: 'checklist', file: layout.requirementFile, tooltip: rel(layout.requirementFile) });
  }
  return rows;
}

const REPORT_WRITERS: Record<ReportFormat, string> = {
  'json-report': 'pytest-json-report (as the reference)',
  builtin: "SWE-CI's report plugin (pytest-json-report's format)",
  junit: 'JUnit XML, which is lossy: an xpassed test counts as passed and some node ids are guessed (sweci.pytest.reportFormat)',
};

/** Where the tests run: the environment in use, else the one recorded at checkout. */
function runtimeRow(state: TaskState, inUse: EnvironmentManager['description']): InfoRow {
  const recorded = state.environment ? describeEnvironment(state.environment) : undefined;
  const full = inUse?.description ?? recorded ?? 'chosen at the first run (sweci.runtime)';
  const description = shortDescription(full, state.task, 28);
  const lines = [
    description !== full ? full : undefined,
    inUse ? `In use: ${inUse.description}` : undefined,
    recorded ? `At checkout: ${recorded}${state.environment?.imageId ? ` (${state.environment.imageId.slice(0, 19)})` : ''}` : undefined,
    inUse?.note,
    'Set by sweci.runtime and sweci.docker.image.',
  ].filter(Boolean);
  const docker = description.startsWith('docker');
  return {
    id: 'runtime',
    label: 'Runtime',
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
    return [{ id: 'agents', label: 'Agents', description: 'settings error', tooltip: message, icon: 'warning', color: 'problemsWarningIcon.foreground' }];
  }
  const title = (r: RoleSummary) => r.role.charAt(0).toUpperCase() + r.role.slice(1);
  return summaries.map((r) => ({
    id: r.role,
    label: title(r),
    description: r.restricted ? `${r.label} · restricted` : r.label,
    tooltip: [
      `${title(r)}: ${r.label}\n  endpoint: ${r.endpoint}\n  allowed: ${r.permissions}`,
      r.restricted ? '\nNot confined (sweci.sandbox off, or no bubblewrap): presets may only edit files, so the Programmer cannot run the tests.' : '',
      `Set by sweci.${r.role}.* and sweci.agents.baseUrl (click to open them). SWE-CI: Check Agents tries them.`,
    ]
      .filter(Boolean)
      .join('\n'),
    icon: r.role === 'architect' ? 'hubot' : 'tools',
    command: { title: 'Open Settings', command: 'workbench.action.openSettings', arguments: [`sweci.${r.role}.`] },
    ...(r.restricted ? { color: 'problemsWarningIcon.foreground' } : {}),
  }));
}

function sourceTooltip(state: TaskState): string {
  const s = state.record.task.source;
  if (s.kind === 'dataset') return `From the dataset ${s.datasetDir} (split ${s.split})`;
  if (s.kind === 'swe-bench') return `SWE-bench instance ${s.instance.instanceId} from ${s.instancesFile}, on a clone at ${s.repoPath}`;
  return `From ${s.repoPath}: ${s.baseRef} → ${s.targetRef}`;
}
