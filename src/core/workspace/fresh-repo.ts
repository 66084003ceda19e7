// app/code becomes a brand-new repository: the upstream history (which contains the target) must
// not be reachable from the agent's workspace.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { gitAt } from '../util/git';
import { CODE_BASE_BRANCH } from './layout';

export const SWECI_AUTHOR_NAME = 'SWE-CI';
export const SWECI_AUTHOR_EMAIL = 'sweci@localhost';

// Kept out of iteration commits without adding a .gitignore to the agent's tree.
const EXCLUDES = ['__pycache__/', '*.py[cod]', '.pytest_cache/', '*.egg-info/', '.coverage'];

/**
 * `git init`s `codeDir` (no templates, so no hooks), sets a fixed local identity, and commits every
 * file present as one commit. `date` (ISO) makes the commit sha reproducible. Returns the sha.
 */
export async function initFreshRepo(codeDir: string, message: string, date: string, signal?: AbortSignal): Promise<string> {
  // `--template=` (empty) copies nothing: a global init.templateDir cannot inject hooks.
  await gitAt(codeDir, { signal, unsafe: { allowUnsafeTemplateDir: true } }).raw([
    'init', '--quiet', '--template=', `--initial-branch=${CODE_BASE_BRANCH}`,
  ]);
  const git = gitAt(codeDir, { signal, env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  for (const [key, value] of [
    ['user.name', SWECI_AUTHOR_NAME],
    ['user.email', SWECI_AUTHOR_EMAIL],
    ['core.autocrlf', 'false'],
    ['commit.gpgsign', 'false'],
  ]) {
    await git.raw(['config', '--local', key, value]);
  }
  await fs.mkdir(path.join(codeDir, '.git', 'info'), { recursive: true });
  await fs.writeFile(path.join(codeDir, '.git', 'info', 'exclude'), EXCLUDES.join('\n') + '\n');
  // --force: commit exactly what is on disk, even files a nested .gitignore would skip.
  await git.raw(['add', '--all', '--force', '--', '.']);
  await git.raw(['commit', '--quiet', '--no-verify', '--allow-empty', '-m', message]);
  return (await git.raw(['rev-parse', 'HEAD'])).trim();
}
