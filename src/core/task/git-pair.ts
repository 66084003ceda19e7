// A task from any local git repository and two refs: base (c0) and target (c*).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError, errorMessage } from '../util/errors';
import { gitAt } from '../util/git';
import { resolveCommit } from './git-refs';
import { slugForId } from './task-id';
import type { TaskSpec } from './task-spec';

export interface GitPairOptions {
  signal?: AbortSignal;
}

/** `owner/name` from a remote URL of a GitHub-like host, when it has that shape. */
function repoNameFromRemote(url: string): string | undefined {
  const m = /[:/]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The work tree holding `repoPath`, or a UserError saying it is not a git repository. */
export async function repoTopLevel(repoPath: string, signal?: AbortSignal): Promise<string> {
  try {
    const st = await fs.stat(repoPath);
    if (!st.isDirectory()) throw new Error('not a folder');
    const top = (await gitAt(repoPath, { signal, userConfig: true }).raw(['rev-parse', '--show-toplevel'])).trim();
    if (!top) throw new Error('no work tree');
    return top;
  } catch (err) {
    throw new UserError(`${repoPath} is not a git repository with a work tree. Choose the folder of a local git clone.`, {
      detail: errorMessage(err),
      cause: err,
    });
  }
}

/**
 * Builds a TaskSpec from a local repository and two refs. The id is `<repo folder>-<base7>-<target7>`;
 * dates are the commits' committer dates; the expected gap is unknown until the first run.
 */
export async function taskFromGitPair(repoPath: string, baseRef: string, targetRef: string, options: GitPairOptions = {}): Promise<TaskSpec> {
  const top = await repoTopLevel(path.resolve(repoPath), options.signal);
  const baseSha = await resolveCommit(top, baseRef, { what: 'base ref', signal: options.signal, userConfig: true });
  const targetSha = await resolveCommit(top, targetRef, { what: 'target ref', signal: options.signal, userConfig: true });
  if (baseSha === targetSha) {
    throw new UserError(
      `The base "${baseRef}" and the target "${targetRef}" are the same commit (${baseSha.slice(0, 12)}). Choose a target that comes after the base.`,
    );
  }
  const git = gitAt(top, { signal: options.signal, userConfig: true });
  const dateOf = async (sha: string): Promise<string> => (await git.raw(['show', '-s', '--format=%cI', sha])).trim();
  const spec: TaskSpec = {
    id: `${slugForId(path.basename(top))}-${baseSha.slice(0, 7)}-${targetSha.slice(0, 7)}`,
    baseSha,
    targetSha,
    baseDate: await dateOf(baseSha),
    targetDate: await dateOf(targetSha),
    source: { kind: 'git', repoPath: top, baseRef, targetRef },
  };
  try {
    const url = (await git.raw(['config', '--get', 'remote.origin.url'])).trim();
    const name = url ? repoNameFromRemote(url) : undefined;
    if (name) spec.repo = name;
  } catch {
    // No origin remote: the repo name stays unknown.
  }
  return spec;
}
