import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { diffSnapshots, snapshotOutside } from '../../../src/core/loop/outside-changes';

describe('outside-change snapshots', () => {
  test('report added, changed and removed paths outside app/code; the run folder and code are not watched', async () => {
    const task = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-outside-'));
    try {
      const w = async (rel: string, text: string) => {
        await fs.mkdir(path.dirname(path.join(task, rel)), { recursive: true });
        await fs.writeFile(path.join(task, rel), text);
      };
      await w('app/code/src/a.py', 'a');
      await w('app/non-passed/summary.jsonl', '{}\n');
      await w('app/requirement.xml', '<r/>');
      await w('.sweci/task.json', '{}');
      await w('.sweci/runs/r1/iteration.jsonl', '');
      await w('.sweci/runs/other/iteration.jsonl', '');
      const scope = { task: taskFolder(task), run: 'r1', allowRequirement: true };
      const before = snapshotOutside(scope);
      await w('app/code/src/a.py', 'changed');
      await w('app/code/new.py', 'new');
      await w('app/requirement.xml', '<r>new</r>');
      await w('.sweci/runs/r1/pending/architect-try-1.log', 'log');
      await w('app/non-passed/summary.jsonl', '{"x": 1}\n');
      await w('app/notes.txt', 'hi');
      await w('.sweci/runs/other/iteration.jsonl', 'tampered');
      await fs.rm(path.join(task, '.sweci/task.json'));
      const after = snapshotOutside(scope);
      assert.deepEqual(diffSnapshots(before, after), [
        '.sweci/runs/other/iteration.jsonl',
        '.sweci/task.json',
        'app/non-passed/summary.jsonl',
        'app/notes.txt',
      ]);
      const strict = snapshotOutside({ ...scope, allowRequirement: false });
      await w('app/requirement.xml', '<r>newer, longer</r>');
      assert.deepEqual(diffSnapshots(strict, snapshotOutside({ ...scope, allowRequirement: false })), ['app/requirement.xml']);
    } finally {
      await fs.rm(task, { recursive: true, force: true });
    }
  });

  test("a sequence's memory folder: notes changed inside it are the agents' own; a memory folder an agent makes is reported", async () => {
    const task = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-outside-'));
    try {
      await fs.mkdir(path.join(task, 'app', 'code'), { recursive: true });
      const scope = { task: taskFolder(task), run: 'r1', allowRequirement: false };
      // A task without memory: an agent that makes app/memory is seen.
      let before = snapshotOutside(scope);
      await fs.mkdir(path.join(task, 'app', 'memory', 'notes'), { recursive: true });
      await fs.writeFile(path.join(task, 'app', 'memory', 'notes', 'a.md'), 'hidden?');
      assert.deepEqual(diffSnapshots(before, snapshotOutside(scope)), ['app/memory']);
      // A task of a sequence with memory (the folder is there before the step): notes are not outside changes.
      before = snapshotOutside(scope);
      await fs.writeFile(path.join(task, 'app', 'memory', 'notes', 'a.md'), 'lessons learned');
      await fs.writeFile(path.join(task, 'app', 'memory', 'b.md'), 'more');
      assert.deepEqual(diffSnapshots(before, snapshotOutside(scope)), []);
    } finally {
      await fs.rm(task, { recursive: true, force: true });
    }
  });
});
