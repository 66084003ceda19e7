// The export toast offers what works where VS Code runs: a file manager only on a local desktop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { revealActions } from '../../../src/extension/chart/reveal-choice';

test('a local desktop reveals the folder in the file manager', () => {
  assert.deepEqual(
    revealActions({ desktop: true, remote: false, insideWorkspace: true }).map((a) => a.command),
    ['revealFileInOS'],
  );
});

test('in a browser or a remote window there is no revealFileInOS: the Explorer (when the workspace holds the report) and the path', () => {
  assert.deepEqual(
    revealActions({ desktop: false, remote: false, insideWorkspace: true }).map((a) => a.command),
    ['revealInExplorer', 'copy'],
  );
  assert.deepEqual(
    revealActions({ desktop: true, remote: true, insideWorkspace: false }).map((a) => a.command),
    ['copy'],
  );
  for (const where of [
    { desktop: false, remote: false, insideWorkspace: true },
    { desktop: true, remote: true, insideWorkspace: true },
  ])
    assert.ok(!revealActions(where).some((a) => a.command === 'revealFileInOS'));
});
