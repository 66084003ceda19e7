// Getting the upstream repository into the oracle, and exporting trees from it.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { safeUnzip, type SafeUnzipOptions } from '../task/safe-unzip';
import type { TaskSpec } from '../task/task-spec';
import { UserError, errorMessage, throwIfAborted } from '../util/errors';
import { gitAt, gitRunner } from '../util/git';

async function isDir(p: string): Promise<boolean> {
  try {
    return (await fs.lstat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** The repository inside an unpacked code.zip: its top level, or its single top folder. */
export async function findRepoRoot(unpacked: string, zipPath: string): Promise<string> {
  if (await isDir(path.join(unpacked, '.git'))) return unpacked;
  const entries = (await fs.readdir(unpacked, { withFileTypes: true })).filter((e) => e.name !== '__MACOSX');
  if (entries.length === 1 && entries[0].isDirectory()) {
    const inner = path.join(unpacked, entries[0].name);
    if (await isDir(path.join(inner, '.git'))) return inner;
  }
  throw new UserError(
    `${zipPath} does not contain a git repository (no .git folder at its top level or in its single top folder). Re-download the task; code.zip must hold the repository with its history.`,
  );
}

/**
 * Makes `upstreamDir` a bare clone of the task's repository. A dataset's code.zip is unpacked into
 * `scratchDir` first (a folder that must not exist; removed afterwards). Cloning, rather than using
 * the unpacked repository directly, leaves its config and hooks behind: they come from a download.
 */
export async function cloneUpstream(
  spec: TaskSpec,
  upstreamDir: string,
  scratchDir: string,
  options: { signal?: AbortSignal; onProgress?: (message: string) => void; unzip?: SafeUnzipOptions } = {},
): Promise<void> {
  const progress = options.onProgress ?? (() => undefined);
  let source: string;
  let sourceName: string;
  if (spec.source.kind === 'dataset') {
    const zipPath = spec.source.zipPath;
    sourceName = zipPath;
    progress(`Unpacking ${path.basename(path.dirname(zipPath))}/code.zip`);
    await safeUnzip(zipPath, scratchDir, { ...options.unzip, signal: options.signal });
    source = await findRepoRoot(scratchDir, zipPath);
    // Alternates or a commondir would make git read objects from paths the archive chose.
    for (const rel of ['objects/info/alternates', 'objects/info/http-alternates', 'commondir']) {
      await fs.rm(path.join(source, '.git', rel), { force: true });
    }
  } else {
    source = path.resolve(spec.source.repoPath);
    sourceName = source;
    progress(`Copying the history of ${source}`);
  }
  throwIfAborted(options.signal);
  try {
    // A local clone copies every object (reachable or not), so dataset shas on no branch survive.
    // A git pair's source is the user's own repository (their config applies, e.g. safe.directory).
    await gitAt(path.dirname(upstreamDir), { signal: options.signal, userConfig: spec.source.kind !== 'dataset' }).raw([
      'clone',
      '--bare',
      '--no-hardlinks',
      '--quiet',
      '--',
      source,
      upstreamDir,
    ]);
  } catch (err) {
    throwIfAborted(options.signal);
    throw new UserError(`Could not copy the git repository from ${sourceName} (${errorMessage(err).trim()}). Check that it is a complete git repository.`, {
      detail: errorMessage(err),
      cause: err,
    });
  } finally {
    if (spec.source.kind === 'dataset') await fs.rm(scratchDir, { recursive: true, force: true });
  }
}

/**
 * Writes the tree of `sha` from the (bare) repository `gitDir` into `dest` the way a checkout
 * would (filters and line-ending attributes apply), using a throwaway index so `gitDir` is untouched.
 */
export async function exportTree(gitDir: string, sha: string, dest: string, signal?: AbortSignal): Promise<void> {
  await fs.mkdir(dest, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-index-'));
  try {
    // Spawned directly (gitRunner): simple-git waits 50 ms after each of these silent gits.
    const git = gitRunner(gitDir, { signal, env: { GIT_INDEX_FILE: path.join(scratch, 'index'), GIT_WORK_TREE: dest } });
    await git.raw(['read-tree', sha]);
    await git.raw(['checkout-index', '--all', '--force']);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** Deletes top-level entries of `dir` that match: names starting with `.git`, plus `names`. */
export async function pruneTopLevel(dir: string, names: readonly string[]): Promise<void> {
  for (const e of await fs.readdir(dir)) {
    if (e.startsWith('.git') || names.includes(e)) await fs.rm(path.join(dir, e), { recursive: true, force: true });
  }
}
