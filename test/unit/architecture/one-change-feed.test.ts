// The extension watches files in one place, src/extension/change-feed.ts: every view and the
// language client listen to its events, so no other extension file makes a file watcher.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

const FEED = path.join('src', 'extension', 'change-feed.ts');

/** VS Code's watcher, node's fs.watch / fs.watchFile (called on the module or imported by name), chokidar. */
export function watchesFiles(source: string): boolean {
  return (
    /\bcreateFileSystemWatcher\b/.test(source) ||
    /\bfs\w*\s*\.\s*(?:watch|watchFile)\s*\(/.test(source) ||
    /import\s*\{[^}]*\b(?:watch|watchFile)\b[^}]*\}\s*from\s*['"](?:node:)?fs(?:\/promises)?['"]/.test(source) ||
    /['"]chokidar['"]/.test(source)
  );
}

test('the detector sees a file watcher, and not a change feed being told what to watch', () => {
  assert.ok(watchesFiles("const w = vscode.workspace.createFileSystemWatcher('**/app/code/**');"));
  assert.ok(watchesFiles('const w = workspace.createFileSystemWatcher(new RelativePattern(dir, f));'));
  assert.ok(watchesFiles('fs.watch(dir, () => undefined);'));
  assert.ok(watchesFiles('fsp.watch(file)'));
  assert.ok(watchesFiles('fs.watchFile(file, listener);'));
  assert.ok(watchesFiles("import { readFile, watch } from 'node:fs/promises';"));
  assert.ok(watchesFiles("import { watchFile } from 'fs';"));
  assert.ok(watchesFiles("import chokidar from 'chokidar';"));
  assert.ok(!watchesFiles('this.feed.watch(dir);'));
  assert.ok(!watchesFiles('feed.onDidChangeRuns(() => this.refresh());'));
  assert.ok(!watchesFiles("import { promises as fs } from 'node:fs';"));
});

test('only src/extension/change-feed.ts watches files', () => {
  const files = [...sourceFiles(path.join(repoRoot, 'src', 'extension'))].map((f) => path.relative(repoRoot, f));
  assert.ok(files.includes(FEED), `expected ${FEED} under ${repoRoot}`);
  const watchers = files.filter((f) => watchesFiles(fs.readFileSync(path.join(repoRoot, f), 'utf8')));
  assert.deepEqual(watchers, [FEED]);
});
