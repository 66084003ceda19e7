// The export toast offers what works where VS Code runs: a file manager only on a local desktop;
// in a browser or a remote window, the person's browser (the page, or a download).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionsAfter, revealActions } from '../../../src/extension/chart/reveal-choice';

test('a local desktop reveals the folder in the file manager', () => {
  assert.deepEqual(
    revealActions({ desktop: true, remote: false, insideWorkspace: true }).map((a) => a.command),
    ['revealFileInOS'],
  );
});

test('in a browser or a remote window there is no revealFileInOS: Open in Browser, Download, and the Explorer (when the workspace holds the report) or the path', () => {
  assert.deepEqual(
    revealActions({ desktop: false, remote: false, insideWorkspace: true }).map((a) => a.label),
    ['Open in Browser', 'Download', 'Show in Explorer'],
  );
  assert.deepEqual(
    revealActions({ desktop: true, remote: true, insideWorkspace: false }).map((a) => a.label),
    ['Open in Browser', 'Download', 'Copy Path'],
  );
  for (const where of [
    { desktop: false, remote: false, insideWorkspace: true },
    { desktop: true, remote: true, insideWorkspace: true },
  ])
    assert.ok(!revealActions(where).some((a) => a.command === 'revealFileInOS'));
});

test('after Open in Browser (or Copy Path) the toast comes back with the rest, Download among them; the others end it', () => {
  const web = revealActions({ desktop: false, remote: false, insideWorkspace: true });
  const [browser, download, explorer] = web;
  assert.deepEqual(
    actionsAfter(web, browser).map((a) => a.label),
    ['Download', 'Show in Explorer'],
  );
  assert.deepEqual(actionsAfter(web, download), []);
  assert.deepEqual(actionsAfter(web, explorer), []);
  const remote = revealActions({ desktop: true, remote: true, insideWorkspace: false });
  assert.deepEqual(
    actionsAfter(remote, remote[2]).map((a) => a.label),
    ['Open in Browser', 'Download'],
  );
  const desktop = revealActions({ desktop: true, remote: false, insideWorkspace: true });
  assert.deepEqual(actionsAfter(desktop, desktop[0]), []);
});
