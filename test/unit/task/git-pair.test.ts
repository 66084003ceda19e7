import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { taskFromGitPair } from '../../../src/core/task/git-pair';
import { UserError } from '../../../src/core/util/errors';
import { TestRepo, git } from './git-fixture';

let tmp: string;
let repo: TestRepo;
let base: string;
let target: string;

describe('taskFromGitPair', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-pair-'));
    repo = await TestRepo.create(path.join(tmp, 'my lib'));
    base = await repo.commit('base', { 'src/a.py': 'A = 1\n' });
    await repo.commit('middle', { 'src/a.py': 'A = 2\n' });
    target = await repo.commit('target', { 'src/a.py': 'A = 3\n' });
    git(repo.dir, ['tag', 'v0', base]);
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('builds a git TaskSpec with full shas, id and commit dates', async () => {
    const spec = await taskFromGitPair(repo.dir, 'v0', 'main');
    assert.equal(spec.baseSha, base);
    assert.equal(spec.targetSha, target);
    assert.equal(spec.id, `my-lib-${base.slice(0, 7)}-${target.slice(0, 7)}`);
    assert.equal(spec.baseDate, '2024-01-01T12:00:00+00:00');
    assert.equal(spec.targetDate, '2024-01-03T12:00:00+00:00');
    assert.equal(spec.expectedGap, undefined);
    assert.equal(spec.repo, undefined);
    assert.deepEqual(spec.source, { kind: 'git', repoPath: await fs.realpath(repo.dir), baseRef: 'v0', targetRef: 'main' });
  });

  test('a subfolder resolves to the repository top level; origin gives the repo name', async () => {
    git(repo.dir, ['remote', 'add', 'origin', 'git@github.com:acme/my-lib.git']);
    try {
      const spec = await taskFromGitPair(path.join(repo.dir, 'src'), base, target);
      assert.equal(spec.source.kind === 'git' && spec.source.repoPath, await fs.realpath(repo.dir));
      assert.equal(spec.repo, 'acme/my-lib');
    } finally {
      git(repo.dir, ['remote', 'remove', 'origin']);
    }
  });

  test('refuses base == target, unknown refs, option-like refs and non-repos', async () => {
    await assert.rejects(taskFromGitPair(repo.dir, 'main', target), /are the same commit/);
    await assert.rejects(taskFromGitPair(repo.dir, 'nope', 'main'), /base ref "nope" is not a commit/);
    await assert.rejects(taskFromGitPair(repo.dir, base, '--upload-pack=x'), /target ref.*starts with "-"/);
    const plain = path.join(tmp, 'plain');
    await fs.mkdir(plain);
    await assert.rejects(taskFromGitPair(plain, 'a', 'b'), (err: unknown) => err instanceof UserError && /not a git repository/.test(err.message));
    await assert.rejects(taskFromGitPair(path.join(tmp, 'missing'), 'a', 'b'), /not a git repository/);
  });

  test('repo names from remotes', async () => {
    /** The task's repo name when the origin remote has this URL. */
    const repoNameFromRemote = async (url: string): Promise<string | undefined> => {
      git(repo.dir, ['remote', 'add', 'origin', url]);
      try {
        return (await taskFromGitPair(repo.dir, base, target)).repo;
      } finally {
        git(repo.dir, ['remote', 'remove', 'origin']);
      }
    };
    assert.equal(await repoNameFromRemote('https://github.com/psf/requests.git'), 'psf/requests');
    assert.equal(await repoNameFromRemote('git@github.com:psf/requests'), 'psf/requests');
    assert.equal(await repoNameFromRemote('https://gitlab.example.com/g/sub/proj/'), 'sub/proj');
  });
});
