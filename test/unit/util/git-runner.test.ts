// git spawned directly (gitRunner): real git, the fixed config, errors and cancellation.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { gitRunner } from '../../../src/core/util/git';
import { isAbortError } from '../../../src/core/util/errors';

describe('gitRunner', () => {
  test("stdout comes back; the user's and the repository's hooks never run; a failing git rejects with its message", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-git-runner-'));
    try {
      const git = gitRunner(root);
      await git.raw(['init', '--quiet', '--template=', '--initial-branch=main', '.']);
      // A hook the repository carries would run on commit; core.hooksPath=/dev/null stops it.
      await fs.mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
      await fs.writeFile(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\ntouch "$GIT_DIR/../hooked"\nexit 1\n', { mode: 0o755 });
      await fs.writeFile(path.join(root, 'a.txt'), 'a\n');
      await git.raw(['add', '--all']);
      await git.raw(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'one']);
      assert.match(await git.raw(['rev-parse', 'HEAD']), /^[0-9a-f]{40}\n$/);
      await assert.rejects(fs.stat(path.join(root, 'hooked')), 'the hook did not run');
      await assert.rejects(git.raw(['rev-parse', '--verify', 'no-such-branch']), /no-such-branch|Needed a single revision/);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  test('a git that prints nothing returns without a wait; a cancelled one rejects with an AbortError', async (t) => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-git-runner-'));
    try {
      await gitRunner(root).raw(['init', '--quiet', '--template=', '.']);
      // `git diff --output=<file>` prints nothing; simple-git would wait 50 ms after it (a timer).
      // With setTimeout held still, a runner that waits on a timer never returns; ours returns when
      // git ends. No clock is read: the interval below only bounds a failure.
      t.mock.timers.enable({ apis: ['setTimeout'] });
      let stuck: ReturnType<typeof setInterval> | undefined;
      try {
        const silent = gitRunner(root).raw(['diff', '--no-index', `--output=${path.join(root, 'd')}`, '--exit-code', '/dev/null', '/dev/null']);
        const timedOut = new Promise<'waited on a timer'>((resolve) => {
          stuck = setInterval(() => resolve('waited on a timer'), 60_000);
        });
        assert.equal(await Promise.race([silent, timedOut]), '');
      } finally {
        clearInterval(stuck);
        t.mock.timers.reset();
      }
      const ac = new AbortController();
      ac.abort();
      await assert.rejects(gitRunner(root, { signal: ac.signal }).raw(['status']), (e) => isAbortError(e));
      const late = new AbortController();
      const running = gitRunner(root, { signal: late.signal }).raw(['hash-object', '--stdin']);
      late.abort();
      await assert.rejects(running, (e) => isAbortError(e));
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
