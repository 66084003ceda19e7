// SWE-CI: Open Leaderboard: the workspace's leaderboard.json, or experiment folders the user
// picks, ranked (leaderboard-source.ts) and shown in the Leaderboard panel. What it ranks is
// kept in the workspace's state, so the panel comes back after a window reload, and watched
// (the change feed), so the panel follows runs as they finish. An entry opens its summary; a
// task opens its chart, in a new window when the task is not this window's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { experimentLayout } from '../../core/batch/experiment';
import type { LeaderboardRecord } from '../../core/leaderboard/leaderboard-record';
import { writeLeaderboardReport } from '../../core/report/leaderboard-html';
import { errorMessage } from '../../core/util/errors';
import type { ChangeFeed } from '../change-feed';
import { integritySettings } from '../config';
import { showError } from '../errors';
import * as messages from '../messages';
import { LEADERBOARD_VIEW_TYPE, LeaderboardPanelHost } from '../leaderboard/leaderboard-panel';
import { loadLeaderboard } from '../leaderboard/leaderboard-source';
import { leaderboardSourceSchema, type LeaderboardSource } from '../../shared/leaderboard-protocol';
import { entrySummary, SummaryDocuments } from '../leaderboard/summary-document';
import { log } from '../log';
import type { TaskController } from '../task-controller';

const SOURCE_KEY = 'sweci.leaderboard.source';
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

/** The workspace's leaderboard.json, else the experiment folders the user picks (undefined: cancelled). */
async function pickSource(): Promise<LeaderboardSource | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const file = path.join(folder.uri.fsPath, 'leaderboard.json');
    if (fs.existsSync(file)) return { kind: 'file', file };
  }
  const picked = await vscode.window.showOpenDialog({
    title: 'Experiments to rank (one folder per model or agent)',
    openLabel: 'Rank',
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: true,
  });
  return picked?.length ? { kind: 'experiments', experiments: picked.map((u) => u.fsPath) } : undefined;
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
      const open = 'Open in New Window';
      const choice = await messages.showInformationMessage(
        `${task} (${entry.label}, run ${run}) is a task folder of its own: open it with its chart in a new window?`,
        open,
      );
      if (choice !== open) return undefined;
      await context.globalState.update(PENDING_CHART_KEY, { root: folder.root, at: Date.now() });
      await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder.root), { forceNewWindow: true });
      return undefined;
    },
    exportReport: async (record) => {
      const picked = await vscode.window.showOpenDialog({
        title: 'Folder for leaderboard.html, leaderboard.json and leaderboard.csv',
        openLabel: 'Export',
        canSelectFolders: true,
        canSelectFiles: false,
      });
      if (!picked?.[0]) return;
      try {
        const out = await writeLeaderboardReport({ record, folder: picked[0].fsPath, assetRoot: context.extensionUri.fsPath });
        void messages.showInformationMessage(`Wrote ${out.html}, with leaderboard.json and leaderboard.csv beside it.`);
      } catch (err) {
        showError('Export Leaderboard', err);
      }
    },
    closed: () => feed.watchLeaderboard([], []),
  });
  const open = async (source: LeaderboardSource) => {
    const record = await panel.show(loaderFor(source), source);
    await context.workspaceState.update(SOURCE_KEY, source);
    return record;
  };
  context.subscriptions.push(
    panel,
    summaries,
    vscode.commands.registerCommand('sweci.openLeaderboard', async () => {
      try {
        const source = await pickSource();
        if (source) await open(source);
      } catch (err) {
        showError('Open Leaderboard', err);
      }
    }),
    // A run recorded an iteration, an experiment was made, the file was edited: rank again.
    feed.onDidChangeLeaderboard(() =>
      panel.refresh().catch((err: unknown) => log().warn(`Leaderboard: kept the last record; ranking again failed: ${errorMessage(err)}`)),
    ),
    vscode.window.registerWebviewPanelSerializer(LEADERBOARD_VIEW_TYPE, {
      // After a window reload: rank what the panel ranked before, afresh. The page's saved state
      // names it (saved with the panel itself); the workspace's state is the fallback.
      deserializeWebviewPanel: async (restored, state: unknown) => {
        const kept = z.object({ source: leaderboardSourceSchema }).safeParse(state);
        const saved = kept.success ? kept.data.source : leaderboardSourceSchema.safeParse(context.workspaceState.get(SOURCE_KEY)).data;
        if (!saved) {
          restored.dispose();
          return;
        }
        try {
          await panel.restore(restored, loaderFor(saved), saved);
        } catch (err) {
          showError('Open Leaderboard', err);
        }
      },
    }),
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
