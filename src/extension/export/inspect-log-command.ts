// SWE-CI: Export Inspect Log…: an experiment's finished runs (or the one run a row of the
// Iterations view names) as Inspect logs, written by the core exporter the CLI's `sweci export
// inspect` uses. Asks for the folder (the dialog starts beside the experiment), shows progress
// with Cancel (a cancelled export writes nothing), and says where the logs went; where Inspect's
// own VS Code extension is installed, offers to open the log in it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXPERIMENT_FILE } from '../../core/batch/experiment';
import { exportInspectLogs, type InspectExportResult } from '../../core/export/inspect-log/export-inspect-logs';
import { UserError } from '../../core/util/errors';
import { integritySettings } from '../config';
import { showError } from '../errors';
import * as messages from '../messages';

/** Inspect's VS Code extension, and the command it opens a log with (a file URI as its argument). */
export const INSPECT_EXTENSION_ID = 'ukaisi.inspect-ai';
const INSPECT_OPEN_LOG = 'inspect.openLogViewer';

export interface ExportInspectArgs {
  /** The experiment folder (default: the open task's experiment, else one the user picks). */
  experiment?: string;
  /** Only this run (default: every finished run). */
  run?: string;
  /** Write here without asking (tests, scripts). */
  folder?: string;
}

/** A row of the Iterations view, as the view's context menu hands it over. */
interface RunRow {
  type: string;
  summary?: { info: { name: string } };
}

function isRunRow(arg: unknown): arg is RunRow {
  return typeof arg === 'object' && arg !== null && typeof (arg as RunRow).type === 'string';
}

/** The experiment holding the open task, when the task is one of an experiment's. */
function experimentOf(taskRoot: string | undefined): string | undefined {
  if (!taskRoot) return undefined;
  const dir = path.dirname(taskRoot);
  return fs.existsSync(path.join(dir, EXPERIMENT_FILE)) ? dir : undefined;
}

async function pickExperiment(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Experiment to export as Inspect logs (a folder made by sweci run --experiment)'),
    openLabel: vscode.l10n.t('Export This Experiment'),
    canSelectFolders: true,
    canSelectFiles: false,
    ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
  });
  return picked?.[0]?.fsPath;
}

async function pickOutFolder(experiment: string): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Folder for the Inspect logs (one .eval per run, and listing.json)'),
    openLabel: vscode.l10n.t('Export Here'),
    canSelectFolders: true,
    canSelectFiles: false,
    defaultUri: vscode.Uri.file(path.dirname(experiment)),
  });
  return picked?.[0]?.fsPath;
}

/** What the command was given: a run row, explicit arguments, or nothing (the palette). */
function targetOf(arg: unknown, taskRoot: string | undefined): { experiment?: string; run?: string; folder?: string } {
  if (isRunRow(arg)) {
    const experiment = experimentOf(taskRoot);
    if (!experiment)
      throw new UserError(
        `${taskRoot ?? 'This task'} is not a task of an experiment: Inspect logs are written for the runs of an experiment made by sweci run --experiment. Open one of its task folders, or run the command from the palette and pick the experiment folder.`,
      );
    return { experiment, ...(arg.summary ? { run: arg.summary.info.name } : {}) };
  }
  const given = (arg ?? {}) as ExportInspectArgs;
  const experiment = given.experiment ?? experimentOf(taskRoot);
  return { ...given, ...(experiment ? { experiment } : {}) };
}

/** `gamma`: the γ the views show (the chart's slider), for the logs' EvoScore, as Export Report uses it. */
export async function exportInspectLogCommand(taskRoot: string | undefined, gamma: number, arg?: unknown): Promise<InspectExportResult | undefined> {
  const what = vscode.l10n.t('Export Inspect Log');
  try {
    const target = targetOf(arg, taskRoot);
    const experiment = target.experiment ?? (await pickExperiment());
    if (!experiment) return undefined;
    const folder = target.folder ?? (await pickOutFolder(experiment));
    if (!folder) return undefined;
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting Inspect logs of {0}', path.basename(experiment)), cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const cancelled = token.onCancellationRequested(() => abort.abort());
        try {
          return await exportInspectLogs(experiment, {
            outDir: folder,
            gamma,
            scoring: integritySettings(vscode.Uri.file(experiment)),
            signal: abort.signal,
            onLog: (run) => progress.report({ message: vscode.l10n.t('run {0} done', run) }),
            ...(target.run !== undefined ? { run: target.run } : {}),
          });
        } finally {
          cancelled.dispose();
        }
      },
    );
    if (!target.folder) offerOpen(result, folder);
    return result;
  } catch (err) {
    showError(what, err);
    return undefined;
  }
}

/** Says where the logs went; with Inspect's extension installed, offers to open the first one in it. */
function offerOpen(result: InspectExportResult, folder: string): void {
  const skipped = result.skipped.map((s) => vscode.l10n.t('run {0} left out: {1}', s.run, s.reason)).join('; ');
  const text =
    result.logs.length === 1
      ? vscode.l10n.t('Wrote the Inspect log of run {0} to {1}', result.logs[0].run, result.logs[0].file)
      : vscode.l10n.t('Wrote {0} Inspect logs (one per run) and listing.json to {1}', result.logs.length, folder);
  const open = vscode.l10n.t('Open in Inspect');
  const inspect = vscode.extensions.getExtension(INSPECT_EXTENSION_ID) !== undefined;
  void messages.showInformationMessage(skipped ? `${text} (${skipped})` : text, ...(inspect ? [open] : [])).then(async (choice) => {
    if (choice !== open) return;
    try {
      await vscode.commands.executeCommand(INSPECT_OPEN_LOG, vscode.Uri.file(result.logs[0].file));
    } catch (err) {
      showError(open, err);
    }
  });
}
