// app/code/.git made again from the history store: the first time by `git init`, later from the
// files that init wrote (no git process). Both ways must give the same repository, one git can
// use, on the branch the store is on, with the store's commits and nothing else.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs, readdirSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { CodeRepo } from '../../../src/core/loop/code-repo';
import { createHistory } from '../../../src/core/workspace/history-store';
import { taskFolder } from '../../../src/core/workspace/task-folder';

const scratch: string[] = [];
after(async () => {
  for (const dir of scratch) await fs.rm(dir, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

/** The working repository's shape: every folder and every file but objects and the index. */
function shape(dotGit: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dotGit, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (/^objects\/[0-9a-f]{2}$/.test(r) || /^objects\/pack\/./.test(r) || r === 'index') continue;
      const dir = statSync(path.join(dotGit, r)).isDirectory();
      out.push(dir ? `${r}/` : r);
      if (dir) walk(r);
    }
  };
  walk('');
  return out;
}

async function newTask(): Promise<ReturnType<typeof taskFolder>> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-working-repo-')));
  scratch.push(root);
  const task = taskFolder(root);
  await fs.mkdir(task.codeDir, { recursive: true });
  await fs.writeFile(path.join(task.codeDir, 'a.py'), 'x = 1\n');
  await createHistory(task, 'base', '2024-01-01T00:00:00Z');
  return task;
}

test('a rebuild without git init gives the repository git init gave: same files, same config, HEAD on the store branch', async () => {
  const task = await newTask();
  const dotGit = path.join(task.codeDir, '.git');
  const repo = await CodeRepo.open(task);
  await repo.createBranch('sweci/run-1', 'main');
  await repo.checkout('sweci/run-1');
  await repo.syncWorkingRepo(); // this folder's first rebuild: git init
  const first = { shape: shape(dotGit), config: await fs.readFile(path.join(dotGit, 'config'), 'utf8') };
  assert.equal(await fs.readFile(path.join(dotGit, 'HEAD'), 'utf8'), 'ref: refs/heads/sweci/run-1\n');

  await fs.writeFile(path.join(task.codeDir, 'a.py'), 'x = 2\n');
  const { sha } = await repo.commitAll('iteration 1');
  await repo.syncWorkingRepo(); // written from the files init wrote
  assert.deepEqual(shape(dotGit), first.shape);
  assert.equal(await fs.readFile(path.join(dotGit, 'config'), 'utf8'), first.config);
  assert.equal(await fs.readFile(path.join(dotGit, 'HEAD'), 'utf8'), 'ref: refs/heads/sweci/run-1\n');
  // git works in it as in any repository: the new commit on the branch, a clean tree, whole objects.
  assert.equal(git(task.codeDir, 'rev-parse', 'HEAD').trim(), sha);
  assert.equal(git(task.codeDir, 'log', '--format=%s').trim(), 'iteration 1\nbase');
  assert.equal(git(task.codeDir, 'status', '--porcelain').trim(), '');
  git(task.codeDir, 'fsck', '--full', '--strict');
  // Only the run's branch is there (main stays in the store).
  assert.equal(git(task.codeDir, 'for-each-ref', '--format=%(refname)').trim(), 'refs/heads/sweci/run-1');
});

test('a store whose branch is packed (no loose ref file) still gives the working repository its branch', async () => {
  const task = await newTask();
  const repo = await CodeRepo.open(task);
  git(task.codeDir, `--git-dir=${task.historyDir}`, 'pack-refs', '--all');
  await assert.rejects(fs.access(path.join(task.historyDir, 'refs', 'heads', 'main')));
  await repo.syncWorkingRepo();
  assert.equal(git(task.codeDir, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main');
  assert.equal(git(task.codeDir, 'log', '--format=%s').trim(), 'base');
});
