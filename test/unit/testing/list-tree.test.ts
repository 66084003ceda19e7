// The tree walkers the hostile suites assert with (test/unit/helpers/list-tree.ts): a task's
// discard bin emptied while they walk (as the harness does in the background) is no error, and
// what they find elsewhere is unchanged; a path that vanishes anywhere else still fails the walk.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { filesHolding, inDiscardBin, listTree } from '../helpers/list-tree';

async function fill(dir: string, files: number, text: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(Array.from({ length: files }, (_, i) => fs.writeFile(path.join(dir, `f${i}.json`), text)));
}

test('a discard bin deleted during the walk: no error, the secret outside it still found', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-list-tree-'));
  try {
    await fill(path.join(root, 'app', 'code'), 3, 'honest');
    await fs.writeFile(path.join(root, 'app', 'leak.txt'), 'the-secret');
    for (let round = 0; round < 30; round++) {
      const bin = path.join(root, '.sweci', 'discard', `bin-${round}`, '0');
      await fill(bin, 200, 'the-secret');
      // Deleted while the walk runs, one entry at a time, as util/discard.ts does.
      const deleting = (async () => {
        for (const name of await fs.readdir(bin)) await fs.unlink(path.join(bin, name));
        await fs.rm(path.dirname(bin), { recursive: true });
      })();
      // (The deletion ends before the assertions, whatever the walk did.)
      const found = await filesHolding(root, 'the-secret').finally(() => deleting);
      assert.ok(found.includes(path.join(root, 'app', 'leak.txt')), `round ${round}: the leak outside the bin is found`);
    }
    assert.deepEqual(await listTree(root, true), ['app/code/f0.json', 'app/code/f1.json', 'app/code/f2.json', 'app/leak.txt']);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test('outside a discard bin, a folder that vanishes is still an error', async () => {
  assert.equal(inDiscardBin('/t/task/.sweci/discard/1-ab/0/x.json'), true);
  assert.equal(inDiscardBin('.sweci/discard'), true);
  assert.equal(inDiscardBin('/t/task/.sweci/runs/discard/x'), false);
  assert.equal(inDiscardBin('/t/task/app/.sweci/discarded'), false);
  await assert.rejects(listTree(path.join(os.tmpdir(), 'sweci-no-such-folder', 'app')), { code: 'ENOENT' });
});
