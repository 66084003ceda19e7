// A sequence's memory folder as a hostile agent may leave it: notes are carried to the next task,
// links (to the oracle, to anywhere) are not, and what the next task gets is exactly the carried
// notes (nothing of its own folder survives the carry-in).
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { carryMemoryIn, carryMemoryOut } from '../../../src/core/sequence/memory-folder';
import { listFiles } from '../../../src/core/util/copy-tree';

let tmp: string;
before(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-memory-')));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('notes go from task to task; links an agent left are not carried; the carry-in replaces the folder', async () => {
  const experiment = path.join(tmp, 'exp');
  const first = path.join(experiment, 'task-1');
  const second = path.join(experiment, 'task-2');
  const secret = path.join(tmp, 'oracle-secret.txt');
  await fs.writeFile(secret, 'the answer\n');

  // Task 1 starts with an empty memory.
  await carryMemoryIn(experiment, taskFolder(first));
  const memory1 = taskFolder(first).memoryDir;
  assert.deepEqual(await fs.readdir(memory1), []);
  await fs.mkdir(path.join(memory1, 'notes'), { recursive: true });
  await fs.writeFile(path.join(memory1, 'notes', 'lessons.md'), 'mul is a * b\n');
  await fs.symlink(secret, path.join(memory1, 'oracle-link'));
  await fs.symlink(tmp, path.join(memory1, 'notes', 'dir-link'));
  await carryMemoryOut(taskFolder(first), experiment);
  assert.deepEqual(await listFiles(path.join(experiment, 'memory')), ['notes/lessons.md']);

  // Task 2 gets exactly the carried notes, whatever its folder held before.
  const memory2 = taskFolder(second).memoryDir;
  await fs.mkdir(memory2, { recursive: true });
  await fs.writeFile(path.join(memory2, 'planted.txt'), 'left by someone\n');
  await carryMemoryIn(experiment, taskFolder(second));
  assert.deepEqual(await listFiles(memory2), ['notes/lessons.md']);
  assert.equal(await fs.readFile(path.join(memory2, 'notes', 'lessons.md'), 'utf8'), 'mul is a * b\n');

  // A task that deleted its memory folder carries an empty one on.
  await fs.rm(memory2, { recursive: true });
  await carryMemoryOut(taskFolder(second), experiment);
  assert.deepEqual(await fs.readdir(path.join(experiment, 'memory')), []);
});
