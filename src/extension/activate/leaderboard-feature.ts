// SWE-CI: Open Leaderboard: the workspace's leaderboard.json, or experiment folders the user
// picks, ranked (leaderboard-source.ts) and shown in the Leaderboard panel.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeLeaderboardReport } from '../../core/report/leaderboard-html';
import { showError } from '../errors';
import * as messages from '../messages';
import { LeaderboardPanelHost } from '../leaderboard/leaderboard-panel';
import { loadLeaderboard, type LeaderboardSource } from '../leaderboard/leaderboard-source';
import { log } from '../log';

export interface LeaderboardFeature {
  panel: LeaderboardPanelHost;
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

export function activateLeaderboard(context: vscode.ExtensionContext): LeaderboardFeature {
  const panel = new LeaderboardPanelHost({
    extensionUri: context.extensionUri,
    // The experiment's own record until its summary has a view (issue 34).
    openEntry: async (entry) => {
      const first = entry.experiments[0];
      log().info(`Leaderboard: ${entry.label}: ${entry.experiments.map((e) => `${e.experiment}#${e.run}`).join(', ')}`);
      const file = first && path.join(first.experiment, 'sweci-experiment.json');
      if (!file || !fs.existsSync(file)) return `${entry.label}: no sweci-experiment.json in ${first?.experiment ?? 'its experiment folder'}.`;
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: true });
      return undefined;
    },
    openTask: (entry, task) => {
      log().info(`Leaderboard: ${entry.label}, task ${task} (opening a task's chart from here comes with issue 34's core).`);
      return Promise.resolve(undefined);
    },
    exportReport: async (record) => {
      const picked = await vscode.window.showOpenDialog({
        title: 'Folder for leaderboard.html and leaderboard.json',
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
  });
  context.subscriptions.push(
    panel,
    vscode.commands.registerCommand('sweci.openLeaderboard', async () => {
      try {
        const source = await pickSource();
        if (source) await panel.show(() => loadLeaderboard(source));
      } catch (err) {
        showError('Open Leaderboard', err);
      }
    }),
  );
  return { panel };
}
