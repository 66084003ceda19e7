// The extension reads its settings in one place, src/extension/config.ts, through the core's
// parsers the CLI uses too: no other extension file calls getConfiguration.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

const CONFIG = path.join('src', 'extension', 'config.ts');

export function readsConfiguration(source: string): boolean {
  return /\bgetConfiguration\s*\(/.test(source);
}

test('the detector sees a configuration read', () => {
  assert.ok(readsConfiguration("const cfg = vscode.workspace.getConfiguration('sweci', scope);"));
  assert.ok(readsConfiguration('workspace.getConfiguration ()'));
  assert.ok(!readsConfiguration('// settings come from config.ts'));
});

test('only src/extension/config.ts reads the configuration', () => {
  const files = [...sourceFiles(path.join(repoRoot, 'src', 'extension'))].map((f) => path.relative(repoRoot, f));
  assert.ok(files.includes(CONFIG), `expected ${CONFIG} under ${repoRoot}`);
  const readers = files.filter((f) => readsConfiguration(fs.readFileSync(path.join(repoRoot, f), 'utf8')));
  assert.deepEqual(readers, [CONFIG]);
});
