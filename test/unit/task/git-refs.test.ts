import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveCommit } from '../../../src/core/task/git-refs';
import { UserError } from '../../../src/core/util/errors';
import { TestRepo, git } from './git-fixture';

let tmp: string;

/** Why resolveCommit refuses `ref` as malformed, before asking git; undefined when it is not refused as such. */
async function refProblem(ref: string): Promise<string | undefined> {
  try {
    await resolveCommit(repo.dir, ref);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof UserError, String(err));
    return /is not a valid git ref or commit sha/.test(err.message) ? err.message : undefined;
  }
}
let repo: TestRepo;
let first: string;
let second: string;

describe('git refs', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-refs-'));
    repo = await TestRepo.create(path.join(tmp, 'repo'));
    first = await repo.commit('first', { 'a.txt': 'a' });
    git(repo.dir, ['tag', 'v1.0']);
    git(repo.dir, ['tag', '-a', '-m', 'annotated', 'v1.0-ann']);
    second = await repo.commit('second', { 'a.txt': 'b' });
    git(repo.dir, ['branch', 'feature/x']);
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('refuses option-like and malformed refs, and revision syntax other than ~N/^N suffixes', async () => {
    for (const bad of [
      '--upload-pack=x',
      '-x',
      '-x~1',
      '~1',
      '^',
      '',
      'a b',
      'a\tb',
      'a\nb',
      'a..b',
      'a..b~1',
      'x@{1}',
      '@',
      'a~b',
      'a^{tree}',
      'a:b',
      'a?',
      'a*',
      'a[',
      'a\\b',
      '/a',
      'a/',
      'a//b',
      'a.',
      '.a',
      'a/.b',
      'a.lock',
      'x\u0001',
    ]) {
      assert.ok(await refProblem(bad), `should refuse ${JSON.stringify(bad)}`);
    }
    for (const good of ['main', 'feature/x', 'v1.0', 'HEAD', 'HEAD~1', 'HEAD~', 'main^', 'v1.0^2~3', first, first.slice(0, 7), 'release-2024_01']) {
      assert.equal(await refProblem(good), undefined, good);
    }
  });

  test('option-like refs never reach git', async () => {
    for (const bad of ['--upload-pack=x', '-x', '--output=/tmp/pwned']) {
      await assert.rejects(resolveCommit(repo.dir, bad), (err: unknown) => {
        assert.ok(err instanceof UserError);
        assert.match(err.message, /starts with "-", so git would read it as an option/);
        return true;
      });
    }
  });

  test('resolves branches, tags, annotated tags, HEAD and short shas to full commit shas', async () => {
    assert.equal(await resolveCommit(repo.dir, 'main'), second);
    assert.equal(await resolveCommit(repo.dir, 'HEAD'), second);
    assert.equal(await resolveCommit(repo.dir, 'HEAD~1'), first, 'ancestry suffixes work');
    assert.equal(await resolveCommit(repo.dir, 'main^'), first);
    assert.equal(await resolveCommit(repo.dir, 'feature/x'), second);
    assert.equal(await resolveCommit(repo.dir, 'v1.0'), first);
    assert.equal(await resolveCommit(repo.dir, 'v1.0-ann'), first, 'peels the tag object to its commit');
    assert.equal(await resolveCommit(repo.dir, first.slice(0, 8)), first);
    assert.equal(await resolveCommit(repo.dir, first.toUpperCase().slice(0, 10).toLowerCase()), first);
  });

  test('unknown ref or sha names the repo and the ref', async () => {
    await assert.rejects(resolveCommit(repo.dir, 'deadbeefdeadbeef', { what: 'base sha' }), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.ok(err.message.includes('"deadbeefdeadbeef"'));
      assert.ok(err.message.includes(repo.dir));
      assert.match(err.message, /base sha/);
      return true;
    });
    await assert.rejects(resolveCommit(repo.dir, 'no-such-branch'), /"no-such-branch" is not a commit in/);
  });

  test('a folder that is not a repository', async () => {
    const plain = path.join(tmp, 'plain');
    await fs.mkdir(plain);
    await assert.rejects(resolveCommit(plain, 'main'), /is not a git repository/);
  });
});
