// The batch's last line and its task lines name a flagged solve as flagged (issue 29): a run whose
// score rests on a flag is never counted as a plain "solved".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusLine, totals } from '../../../src/cli/batch-display';
import type { TaskStatus } from '../../../src/core/records/task-status-file';

const status = (task: string, state: TaskStatus['state'], flags?: string[]): TaskStatus => ({
  schema: 1,
  task,
  state,
  updated: '',
  iterations: 2,
  gap: 0,
  ...(flags ? { flags } : {}),
});

test('a flagged solve is named in its task line and in the totals', () => {
  assert.equal(statusLine(status('t1', 'solved', ['not-isolated'])), 't1 · solved ⚑ not-isolated · iteration 2 · gap 0');
  assert.equal(statusLine(status('t2', 'solved')), 't2 · solved · iteration 2 · gap 0');
  assert.equal(
    totals([status('t1', 'solved', ['harness-tampering']), status('t2', 'solved'), status('t3', 'max-iterations'), status('t4', 'solved', ['inflated'])]),
    'finished: 3 solved (2 flagged: harness-tampering, inflated), 1 max-iterations',
  );
  assert.equal(totals([status('t2', 'solved')]), 'finished: 1 solved');
});
