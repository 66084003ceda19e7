// The shipped bundles hold no test surface: the test API, the webviews' traffic logs and their
// 'rendered' reports live in the test bundles (test/extension, test/webview → dist-test/). Reads
// what `npm run build` wrote; the test bundles are read too, so a name missed here (renamed, or
// mangled by the bundler) fails instead of passing unseen.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';

/** What only tests use: the test API's methods, the old hooks' names and the webviews' report. */
const TEST_SURFACE = [
  'SWECI_TEST_HOOKS',
  'sweci-test-hooks',
  'sweciTestHooks',
  'testIncoming',
  'reportRendered',
  'chartMessages',
  'chartReceive',
  'chartHtml',
  'transcriptMessages',
  'transcriptReceive',
  'iterationViewReceive',
  'nonPassedRows',
  'lastMessages',
  'requirementServerReady',
  '"rendered"',
  "'rendered'",
];

function read(dir: string, name: string): string {
  const file = path.join(repoRoot, dir, name);
  assert.ok(fs.existsSync(file), `${dir}/${name} is missing; build first: npm run build`);
  return fs.readFileSync(file, 'utf8');
}

const found = (text: string) => TEST_SURFACE.filter((word) => text.includes(word));

test('the product bundles hold none of the test surface', () => {
  for (const name of ['extension.js', 'webview.js', 'transcript.js', 'iteration-view.js', 'server.js', 'cli.js']) {
    assert.deepEqual(found(read('dist', name)), [], `dist/${name} holds test-only code`);
  }
});

test('the test bundles hold it (so the check above sees these names when they are there)', () => {
  const extension = found(read('dist-test', 'extension.js'));
  for (const word of TEST_SURFACE.filter((w) => !/HOOKS|hooks|Hooks|testIncoming|reportRendered|'rendered'/.test(w))) {
    assert.ok(extension.includes(word), `dist-test/extension.js holds ${word}`);
  }
  for (const name of ['webview.js', 'transcript.js']) assert.ok(read('dist-test', name).includes('"rendered"'), `dist-test/${name} reports what it drew`);
});
