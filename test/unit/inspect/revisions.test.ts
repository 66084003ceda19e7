// An iteration's commit goes on git's command line: a record whose commit is not an object id
// (an unisolated run's records are only as trustworthy as the code that could write them) is
// refused before git sees it.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { iterationRevision } from '../../../src/core/inspect/revisions';
import { appendIterationRecord, type IterationRecord } from '../../../src/core/loop/iteration-record';
import { writeRunInfo } from '../../../src/core/loop/run-store';
import { UserError } from '../../../src/core/util/errors';

const line = (iteration: number, commit: string): IterationRecord => ({
  gap: 1,
  pytest: { passed: 1 },
  iteration,
  run: 'r',
  started_at: '',
  finished_at: '',
  commit,
  passed: 1,
  target_passed: 2,
  regressions: [],
  tampered: [],
  outside_changes: [],
});

test('iterationRevision resolves a loop run to the history store, with the iteration before it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-rev-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const human = { kind: 'human' as const, label: 'human' };
  await writeRunInfo(taskFolder(dir), {
    schema: 1,
    name: 'r',
    created: '',
    kind: 'loop',
    roles: { architect: human, programmer: human },
    maxIterations: 3,
    baseCommit: 'a'.repeat(40),
  });
  const file = taskFolder(dir).run('r').iterationsFile;
  await appendIterationRecord(file, line(0, 'a'.repeat(40)));
  await appendIterationRecord(file, line(1, 'b'.repeat(40)));
  await appendIterationRecord(file, line(2, '--output=/tmp/pwned'));
  const { revision, previous } = await iterationRevision(taskFolder(dir), 'r', 1);
  assert.equal(revision.gitDir, taskFolder(dir).historyDir);
  assert.equal(revision.commit, 'b'.repeat(40));
  assert.equal(revision.label, 'r #1');
  assert.equal(previous?.commit, 'a'.repeat(40));
  assert.equal(previous?.label, 'r base');
  await assert.rejects(iterationRevision(taskFolder(dir), 'r', 2), (e: unknown) => e instanceof UserError && /records no valid commit/.test(e.message));
  await assert.rejects(iterationRevision(taskFolder(dir), 'r', 7), /has no iteration 7/);
  await assert.rejects(iterationRevision(taskFolder(dir), 'nope', 1), /There is no run "nope"/);
});
