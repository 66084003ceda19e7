// The status bar's text (no VS Code API involved).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusText } from '../../../src/extension/views/status-text';

const parts = ['demo-task', 'run-1', '#2', 'a(c) 40%'];

test('while a loop runs, the progress message follows the run', () => {
  assert.equal(
    statusText({ parts, running: true, progress: 'iteration 3 · architect · you', docker: false }),
    '$(sync~spin) demo-task · run-1 · #2 · a(c) 40% · iteration 3 · architect · you',
  );
});

test('idle: no progress, even if one was left over', () => {
  assert.equal(
    statusText({ parts, running: false, progress: 'iteration 3 · pytest', docker: true }),
    '$(beaker) demo-task · run-1 · #2 · a(c) 40% · $(vm) docker',
  );
});

test('a long progress message is shortened', () => {
  const text = statusText({ parts: ['t'], running: true, progress: 'x'.repeat(200), docker: false });
  assert.ok(text.length < 80, text);
  assert.ok(text.endsWith('…'));
});
