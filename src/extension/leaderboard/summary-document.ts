// Where a leaderboard entry's summary opens: one read-only Markdown document per entry,
// `sweci-summary:/<label>.md`, holding `sweci summarize --format markdown` of each of its runs
// (a repeat each), scored as the leaderboard scored them (its N, its γ values, the window's
// integrity settings). Clicking the entry again refreshes the text in place.
import * as vscode from 'vscode';
import { summarizeExperiment } from '../../core/batch/experiment-summary';
import { formatSummary } from '../../core/batch/summary-format';
import type { LeaderboardEntry, LeaderboardRecord } from '../../shared/leaderboard-record';
import type { ScoringRules } from '../../shared/metrics/scored-line';

const SCHEME = 'sweci-summary';

/** The Markdown of `entry`'s runs, each as `sweci summarize <experiment> --run <run> --gamma … --max-epoch N` prints it. */
export async function entrySummary(record: LeaderboardRecord, entry: LeaderboardEntry, scoring: ScoringRules): Promise<string> {
  const gammas = record.gammas.filter((g) => g !== '1').map(Number);
  const parts = [`# ${entry.label}`, ''];
  for (const { experiment, run } of entry.experiments) {
    const summary = await summarizeExperiment(experiment, { run, gammas, maxEpoch: record.maxEpoch, scoring });
    parts.push(`## ${experiment}`, '', formatSummary(summary, 'markdown').trimEnd(), '');
  }
  return parts.join('\n');
}

export class SummaryDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  /** Sets `label`'s text and shows it (an editor already showing it follows). */
  async show(label: string, text: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${label.replace(/[/\\]/g, '∕')}.md` });
    this.texts.set(uri.path, text);
    this.changed.fire(uri);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
