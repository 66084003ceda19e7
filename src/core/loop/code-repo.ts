// The git side of the loop: one branch per run (sweci/<run>), one commit per iteration, diffs
// between iterations, and putting the tree back after an agent's failed try. Everything goes
// through the task's history store (history-store.ts) with app/code as its work tree; the
// working repository app/code/.git is made again from it before anyone uses it (syncWorkingRepo).
import { lstatSync, promises as fs, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { GitRunner } from '../util/git';
import { treeSignature } from '../util/tree-signature';
import { ensureHistory, exportIndex, historyRunner, readStoreHead } from '../workspace/history-store';
import { rebuildWorkingRepo } from '../workspace/working-repo';
import type { TaskFolder } from '../workspace/task-folder';

/** Entries noneTooLarge looks at before it asks git instead. */
const WALK_AT_MOST = 20_000;

export interface HeadInfo {
  sha: string;
  /** e.g. refs/heads/sweci/run-1; undefined when HEAD is detached. */
  ref?: string;
}

export class CodeRepo {
  // Spawned directly: no 50 ms wait after a command that prints nothing (see gitRunner).
  private readonly git: GitRunner;
  readonly codeDir: string;
  /** app/code/.git's fingerprint right after we built it, while it matches the store's HEAD. */
  private built?: string;

  private constructor(
    readonly task: TaskFolder,
    private readonly signal?: AbortSignal,
  ) {
    this.codeDir = task.codeDir;
    this.git = historyRunner(task, { signal });
  }

  /** The task's code history (a task checked out before the store existed gets one now). */
  static async open(task: TaskFolder, signal?: AbortSignal): Promise<CodeRepo> {
    await ensureHistory(task, signal);
    return new CodeRepo(task, signal);
  }

  /**
   * app/code/.git as the store says: the current branch at its commit, nothing an agent planted.
   * Made again unless it is untouched since we made it and HEAD has not moved since.
   */
  async syncWorkingRepo(): Promise<void> {
    const dotGit = path.join(this.codeDir, '.git');
    if (this.built !== undefined && this.built === treeSignature(dotGit)) return;
    this.built = undefined;
    await rebuildWorkingRepo(this.task, this.signal);
    this.built = treeSignature(dotGit);
  }

  async head(): Promise<HeadInfo> {
    const read = await readStoreHead(this.task.historyDir);
    if (read) return read;
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
    this.built = undefined;
  }

  /**
   * Points HEAD at `branch` = `commit` again without touching the working tree (a step that was
   * interrupted keeps its files).
   */
  async reattach(branch: string, commit: string): Promise<void> {
    await this.git.raw(['update-ref', `refs/heads/${branch}`, commit]);
    await this.git.raw(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    await this.git.raw(['reset', '--quiet', '--mixed', commit]);
    this.built = undefined;
  }

  /**
   * `branch` = `commit`, checked out, with the working tree exactly that commit: tracked files
   * reset, untracked ones removed (ignored ones, like caches, stay; app/code/.git is left to
   * syncWorkingRepo). Whatever branch HEAD was on.
   */
  async resetTo(branch: string, commit: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '-B', branch, commit, '--']);
    await this.git.raw(['clean', '-d', '--force', '--quiet']);
    this.built = undefined;
  }

  /**
   * Commits everything in the working tree (respecting ignore rules), even when nothing changed,
   * except what is too large, which keeps its committed version (or stays out): a file larger
   * than `limits.file` bytes, and, once the changed files together pass `limits.total` bytes, the
   * largest ones that do not fit (the small ones, ordinary code, go in first). 0: no limit.
   * Returns the commit, the paths it changed (undefined when no file could be too large: then no
   * `git status` is asked) and the files left out. `exportTo`: that folder becomes exactly the
   * commit's tree too (see exportIndex), written while git commits.
   */
  async commitAll(
    message: string,
    limits: { file?: number; total?: number } = {},
    exportTo?: string,
  ): Promise<{ sha: string; changed?: string[]; oversized: string[] }> {
    const fileLimit = limits.file ?? 0;
    const totalLimit = limits.total ?? 0;
    const changed = this.noneTooLarge(fileLimit, totalLimit) ? undefined : await this.changedPaths();
    const oversized = changed ? await this.tooLarge(changed, fileLimit, totalLimit) : [];
    if (oversized.length > 0) {
      // Pathspecs from a file: any number of them, any characters in the names.
      const list = this.task.oversizedPathspec;
      await fs.writeFile(list, ['.', ...oversized.map((p) => `:(exclude,literal)${p}`)].join('\0'));
      try {
        await this.git.raw(['add', '--all', `--pathspec-from-file=${list}`, '--pathspec-file-nul']);
      } finally {
        await fs.rm(list, { force: true });
      }
    } else if (changed === undefined || changed.length > 0) await this.git.raw(['add', '--all', '--', '.']);
    // The index now holds the commit's tree, and `git commit` only reads it (no hook runs). --quiet:
    // no summary, whose diffstat nobody reads.
    const committing = this.git.raw(['commit', '--quiet', '--no-verify', '--allow-empty', '-m', message]);
    await bothSettled(committing, exportTo === undefined ? undefined : exportIndex(this.task, exportTo, this.signal));
    this.built = undefined;
    // Left out of the commit, and not left behind either (named in the line's `oversized`).
    if (oversized.length > 0) await this.dropFromWorkTree(oversized);
    return { sha: (await this.head()).sha, ...(changed ? { changed: changed.filter((p) => !oversized.includes(p)) } : {}), oversized };
  }

  /**
   * Whether no file in app/code can be too large, whatever changed: each file is under the file
   * limit and all of them together under the total, so the changed ones are too. Then the commit
   * needs no `git status` first (one process fewer between the Programmer and pytest). Every
   * file counts but `.git` entries (git never adds one), ignored ones included: an upper bound.
   * Synchronous: a few ms for a few thousand files, less than starting git under load; past
   * WALK_AT_MOST entries it stops and leaves it to git (an agent's million files must not hold
   * the editor's event loop).
   */
  private noneTooLarge(fileLimit: number, totalLimit: number): boolean {
    if (fileLimit <= 0 && totalLimit <= 0) return true;
    let total = 0;
    let entries = 0;
    const fits = (dir: string): boolean => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name === '.git') continue;
        if (++entries > WALK_AT_MOST) return false;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!fits(p)) return false;
        } else if (e.isFile()) {
          const size = lstatSync(p).size;
          total += size;
          if ((fileLimit > 0 && size > fileLimit) || (totalLimit > 0 && total > totalLimit)) return false;
        }
      }
      return true;
    };
    try {
      return fits(this.codeDir);
    } catch {
      return false; // something moved or cannot be read: git status and the sizes of what changed decide
    }
  }

  /** A tracked file gets its committed version back; a new one is removed. */
  private async dropFromWorkTree(rels: readonly string[]): Promise<void> {
    const tracked = new Set((await this.git.raw(['ls-tree', '-r', '-z', '--name-only', 'HEAD', '--'])).split('\0'));
    for (const rel of rels) {
      if (tracked.has(rel)) await this.git.raw(['checkout', 'HEAD', '--', `:(literal)${rel}`]);
      else await fs.rm(path.join(this.codeDir, rel), { force: true });
    }
  }

  private async tooLarge(changed: readonly string[], fileLimit: number, totalLimit: number): Promise<string[]> {
    if (fileLimit <= 0 && totalLimit <= 0) return [];
    const sizes: { rel: string; size: number }[] = [];
    for (const rel of changed) {
      const st = await fs.lstat(path.join(this.codeDir, rel)).catch(() => undefined);
      if (st?.isFile()) sizes.push({ rel, size: st.size });
    }
    const out = new Set(sizes.filter((f) => fileLimit > 0 && f.size > fileLimit).map((f) => f.rel));
    if (totalLimit > 0) {
      let total = 0;
      const bySize = sizes.filter((f) => !out.has(f.rel)).sort((a, b) => a.size - b.size || (a.rel < b.rel ? -1 : 1));
      for (const f of bySize) {
        if (total + f.size > totalLimit) out.add(f.rel);
        else total += f.size;
      }
    }
    return [...out].sort();
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

  /** Paths that differ between two commits (added, changed or deleted), sorted. */
  async changedBetween(from: string, to: string): Promise<string[]> {
    const out = await this.git.raw(['diff', '--name-only', '-z', '--no-renames', from, to, '--']);
    return out.split('\0').filter(Boolean).sort();
  }

  /** A file's text at `commit`; '' when the commit has no such file. */
  async fileAt(commit: string, rel: string): Promise<string> {
    try {
      return await this.git.raw(['cat-file', 'blob', `${commit}:${rel}`]);
    } catch {
      return '';
    }
  }

  /**
   * Writes `git diff from to` into `file` (git writes it; it is never one string here), cut at
   * `maxBytes` with a last line that says so and how to see the rest.
   */
  async diffToFile(from: string, to: string, file: string, maxBytes: number): Promise<void> {
    await this.git.raw(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--binary', `--output=${file}`, from, to, '--']);
    const size = (await fs.stat(file)).size;
    if (size <= maxBytes) return;
    await fs.truncate(file, maxBytes);
    await fs.appendFile(
      file,
      `\n# code.diff cut at ${maxBytes} of ${size} bytes; the whole diff: git --git-dir=.sweci/history.git diff ${from.slice(0, 12)} ${to.slice(0, 12)}\n`,
    );
  }
}

/** Waits for both (no git left writing), then fails with the first one's error. */
async function bothSettled(a: Promise<unknown>, b: Promise<unknown> | undefined): Promise<void> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
}
