// The run history of app/code lives in a bare repository the harness owns, `.sweci/history.git`,
// with app/code as its work tree. The harness's git reads only that repository and its own
// config: whatever an agent does to app/code/.git (hooks, filters, textconv, deleting it, gc)
// can neither run code in the harness nor lose an iteration. app/code/.git is the working
// repository agents and people use; it is rebuilt from the store (working-repo.ts).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { emptyFolder } from '../util/discard';
import { UserError } from '../util/errors';
import { gitAt, gitRunner, type GitRunner } from '../util/git';
import { CODE_BASE_BRANCH } from './layout';
import type { TaskFolder } from './task-folder';

export const SWECI_AUTHOR_NAME = 'SWE-CI';
export const SWECI_AUTHOR_EMAIL = 'sweci@localhost';

/** Kept out of commits without adding a .gitignore to the agent's tree. */
export const HISTORY_EXCLUDES = ['__pycache__/', '*.py[cod]', '.pytest_cache/', '*.egg-info/', '.coverage'];

/**
 * `info/attributes` outranks every .gitattributes in the tree: whatever the agent's files say,
 * the harness's git commits, diffs and checks out bytes as they are (no filter, no line-ending
 * or encoding conversion, no keyword expansion, no custom diff driver).
 */
const NEUTRAL_ATTRIBUTES = '* !text !eol !crlf !filter !ident !diff !merge !working-tree-encoding !export-ignore !export-subst\n';

const IDENTITY = {
  GIT_AUTHOR_NAME: SWECI_AUTHOR_NAME,
  GIT_AUTHOR_EMAIL: SWECI_AUTHOR_EMAIL,
  GIT_COMMITTER_NAME: SWECI_AUTHOR_NAME,
  GIT_COMMITTER_EMAIL: SWECI_AUTHOR_EMAIL,
};

/**
 * `git commit` and `git fetch` start `git maintenance run --auto` before they exit, a process of
 * its own each time. The store never collects garbage on its own (gc.auto 0, set at its making)
 * and app/code/.git is made again every iteration: that check can only ever say no.
 */
export const NO_AUTO_MAINTENANCE = ['maintenance.auto=false'];

export interface HistoryGitOptions {
  signal?: AbortSignal;
  env?: Readonly<Record<string, string>>;
}

/**
 * git on the task's store, with app/code as the work tree (its `.git` is never read: git skips any
 * entry named `.git`), spawned directly (gitRunner: simple-git waits 50 ms after each silent git).
 */
export function historyRunner(task: TaskFolder, options: HistoryGitOptions = {}): GitRunner {
  return gitRunner(task.codeDir, {
    signal: options.signal,
    config: NO_AUTO_MAINTENANCE,
    env: { ...IDENTITY, GIT_DIR: task.historyDir, GIT_WORK_TREE: task.codeDir, ...options.env },
  });
}

/** The store's HEAD, read from its files. */
export interface StoreHead {
  sha: string;
  /** e.g. refs/heads/sweci/run-1. */
  ref: string;
}

/**
 * HEAD read from the store's own files, without a git process: a branch with a loose ref (how
 * git leaves a branch it has just committed to). Anything else (packed refs, a detached HEAD,
 * another ref format, an unborn branch) gives undefined, left to git.
 */
export async function readStoreHead(historyDir: string): Promise<StoreHead | undefined> {
  const head = await fs.readFile(path.join(historyDir, 'HEAD'), 'utf8').catch(() => '');
  const ref = /^ref: (refs\/heads\/[^\s]+)\n?$/.exec(head)?.[1];
  if (!ref || ref.split('/').some((seg) => seg === '..' || seg === '.' || seg === '')) return undefined;
  const sha = (await fs.readFile(path.join(historyDir, ...ref.split('/')), 'utf8').catch(() => '')).trim();
  return /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(sha) ? { sha, ref } : undefined;
}

async function isDir(p: string): Promise<boolean> {
  return (await fs.lstat(p).catch(() => undefined))?.isDirectory() ?? false;
}

/** An empty store at `storeDir`: no templates (so no hooks), fixed config, the excludes. */
async function initStore(storeDir: string, branch: string, signal?: AbortSignal): Promise<void> {
  await fs.mkdir(path.dirname(storeDir), { recursive: true });
  // `--template=` (empty) copies nothing: a global init.templateDir cannot inject hooks.
  // Spawned directly (gitRunner): simple-git waits 50 ms after each git that prints nothing.
  await gitRunner(path.dirname(storeDir), { signal }).raw(['init', '--quiet', '--bare', '--template=', `--initial-branch=${branch}`, storeDir]);
  const git = gitRunner(path.dirname(storeDir), { signal, env: { GIT_DIR: storeDir } });
  // gc.auto 0: the harness never prunes on its own; history is kept whole.
  for (const [key, value] of [
    ['core.autocrlf', 'false'],
    ['commit.gpgsign', 'false'],
    ['gc.auto', '0'],
  ]) {
    await git.raw(['config', '--local', key, value]);
  }
  await fs.mkdir(path.join(storeDir, 'info'), { recursive: true });
  await fs.writeFile(path.join(storeDir, 'info', 'exclude'), HISTORY_EXCLUDES.join('\n') + '\n');
  await fs.writeFile(path.join(storeDir, 'info', 'attributes'), NEUTRAL_ATTRIBUTES);
}

/**
 * Creates the store and commits every file of app/code as its first commit, on `main`. `date`
 * (ISO) makes the sha reproducible. Returns the sha. app/code/.git is not made here (see
 * rebuildWorkingRepo).
 */
export async function createHistory(task: TaskFolder, message: string, date: string, signal?: AbortSignal): Promise<string> {
  await initStore(task.historyDir, CODE_BASE_BRANCH, signal);
  const git = historyRunner(task, { signal, env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  // --force: commit exactly what is on disk, even files a nested .gitignore would skip.
  await git.raw(['add', '--all', '--force', '--', '.']);
  await git.raw(['commit', '--quiet', '--no-verify', '--allow-empty', '-m', message]);
  return (await git.raw(['rev-parse', 'HEAD'])).trim();
}

/**
 * Makes sure the store exists. A task checked out before the store existed has its history in
 * app/code/.git: that is copied into a new store once (a fetch, which runs none of the
 * repository's hooks or filters). Without either, the history is lost: say so.
 */
export async function ensureHistory(task: TaskFolder, signal?: AbortSignal): Promise<void> {
  const { historyDir, codeDir } = task;
  if (await isDir(path.join(historyDir, 'objects'))) return;
  const legacy = path.join(codeDir, '.git');
  const head = await fs.readFile(path.join(legacy, 'HEAD'), 'utf8').catch(() => undefined);
  const branch = /^ref: refs\/heads\/(\S+)\s*$/.exec(head ?? '')?.[1];
  if (!branch) {
    throw new UserError(
      `The run history of ${task.root} is missing (${historyDir} does not exist, and app/code/.git cannot stand in for it). Check the task out again into a new folder.`,
    );
  }
  // Built aside and renamed into place: a store that exists is complete.
  const staging = `${historyDir}.tmp`;
  await fs.rm(staging, { recursive: true, force: true });
  try {
    await initStore(staging, branch, signal);
    const git = gitAt(codeDir, { signal, env: { GIT_DIR: staging, GIT_WORK_TREE: codeDir } });
    await git.raw(['fetch', '--quiet', '--no-tags', '--', legacy, '+refs/heads/*:refs/heads/*']);
    // The store's index says what app/code holds: the branch's commit, files as they are now.
    await git.raw(['read-tree', 'HEAD']);
    await fs.rename(staging, historyDir);
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** git writing into `dest` from the store (no work tree of an agent's is read). */
function exportRunner(task: TaskFolder, dest: string, signal?: AbortSignal, index?: string): GitRunner {
  const env = { GIT_DIR: task.historyDir, GIT_WORK_TREE: dest, ...(index ? { GIT_INDEX_FILE: index } : {}) };
  return gitRunner(dest, { signal, env });
}

/**
 * `dest` becomes exactly the tree of `commit`: no ignored, untracked or generated file of app/code
 * comes along. The folder itself is kept (emptied, then filled), so a container made ahead for it
 * still sees it.
 */
export async function exportCommit(task: TaskFolder, commit: string, dest: string, signal?: AbortSignal): Promise<void> {
  // The last run's files are moved aside in one rename each and deleted in the background.
  await emptyFolder(dest, task.discardDir);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-index-'));
  try {
    // One process, with a throwaway index: the store's own stays.
    await exportRunner(task, dest, signal, path.join(scratch, 'index')).raw(['checkout', '--force', commit, '--', '.']);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `dest` becomes exactly the tree the store's index holds, emptied first like exportCommit. For the
 * commit being made from that index: one process that only reads the index (no index of its own
 * to write), so it runs beside `git commit`.
 */
export async function exportIndex(task: TaskFolder, dest: string, signal?: AbortSignal): Promise<void> {
  await emptyFolder(dest, task.discardDir);
  await exportRunner(task, dest, signal).raw(['checkout-index', '--all', '--force']);
}
