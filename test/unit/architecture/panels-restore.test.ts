// Every webview panel comes back after Developer: Reload Window the same way: its host
// (src/extension/webview/webview-host.ts) registers the view type's serializer, and the manifest
// activates the extension for it (onWebviewPanel:<viewType>), or VS Code would find no serializer
// in a window where nothing else activated the extension yet.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

const HOST = path.join('src', 'extension', 'webview', 'webview-host.ts');

/** The webview view types the extension names (`const X_VIEW_TYPE = 'sweci.x'`, exported or not), by file. */
function viewTypes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(path.join(repoRoot, 'src', 'extension'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^(?:export )?const \w+_VIEW_TYPE = '([\w.]+)'/gm)) found.set(m[1], path.relative(repoRoot, file));
  }
  return found;
}

test('each webview view type has its onWebviewPanel activation event, and no other is listed', () => {
  const types = viewTypes();
  assert.ok(types.size >= 4, `expected the four panels' view types, found ${[...types.keys()].join(', ')}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { activationEvents: string[] };
  const listed = manifest.activationEvents.filter((e) => e.startsWith('onWebviewPanel:')).map((e) => e.slice('onWebviewPanel:'.length));
  assert.deepEqual([...listed].sort(), [...types.keys()].sort());
});

test('only the webview host registers a panel serializer, and each panel builds on the host', () => {
  const files = [...sourceFiles(path.join(repoRoot, 'src', 'extension'))].map((f) => path.relative(repoRoot, f));
  const registering = files.filter((f) => /registerWebviewPanelSerializer/.test(fs.readFileSync(path.join(repoRoot, f), 'utf8')));
  assert.deepEqual(registering, [HOST]);
  for (const [type, file] of viewTypes()) {
    assert.match(fs.readFileSync(path.join(repoRoot, file), 'utf8'), /new WebviewHost\(/, `${type} (${file}) is not built on the webview host`);
  }
});
