import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { assertRunName, runBranch, runNameProblem, slugifyRunName } from '../../../src/core/loop/run-name';
import { suggestRunName } from '../../../src/core/loop/run-store';

describe('run names', () => {
  test('valid names are slugs usable as a folder and a git branch', () => {
    for (const ok of ['run-1', 'claude-code.2', 'a', 'x_y', '0abc']) assert.equal(runNameProblem(ok), undefined, ok);
    for (const bad of ['', 'Run', '-a', 'a-', 'a..b', 'a/b', '../x', 'x.lock', 'con', 'a b', 'é', 'a'.repeat(65)]) {
      assert.ok(runNameProblem(bad), bad);
    }
    assert.throws(() => assertRunName('../evil'), /cannot be a run name/);
    assert.equal(runBranch('run-1'), 'sweci/run-1');
  });

  test('slugify makes a valid name from free text, or nothing', () => {
    assert.equal(slugifyRunName('Claude Code #2'), 'claude-code-2');
    assert.equal(slugifyRunName('  Crème brûlée!! '), 'creme-brulee');
    assert.equal(slugifyRunName('../../etc/passwd'), 'etc-passwd');
    assert.equal(slugifyRunName('x.lock'), 'x');
    assert.equal(slugifyRunName('CON'), 'run-con');
    assert.equal(slugifyRunName('!!!'), '');
    assert.equal(slugifyRunName('a'.repeat(100)).length, 64);
  });

  test('suggestRunName avoids names in use', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-names-'));
    try {
      assert.equal(await suggestRunName(taskFolder(tmp), 'Codex'), 'codex-1');
      await fs.mkdir(path.join(tmp, '.sweci', 'runs', 'codex-1'), { recursive: true });
      assert.equal(await suggestRunName(taskFolder(tmp), 'Codex'), 'codex-2');
      assert.equal(await suggestRunName(taskFolder(tmp), '###'), 'run-1');
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
