// SWE-CI: Open Leaderboard: the workspace's leaderboard.json, or experiment folders the user
// picks, ranked (leaderboard-source.ts) and shown in the Leaderboard panel. What it ranks is
// kept in the workspace's state, so the panel comes back after a window reload, and watched
// (the change feed), so the panel follows runs as they finish. An entry opens its summary; a
// task opens its chart, in a new window when the task is not this window's.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { EXPERIMENT_FILE, experimentLayout } from '../../core/batch/experiment';
import { leaderboardCandidates } from '../../core/leaderboard/leaderboard-candidates';
import type { LeaderboardRecord } from '../../shared/leaderboard-record';
import { writeLeaderboardReport } from '../../core/report/leaderboard-html';
import { errorMessage } from '../../core/util/errors';
import type { ChangeFeed } from '../change-feed';
import { integritySettings } from '../config';
import { showError } from '../errors';
import * as messages from '../messages';
import { LeaderboardPanelHost } from '../leaderboard/leaderboard-panel';
import { loadLeaderboard } from '../leaderboard/leaderboard-source';
import { type LeaderboardSource } from '../../shared/leaderboard-protocol';
import { entrySummary, SummaryDocuments } from '../leaderboard/summary-document';
import { log } from '../log';
import type { TaskController } from '../task-controller';
import { taskFolder } from '../../core/workspace/task-folder';

/** A task's chart to show when the window opened for it starts (set by a task click in another window). */
const PENDING_CHART_KEY = 'sweci.leaderboard.pendingChart';
/** A pending chart older than this was not for this start. */
const PENDING_CHART_MS = 5 * 60_000;

const pendingChartSchema = z.object({ root: z.string(), at: z.number() });

export interface LeaderboardFeature {
  panel: LeaderboardPanelHost;
  /** Ranks `source` and opens the panel on it, following it from then on (what the command does once the source is picked). */
  open(source: LeaderboardSource): Promise<LeaderboardRecord>;
}

/**
 * The workspace's leaderboard.json, else the experiment folders the user picks (undefined:
 * cancelled). The dialog starts beside the open task's experiment; then the runs to rank are
 * offered: the picked experiments, their developers' replay and the experiments beside them.
 */
async function pickSource(controller: TaskController): Promise<LeaderboardSource | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const file = path.join(folder.uri.fsPath, 'leaderboard.json');
    if (fs.existsSync(file)) return { kind: 'file', file };
  }
  const start = pickerStart(controller);
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Experiments to rank (one folder per model or agent; the next step offers the ones beside them)'),
    openLabel: vscode.l10n.t('Rank'),
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: true,
    ...(start ? { defaultUri: vscode.Uri.file(start) } : {}),
  });
  if (!picked?.length) return undefined;
  const candidates = await leaderboardCandidates(picked.map((u) => u.fsPath));
  if (candidates.length === picked.length) return { kind: 'experiments', experiments: candidates.map((c) => c.argument) };
  const items = candidates.map((c) => ({
    label: c.kind === 'human-history' ? `${path.basename(c.experiment)}#${c.run}` : path.basename(c.experiment),
    description: c.kind === 'human-history' ? vscode.l10n.t("the upstream developers' replay") : c.run ? vscode.l10n.t('run {0}', c.run) : '',
    detail: c.experiment,
    picked: c.picked,
    argument: c.argument,
  }));
  const chosen = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Rank these runs (the experiments picked, their developers’ replay, and the experiments beside them)'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return chosen?.length ? { kind: 'experiments', experiments: chosen.map((c) => c.argument) } : undefined;
}

/** Where the experiment dialog starts: the folder holding the open task's experiment, else the workspace's. */
function pickerStart(controller: TaskController): string | undefined {
  const task = controller.task()?.root;
  if (task && fs.existsSync(path.join(path.dirname(task), EXPERIMENT_FILE))) return path.dirname(path.dirname(task));
  const workspace = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  return workspace ?? task;
}

/**
 * Where Export HTML proposes to write: .sweci/reports/ of the open task, else of the folder of
 * leaderboard.json, else of the workspace, else of the first experiment ranked.
 */
function reportsFolder(controller: TaskController, record: LeaderboardRecord, source: LeaderboardSource | undefined): string {
  const task = controller.task()?.root;
  const workspace = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  const base =
    task ?? (source?.kind === 'file' ? path.dirname(source.file) : undefined) ?? workspace ?? record.entries[0]?.experiments[0]?.experiment ?? os.homedir();
  return taskFolder(base).reportsDir;
}

/** The experiment folders a record ranks, once each. */
function experimentsOf(record: LeaderboardRecord): string[] {
  return [...new Set(record.entries.flatMap((e) => e.experiments.map((x) => x.experiment)))];
}

export function activateLeaderboard(context: vscode.ExtensionContext, feed: ChangeFeed, controller: TaskController): LeaderboardFeature {
  const summaries = new SummaryDocuments();
  /** Computes `source`'s record and watches what it ranks from then on. */
  const loaderFor = (source: LeaderboardSource) => async () => {
    const record = await loadLeaderboard(source);
    feed.watchLeaderboard(source.kind === 'file' ? [source.file] : [], experimentsOf(record));
    return record;
  };
  const panel = new LeaderboardPanelHost({
    extensionUri: context.extensionUri,
    memento: context.workspaceState,
    loaderFor,
    openEntry: async (entry) => {
      const record = panel.record;
      if (!record) return undefined;
      try {
        const scope = vscode.Uri.file(entry.experiments[0].experiment);
        await summaries.show(entry.label, await entrySummary(record, entry, integritySettings(scope)));
        return undefined;
      } catch (err) {
        return `${entry.label}: its summary could not be read: ${errorMessage(err)}`;
      }
    },
    openTask: async (entry, task) => {
      // Repeats ran the task once each: the first run stands for the entry.
      const { experiment, run } = entry.experiments[0];
      const folder = experimentLayout(experiment).task(task);
      if (!fs.existsSync(folder.taskFile)) return `${entry.label}: ${experiment} has no task folder for ${task}.`;
      if (controller.task()?.root === folder.root) {
        await vscode.commands.executeCommand('sweci.showChart');
        return undefined;
      }
      const open = vscode.l10n.t('Open in New Window');
      const choice = await messages.showInformationMessage(
        vscode.l10n.t('{0} ({1}, run {2}) is a task folder of its own: open it with its chart in a new window?', task, entry.label, run),
        open,
      );
      if (choice !== open) return undefined;
      await context.globalState.update(PENDING_CHART_KEY, { root: folder.root, at: Date.now() });
      await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder.root), { forceNewWindow: true });
      return undefined;
    },
    exportReport: async (record) => {
      const reports = reportsFolder(controller, record, panel.source);
      const suggested = path.join(reports, `leaderboard-${new Date().toISOString().replace(/[:.]/g, '-').replace(/Z$/, '')}`);
      const pick = await vscode.window.showQuickPick(
        [
          { label: `$(folder) ${suggested}`, description: vscode.l10n.t('in .sweci/reports'), folder: suggested },
          { label: `$(folder-opened) ${vscode.l10n.t('Choose a Folder…')}`, folder: undefined },
        ],
        { title: vscode.l10n.t('Export the leaderboard (leaderboard.html, .json and .csv) to') },
      );
      if (!pick) return;
      let folder = pick.folder;
      if (!folder) {
        // The dialog starts in .sweci/reports/, not wherever a dialog was last.
        await fs.promises.mkdir(reports, { recursive: true }).catch(() => undefined);
        const picked = await vscode.window.showOpenDialog({
          title: vscode.l10n.t('Folder for leaderboard.html, leaderboard.json and leaderboard.csv'),
          openLabel: vscode.l10n.t('Export'),
          canSelectFolders: true,
          canSelectFiles: false,
          defaultUri: vscode.Uri.file(reports),
        });
        if (!picked?.[0]) return;
        folder = picked[0].fsPath;
      }
      try {
        const out = await writeLeaderboardReport({ record, folder, assetRoot: context.extensionUri.fsPath });
        void messages.showInformationMessage(vscode.l10n.t('Wrote {0}, with leaderboard.json and leaderboard.csv beside it.', out.html));
      } catch (err) {
        showError(vscode.l10n.t('Export Leaderboard'), err);
      }
    },
    closed: () => feed.watchLeaderboard([], []),
  });
  const open = async (source: LeaderboardSource) => {
    return panel.show(loaderFor(source), source);
  };
  context.subscriptions.push(
    panel,
    summaries,
    vscode.commands.registerCommand('sweci.openLeaderboard', async () => {
      try {
        const source = await pickSource(controller);
        if (source) await open(source);
      } catch (err) {
        showError(vscode.l10n.t('Open Leaderboard'), err);
      }
    }),
    // A run recorded an iteration, an experiment was made, the file was edited: rank again.
    feed.onDidChangeLeaderboard(() =>
      panel.refresh().catch((err: unknown) => log().warn(`Leaderboard: kept the last record; ranking again failed: ${errorMessage(err)}`)),
    ),
  );
  showPendingChart(context, controller);
  return { panel, open };
}

/** This window was opened for a task's chart (a leaderboard task click in another window): show it. */
function showPendingChart(context: vscode.ExtensionContext, controller: TaskController): void {
  const pending = pendingChartSchema.safeParse(context.globalState.get(PENDING_CHART_KEY));
  if (!pending.success || pending.data.root !== controller.task()?.root) return;
  void context.globalState.update(PENDING_CHART_KEY, undefined);
  if (Date.now() - pending.data.at < PENDING_CHART_MS) void vscode.commands.executeCommand('sweci.showChart');
}
