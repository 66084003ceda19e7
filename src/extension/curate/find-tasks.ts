// SWE-CI: Find Tasks in This Repository… — the curation's mine stage (the engine `sweci curate`
// runs) on the open folder's repository or a picked one, under a cancellable progress; the
// candidates fill the Candidate Tasks view. Nothing is written: mining only reads history.
import * as vscode from 'vscode';
import { DEFAULT_MIN_CHANGED_LINES, DEFAULT_MIN_SOURCE_LINES, mineSpans } from '../../core/curate/mine';
import { openSourceRepository } from '../../core/curate/source-repository';
import { repoTopLevel } from '../../core/task/git-pair';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import { pickFolder } from '../commands/pick-folder';
import type { CandidatesTreeProvider, MinedRepository } from './candidates-tree';

/** Given as an argument they replace the prompt (tests, scripts); thresholds default to the CLI's. */
export interface FindTasksArgs {
  repoPath: string;
  branch?: string;
  minChangedLines?: number;
  minSourceLines?: number;
}

const LAST_REPO = 'sweci.lastCurateRepoDir';

export class FindTasksCommand {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly tree: CandidatesTreeProvider,
  ) {}

  async run(args?: FindTasksArgs): Promise<MinedRepository | undefined> {
    try {
      const repoPath = args?.repoPath ?? (await this.chooseRepository());
      if (!repoPath) return undefined;
      const mined = await withCancellableProgress(vscode.l10n.t('SWE-CI: finding tasks'), async ({ report, signal }) => {
        const repo = await openSourceRepository(repoPath, args?.branch, undefined, signal);
        report(vscode.l10n.t('Mining the first-parent history of {0}…', repo.ref));
        log().info(`Mining ${repo.ref} of ${repo.dir} for candidate tasks`);
        // The view shows spans as the walk finds them.
        this.tree.begin(repo.dir, repo.ref);
        await this.reveal();
        const result = await mineSpans(repo.dir, repo.ref, {
          lockfiles: false,
          minChangedLines: args?.minChangedLines ?? DEFAULT_MIN_CHANGED_LINES,
          minSourceLines: args?.minSourceLines ?? DEFAULT_MIN_SOURCE_LINES,
          signal,
          onSpan: (span) => {
            this.tree.found(span);
            report(vscode.l10n.t('{0} spans found…', this.tree.foundCount()));
          },
        });
        for (const problem of result.problems) log().warn(problem);
        return { dir: repo.dir, ref: repo.ref, commits: result.commits, candidates: result.candidates };
      });
      const kept = mined.candidates.filter((c) => !c.dropped).length;
      log().info(`Mined ${mined.commits} commits: ${mined.candidates.length} spans, ${kept} kept`);
      this.tree.show(mined);
      await this.reveal();
      return mined;
    } catch (err) {
      // A failed or cancelled search leaves no half list behind.
      if (this.tree.isMining()) this.tree.show(undefined);
      showError(vscode.l10n.t('Finding tasks failed'), err);
      if (args) throw err; // programmatic callers want the failure, not only a notification
      return undefined;
    }
  }

  /**
   * The view appears only once a search runs: a collapsed view's header would still take rows
   * from the Task view above it (the sidebar e2e check measures them).
   */
  private async reveal(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'sweci.candidatesShown', true);
    await vscode.commands.executeCommand('sweci.candidates.focus');
  }

  /** The open folder's repository when there is one; otherwise (or on request) a picked folder. */
  private async chooseRepository(): Promise<string | undefined> {
    const open = vscode.workspace.workspaceFolders?.[0]?.uri;
    const top = open?.scheme === 'file' ? await repoTopLevel(open.fsPath).catch(() => undefined) : undefined;
    if (top) {
      const other = vscode.l10n.t('$(folder) Another repository…');
      const choice = await vscode.window.showQuickPick([{ label: `$(repo) ${top}`, dir: top }, { label: other }], {
        title: vscode.l10n.t('SWE-CI: Find Tasks in which repository?'),
      });
      if (!choice) return undefined;
      if ('dir' in choice) return choice.dir;
    }
    const picked = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose a local git repository to find tasks in'),
      openLabel: vscode.l10n.t('Find Tasks'),
      lastKey: LAST_REPO,
      check: (dir) => repoTopLevel(dir),
    });
    return picked?.value;
  }
}
