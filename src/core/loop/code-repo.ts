// The git side of the loop in app/code: one branch per run (sweci/<run>), one commit per
// iteration, diffs between iterations, and putting the tree back after an agent's failed try.
import type { SimpleGit } from 'simple-git';
import { gitAt } from '../util/git';
import { SWECI_AUTHOR_EMAIL, SWECI_AUTHOR_NAME } from '../workspace/fresh-repo';

/**
 * QUIET_COST: simple-git waits an extra 50 ms after a git process that printed nothing (in case
 * output is late). The per-iteration commands are therefore run in forms that always print.
 */
const IDENTITY = {
  GIT_AUTHOR_NAME: SWECI_AUTHOR_NAME,
  GIT_AUTHOR_EMAIL: SWECI_AUTHOR_EMAIL,
  GIT_COMMITTER_NAME: SWECI_AUTHOR_NAME,
  GIT_COMMITTER_EMAIL: SWECI_AUTHOR_EMAIL,
};

export interface HeadInfo {
  sha: string;
  /** e.g. refs/heads/sweci/run-1; undefined when HEAD is detached. */
  ref?: string;
}

export class CodeRepo {
  private readonly git: SimpleGit;

  constructor(
    readonly codeDir: string,
    signal?: AbortSignal,
  ) {
    this.git = gitAt(codeDir, { signal, env: IDENTITY });
  }

  async head(): Promise<HeadInfo> {
    // One process for both: the sha, then the symbolic name ("HEAD" when detached).
    const [sha, ref] = (await this.git.raw(['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'])).trim().split('\n');
    return { sha, ref: ref && ref.startsWith('refs/') ? ref : undefined };
  }

  async branchSha(branch: string): Promise<string | undefined> {
    try {
      return (await this.git.raw(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Paths changed, added or deleted against HEAD (untracked files included, ignored ones not). */
  async changedPaths(): Promise<string[]> {
    // --branch: the "## <branch>" header makes git always print something (see QUIET_COST).
    const out = await this.git.raw(['status', '--porcelain', '-z', '--branch', '--no-renames', '--untracked-files=all']);
    return out
      .split('\0')
      .filter((e) => e.length > 3 && !e.startsWith('## '))
      .map((e) => e.slice(3))
      .sort();
  }

  async createBranch(branch: string, from: string): Promise<void> {
    await this.git.raw(['branch', '--no-track', branch, from]);
  }

  /** Switches to `branch`; the caller made sure nothing uncommitted is in the way. */
  async checkout(branch: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', branch, '--']);
  }

  /**
   * Points HEAD at `branch` = `commit` again without touching the working tree: an agent that
   * committed or switched branches leaves its files, but the run's history stays ours.
   */
  async reattach(branch: string, commit: string): Promise<void> {
    await this.git.raw(['update-ref', `refs/heads/${branch}`, commit]);
    await this.git.raw(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    await this.git.raw(['reset', '--quiet', '--mixed', commit]);
  }

  /**
   * `branch` = `commit`, checked out, with the working tree exactly that commit: tracked files
   * reset, untracked ones removed (ignored ones, like caches, stay). Whatever branch HEAD was on.
   */
  async resetTo(branch: string, commit: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '-B', branch, commit, '--']);
    await this.git.raw(['clean', '-d', '--force', '--quiet']);
  }

  /**
   * Commits everything in the working tree (respecting ignore rules), even when nothing changed.
   * Returns the commit and the paths it changed.
   */
  async commitAll(message: string): Promise<{ sha: string; changed: string[] }> {
    const changed = await this.changedPaths();
    // --verbose / no --quiet: git prints, so simple-git does not wait (see QUIET_COST).
    if (changed.length > 0) await this.git.raw(['add', '--all', '--verbose', '--', '.']);
    await this.git.raw(['commit', '--no-verify', '--allow-empty', '-m', message]);
    return { sha: (await this.git.raw(['rev-parse', 'HEAD'])).trim(), changed };
  }

  async subject(commit: string): Promise<string> {
    return (await this.git.raw(['show', '-s', '--format=%s', commit])).trim();
  }

  async parent(commit: string): Promise<string | undefined> {
    try {
      return (await this.git.raw(['rev-parse', '--verify', '--quiet', `${commit}^`])).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  async diff(from: string, to: string): Promise<string> {
    return this.git.raw(['diff', '--no-color', '--no-ext-diff', '--binary', from, to, '--']);
  }
}
