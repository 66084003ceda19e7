// app/code/.git, the repository agents and people work with, is a disposable copy: rebuilt from
// the history store with only the branch app/code is on, our config, no hooks, and an index that
// matches that branch. Whatever an agent did to the old one (planted hooks, filters or
// aliases, deleted or rewritten it, switched branches) is gone, and no other run's branch is
// there to read.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { gitRunner } from '../util/git';
import { HISTORY_EXCLUDES, SWECI_AUTHOR_EMAIL, SWECI_AUTHOR_NAME, historyRunner } from './history-store';
import type { TaskFolder } from './task-folder';

const WORKING_CONFIG = [
  '[core]',
  '\tautocrlf = false',
  '[user]',
  `\tname = ${SWECI_AUTHOR_NAME}`,
  `\temail = ${SWECI_AUTHOR_EMAIL}`,
  '[commit]',
  '\tgpgsign = false',
  '',
].join('\n');

export async function rebuildWorkingRepo(task: TaskFolder, signal?: AbortSignal): Promise<void> {
  const { codeDir, historyDir, sweciDir, workingGitStaging: staging } = task;
  const ref = (await historyRunner(task, { signal }).raw(['symbolic-ref', '--quiet', 'HEAD'])).trim();
  const branch = ref.replace(/^refs\/heads\//, '');
  // Built in .sweci (out of the agent's reach while it runs), then moved in with one rename.
  await fs.rm(staging, { recursive: true, force: true });
  try {
    // Two git processes; the rest is plain files. `--template=` (empty): no hooks are copied in.
    await gitRunner(sweciDir, { signal }).raw(['init', '--bare', '--template=', `--initial-branch=${branch}`, staging]);
    // git init probed the file system (filemode, symlinks); keep that, make it a working repo.
    const config = (await fs.readFile(path.join(staging, 'config'), 'utf8')).replace(/^([ \t]*bare[ \t]*=[ \t]*)true[ \t]*$/m, '$1false');
    await fs.writeFile(path.join(staging, 'config'), config + WORKING_CONFIG);
    await fs.mkdir(path.join(staging, 'info'), { recursive: true });
    await fs.writeFile(path.join(staging, 'info', 'exclude'), HISTORY_EXCLUDES.join('\n') + '\n');
    const git = gitRunner(codeDir, { signal, env: { GIT_DIR: staging, GIT_WORK_TREE: codeDir } });
    // --update-head-ok: HEAD already names this (still unborn) branch.
    await git.raw(['fetch', '--no-tags', '--update-head-ok', '--', historyDir, `+${ref}:${ref}`]);
    // The store's index is this branch's commit with app/code's stat data (the harness never
    // leaves anything staged): `git status` in app/code shows what changed since the commit.
    await fs.copyFile(path.join(historyDir, 'index'), path.join(staging, 'index')).catch(() => undefined);
    const dotGit = path.join(codeDir, '.git');
    await fs.rm(dotGit, { recursive: true, force: true });
    await fs.rename(staging, dotGit);
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
