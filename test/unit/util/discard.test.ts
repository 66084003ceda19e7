// Emptying a folder by moving its entries aside: real files, real renames, real deletes.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { discard, emptyFolder } from '../../../src/core/util/discard';

/** What is left in `bins` once the background deletions are done (or after 10 s, for the assertion to show). */
async function binsOnceDeleted(bins: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const left = await fs.readdir(bins);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('emptyFolder', () => {
  test('the folder stays (same inode) and is empty at once; its old entries, links included, are gone once settled', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-discard-'));
    try {
      const dir = path.join(root, 'out');
      const bins = path.join(root, 'bins');
      const outside = path.join(root, 'outside.txt');
      await fs.writeFile(outside, 'kept');
      await fs.mkdir(path.join(dir, 'pycache', 'deep'), { recursive: true });
      await fs.writeFile(path.join(dir, 'pycache', 'deep', 'x.pyc'), 'x');
      await fs.writeFile(path.join(dir, 'raw-report'), 'old report');
      // A link the code under test left: removed as a link, never followed.
      await fs.symlink(outside, path.join(dir, 'link'));
      const inode = (await fs.stat(dir)).ino;
      await emptyFolder(dir, bins);
      assert.deepEqual(await fs.readdir(dir), []);
      assert.equal((await fs.stat(dir)).ino, inode, 'the same folder, not a new one');
      assert.deepEqual(await binsOnceDeleted(bins), []);
      assert.equal(await fs.readFile(outside, 'utf8'), 'kept');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  test('a missing folder is made; bins an earlier process left behind are deleted too', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-discard-'));
    try {
      const bins = path.join(root, 'bins');
      await fs.mkdir(path.join(bins, 'left-by-a-crash', 'sub'), { recursive: true });
      await fs.writeFile(path.join(bins, 'left-by-a-crash', 'sub', 'f'), 'f');
      const dir = path.join(root, 'new');
      await emptyFolder(dir, bins);
      assert.deepEqual(await fs.readdir(dir), []);
      await fs.writeFile(path.join(dir, 'a'), 'a');
      await emptyFolder(dir, bins);
      // Two paths with one base name, from two folders: both go.
      await fs.mkdir(path.join(root, 'x', 'same'), { recursive: true });
      await fs.mkdir(path.join(root, 'y', 'same'), { recursive: true });
      await discard([path.join(root, 'x', 'same'), path.join(root, 'y', 'same')], bins);
      assert.deepEqual([await fs.readdir(path.join(root, 'x')), await fs.readdir(path.join(root, 'y'))], [[], []]);
      assert.deepEqual(await binsOnceDeleted(bins), []);
      assert.deepEqual(await fs.readdir(dir), []);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  test('without a bin the entries are deleted before it returns, links as links', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-discard-'));
    try {
      const dir = path.join(root, 'out');
      const outside = path.join(root, 'outside.txt');
      await fs.writeFile(outside, 'kept');
      await fs.mkdir(path.join(dir, 'pycache', 'deep'), { recursive: true });
      await fs.writeFile(path.join(dir, 'pycache', 'deep', 'x.pyc'), 'x');
      await fs.symlink(outside, path.join(dir, 'link'));
      const inode = (await fs.stat(dir)).ino;
      await emptyFolder(dir);
      assert.deepEqual(await fs.readdir(dir), []);
      assert.equal((await fs.stat(dir)).ino, inode, 'the same folder, not a new one');
      assert.deepEqual((await fs.readdir(root)).sort(), ['out', 'outside.txt'], 'no bin was made');
      assert.equal(await fs.readFile(outside, 'utf8'), 'kept');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
