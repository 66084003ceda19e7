// Side-bar rows: task-relative paths and one short line (no VS Code API involved).
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { test } from 'node:test';
import { relativePaths, shortDescription } from '../../../src/extension/views/view-text';

const task = '/home/me/tasks/demo-task';

test('paths inside the task become relative: code files as pytest names them, the rest from the task', () => {
  assert.equal(relativePaths(`${task}/app/code/src/inv.py:12: in low_stock`, taskFolder(task)), 'src/inv.py:12: in low_stock');
  assert.equal(relativePaths(`logs in ${task}/.sweci/runs/r1/pending`, taskFolder(task)), 'logs in .sweci/runs/r1/pending');
  assert.equal(relativePaths(`cd ${task}/app/code && pytest`, taskFolder(task)), 'cd app/code && pytest');
  assert.equal(relativePaths(`in ${task}`, taskFolder(task)), 'in .');
  assert.equal(relativePaths('/usr/bin/python3 not found', taskFolder(task)), '/usr/bin/python3 not found', 'other paths stay');
  assert.equal(relativePaths(`${task}/app/code/a.py`, taskFolder(`${task}/`)), 'a.py', 'a trailing slash on the task folder');
});

test('one line, cut with an ellipsis', () => {
  const oneLine = (text: string, max?: number): string => shortDescription(text, undefined, max);
  assert.equal(oneLine('first\nsecond'), 'first');
  assert.equal(oneLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
  assert.equal(oneLine('short', 10), 'short');
});

test('a description is both', () => {
  assert.equal(shortDescription(`ModuleNotFoundError: ${task}/app/code/src/m.py\nmore`, taskFolder(task)), 'ModuleNotFoundError: src/m.py');
  assert.equal(shortDescription('no task', undefined), 'no task');
});
