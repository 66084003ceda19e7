// The change feed's poll fires only when a record's stats move: these are the cases it must see
// (an appended iteration, a new run, a new pytest run, a try's model call) and the one it must not (nothing written).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { recordsSignature, StampPoll, stamps } from '../../../src/extension/records-signature';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { CALLS_SUFFIX } from '../../../src/core/agents/model-route';

function write(file: string, text: string, append = false): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (append) fs.appendFileSync(file, text);
  else fs.writeFileSync(file, text);
}

const made: string[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-sig-'));
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

test('a task without records has a signature, and it is stable while nothing is written', async () => {
  const dir = tempDir();
  const first = await recordsSignature(dir);
  assert.deepEqual(await recordsSignature(dir), first);
  write(taskFolder(dir).run('a').iterationsFile, '{"iteration":0}\n');
  assert.deepEqual(await recordsSignature(dir), await recordsSignature(dir));
});

test('an appended iteration or a new run moves the runs side only; a new pytest run moves the task side only', async () => {
  const dir = tempDir();
  const task = taskFolder(dir);
  write(task.taskFile, '{}');
  write(task.run('a').runFile, '{}');
  write(task.run('a').iterationsFile, '{"iteration":0}\n');
  const start = await recordsSignature(dir);

  write(task.run('a').iterationsFile, '{"iteration":1}\n', true);
  const appended = await recordsSignature(dir);
  assert.notEqual(appended.runs, start.runs);
  assert.equal(appended.task, start.task);

  write(task.run('b').runFile, '{}');
  const added = await recordsSignature(dir);
  assert.notEqual(added.runs, appended.runs);
  assert.equal(added.task, start.task);

  write(task.current.run, '{"passed":1}');
  const pytest = await recordsSignature(dir);
  assert.notEqual(pytest.task, added.task);
  assert.equal(pytest.runs, added.runs);

  write(path.join(task.run('b').pendingDir, `programmer-try-1${CALLS_SUFFIX}`), '{}\n');
  const call = await recordsSignature(dir);
  assert.notEqual(call.calls, pytest.calls);
  assert.equal(call.runs, pytest.runs);
  write(path.join(task.run('b').pendingDir, 'programmer-try-1.log'), 'not a calls record');
  assert.equal((await recordsSignature(dir)).calls, call.calls, 'only calls records count');
});

test('StampPoll hands over a reading that moved, never the baseline, and nothing after dispose', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'leaderboard.json');
  const moves: Array<[string, string]> = [];
  let reads = 0;
  let onRead: (() => void) | undefined;
  const poll = new StampPoll(
    async () => {
      const s = await stamps([file, dir]);
      reads++;
      onRead?.();
      return s;
    },
    (now, before) => now !== before && moves.push([before, now]),
    5,
  );
  const readsFrom = (n: number) => new Promise<void>((resolve) => (onRead = () => reads >= n && resolve()));
  await readsFrom(reads + 3);
  assert.equal(moves.length, 0, 'a quiet folder moves nothing');
  write(file, '{}');
  while (moves.length === 0) await readsFrom(reads + 1);
  assert.match(moves[0][1], /leaderboard\.json:2:/, 'the new file, with its size');
  poll.dispose();
  const after = moves.length;
  write(file, '{"more": true}');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(moves.length, after, 'a disposed poll reads no more');
});
