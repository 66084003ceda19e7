// Check Out Task…'s counts and where its folder dialogs start (no VS Code API involved).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plural, startFolder } from '../../../src/extension/commands/checkout-choices';

test('counts are pluralized', () => {
  assert.equal(plural(1, 'task'), '1 task');
  assert.equal(plural(0, 'task'), '0 tasks');
  assert.equal(plural(2, 'task'), '2 tasks');
  assert.equal(plural(3, 'entry', 'entries'), '3 entries');
});

test('a dialog starts in the folder used last, else next to the workspace folder, else home', () => {
  const dirs = new Set(['/data/swe-ci', '/work/tasks', '/work/tasks/t1', '/work/tasks/t1/.sweci/runs/r1']);
  const isDir = (d: string) => dirs.has(d);
  const home = '/home/me';
  assert.equal(startFolder({ last: '/data/swe-ci', workspaceFolder: '/work/tasks/t1', home, isDir }), '/data/swe-ci');
  assert.equal(startFolder({ last: '/gone', workspaceFolder: '/work/tasks/t1', home, isDir }), '/work/tasks', 'a vanished last folder is skipped');
  assert.equal(startFolder({ workspaceFolder: '/work/tasks/t1', home, isDir }), '/work/tasks', 'the parent, never inside the task');
  assert.equal(startFolder({ home, isDir }), home);
  assert.equal(startFolder({ workspaceFolder: '/elsewhere/x', home, isDir }), home, 'a parent that is not there is skipped');
});
