// The repository a curation reads: a local clone, or a clone URL cloned once (bare) into the
// output folder. Refuses what cannot give the whole first-parent history.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { gitRunner } from '../util/git';
import { UserError, errorMessage } from '../util/errors';

export interface SourceRepository {
  /** The folder git runs in. */
  dir: string;
  /** The ref mined, as the user named it or as resolved (origin/HEAD, else HEAD). */
  ref: string;
  /** What the user gave: an absolute path or the URL. */
  origin: string;
}

export function isCloneUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s) || /^[^/\s]+@[^:\s]+:/.test(s);
}

/** Opens (or for a URL, clones into `cacheDir`) the repository and resolves the branch to mine. */
export async function openSourceRepository(
  source: string,
  branch: string | undefined,
  cacheDir: string | undefined,
  signal?: AbortSignal,
): Promise<SourceRepository> {
  let dir: string;
  let origin: string;
  if (isCloneUrl(source)) {
    if (!cacheDir) throw new UserError(`To curate ${source}, give --out: the clone is kept there.`);
    origin = source;
    dir = path.join(cacheDir, 'source.git');
    if (!existsSync(dir)) {
      await fs.mkdir(cacheDir, { recursive: true });
      const tmp = `${dir}.partial`;
      await fs.rm(tmp, { recursive: true, force: true });
      try {
        await gitRunner(cacheDir, { signal }).raw(['clone', '--bare', '--quiet', '--', source, tmp]);
      } catch (err) {
        throw new UserError(`Cannot clone ${source}. Check the URL and that this machine reaches it, or clone it yourself and give the folder.`, {
          detail: errorMessage(err),
          cause: err,
        });
      }
      await fs.rename(tmp, dir);
    }
  } else {
    dir = path.resolve(source);
    origin = dir;
    if (!existsSync(dir)) throw new UserError(`${dir} does not exist. Give the folder of a git repository or a clone URL.`);
  }
  const git = gitRunner(dir, { signal });
  try {
    await git.raw(['rev-parse', '--git-dir']);
  } catch (err) {
    throw new UserError(`${dir} is not a git repository. Give the folder of a clone (or a clone URL): curation reads its history.`, {
      detail: errorMessage(err),
      cause: err,
    });
  }
  if ((await git.raw(['rev-parse', '--is-shallow-repository'])).trim() === 'true') {
    throw new UserError(
      `${dir} is a shallow clone: its early history is missing, and spans need all of it. Fetch the rest with \`git -C ${dir} fetch --unshallow\`, then run again.`,
    );
  }
  if (branch !== undefined && (branch.startsWith('-') || branch.trim() === '')) {
    throw new UserError(`--branch "${branch}" is not a branch name. Give a branch of the repository, e.g. --branch main.`);
  }
  let ref = branch;
  if (ref === undefined) {
    const originHead = await git.raw(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']).catch(() => '');
    ref = originHead.trim() !== '' ? originHead.trim().replace(/^refs\/remotes\//, '') : 'HEAD';
  }
  try {
    await git.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  } catch (err) {
    throw new UserError(
      branch === undefined
        ? `${dir} has no commits yet. Curate a repository with history.`
        : `No branch or commit "${branch}" in ${dir}. Give --branch an existing branch (git -C ${dir} branch -a lists them).`,
      { detail: errorMessage(err), cause: err },
    );
  }
  return { dir, ref, origin };
}
