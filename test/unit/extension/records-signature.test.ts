// The change feed's poll fires only when a record's stats move: these are the cases it must see
// (an appended iteration, a new run, a new pytest run, a try's model call) and the one it must not (nothing written).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { recordsSignature } from '../../../src/extension/records-signature';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { CALLS_SUFFIX } from '../../../src/core/agents/model-route';

function write(file: string, text: string, append = false): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (append) fs.appendFileSync(file, text);
  else fs.writeFileSync(file, text);
}

test('a task without records has a signature, and it is stable while nothing is written', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-sig-'));
  const first = await recordsSignature(dir);
  assert.deepEqual(await recordsSignature(dir), first);
  write(taskFolder(dir).run('a').iterationsFile, '{"iteration":0}\n');
  assert.deepEqual(await recordsSignature(dir), await recordsSignature(dir));
});

test('an appended iteration or a new run moves the runs side only; a new pytest run moves the task side only', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-sig-'));
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
