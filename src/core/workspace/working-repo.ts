// app/code/.git, the repository agents and people work with, is a disposable copy: rebuilt from
// the history store with only the branch app/code is on, our config, no hooks, and an index that
// matches that branch. Whatever an agent did to the old one (planted hooks, filters or
// aliases, deleted or rewritten it, switched branches) is gone, and no other run's branch is
// there to read.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { gitRunner } from '../util/git';
import { HISTORY_EXCLUDES, NO_AUTO_MAINTENANCE, SWECI_AUTHOR_EMAIL, SWECI_AUTHOR_NAME, historyRunner, readStoreHead, type StoreHead } from './history-store';
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

/**
 * What `git init --bare --template=` wrote into a task's .sweci, config included (git probes the
 * file system for it: filemode, symlinks, case), kept per .sweci folder for this process: a
 * rebuild after the first writes the same few files itself instead of starting git (the loop
 * rebuilds once per iteration).
 */
const probedConfig = new Map<string, string>();

/** An empty bare repository at `staging` on `branch`; returns the config git probed. */
async function initStaging(sweciDir: string, staging: string, branch: string, signal?: AbortSignal): Promise<string> {
  const known = probedConfig.get(sweciDir);
  if (known !== undefined) {
    for (const dir of [
      ['objects', 'info'],
      ['objects', 'pack'],
      ['refs', 'heads'],
      ['refs', 'tags'],
    ]) {
      await fs.mkdir(path.join(staging, ...dir), { recursive: true });
    }
    await fs.writeFile(path.join(staging, 'HEAD'), `ref: refs/heads/${branch}\n`);
    return known;
  }
  // `--template=` (empty): no hooks are copied in.
  await gitRunner(sweciDir, { signal }).raw(['init', '--bare', '--template=', `--initial-branch=${branch}`, staging]);
  const probed = await fs.readFile(path.join(staging, 'config'), 'utf8');
  probedConfig.set(sweciDir, probed);
  return probed;
}

export async function rebuildWorkingRepo(task: TaskFolder, signal?: AbortSignal): Promise<void> {
  const { codeDir, historyDir, sweciDir, workingGitStaging: staging } = task;
  // The store's HEAD from its files; git only when they are not the plain case.
  const head = await readStoreHead(historyDir);
  const ref = head?.ref ?? (await historyRunner(task, { signal }).raw(['symbolic-ref', '--quiet', 'HEAD'])).trim();
  const branch = ref.replace(/^refs\/heads\//, '');
  // Built in .sweci (out of the agent's reach while it runs), then moved in with one rename.
  await fs.rm(staging, { recursive: true, force: true });
  try {
    // One git process (two for a folder's first); the rest is plain files.
    const probed = await initStaging(sweciDir, staging, branch, signal);
    // git init probed the file system (filemode, symlinks); keep that, make it a working repo.
    const config = probed.replace(/^([ \t]*bare[ \t]*=[ \t]*)true[ \t]*$/m, '$1false');
    await fs.writeFile(path.join(staging, 'config'), config + WORKING_CONFIG);
    await fs.mkdir(path.join(staging, 'info'), { recursive: true });
    await fs.writeFile(path.join(staging, 'info', 'exclude'), HISTORY_EXCLUDES.join('\n') + '\n');
    if (head && !(await exists(path.join(historyDir, 'shallow')))) await packBranch(task, head, staging, signal);
    else {
      const git = gitRunner(codeDir, { signal, env: { GIT_DIR: staging, GIT_WORK_TREE: codeDir }, config: NO_AUTO_MAINTENANCE });
      // --update-head-ok: HEAD already names this (still unborn) branch.
      await git.raw(['fetch', '--no-tags', '--update-head-ok', '--', historyDir, `+${ref}:${ref}`]);
    }
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

/**
 * The branch's history as one pack written straight into `staging`, and its ref as a file: one
 * git process, where a fetch from the store starts seven (fetch, a shell, upload-pack,
 * pack-objects, unpack-objects or index-pack, rev-list, maintenance). The same objects (what the
 * branch reaches, nothing of another run) and the same ref; pack-objects writes the .idx itself.
 */
async function packBranch(task: TaskFolder, head: StoreHead, staging: string, signal?: AbortSignal): Promise<void> {
  const packDir = path.join(staging, 'objects', 'pack');
  await fs.mkdir(packDir, { recursive: true });
  await historyRunner(task, { signal }).raw(['pack-objects', '--revs', '--delta-base-offset', '-q', path.join(packDir, 'pack')], `${head.sha}\n`);
  const refFile = path.join(staging, ...head.ref.split('/'));
  await fs.mkdir(path.dirname(refFile), { recursive: true });
  await fs.writeFile(refFile, `${head.sha}\n`);
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
