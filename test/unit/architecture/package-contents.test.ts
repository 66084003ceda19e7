// The .vsix must hold every file the extension loads at run time and every image its README
// and manifest name; .vscodeignore keeps it small, so a new file is easy to leave out.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

test('the packaged extension holds its bundles, webview assets and every referenced image', () => {
  const vsce = path.join(repoRoot, 'node_modules', '.bin', 'vsce');
  const r = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, `vsce ls failed: ${r.stderr}`);
  const packaged = new Set(
    r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );

  // Every panel's bundle, as the panels name it (`script: 'x.js'`): one left out was once only found by a user.
  const panelBundles = sourceFiles(path.join(repoRoot, 'src', 'extension')).flatMap((f) =>
    [...fs.readFileSync(f, 'utf8').matchAll(/\bscript: '([\w-]+\.js)'/g)].map((m) => `dist/${m[1]}`),
  );
  assert.ok(panelBundles.length >= 4, `the panels' bundles were found: ${panelBundles.join(', ')}`);
  const manifest = fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8');
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const needed = new Set([
    'package.json',
    // The manifest's English text (package.json names its %keys%) and the code's English bundle.
    'package.nls.json',
    'l10n/bundle.l10n.json',
    'README.md',
    'dist/extension.js',
    'dist/webview.js',
    // `sweci` and the bundle it runs.
    'dist/cli.js',
    'dist/cli-main.js',
    ...panelBundles,
    'media/chart.css',
    // What every webview's page and exported page loads before its own stylesheet.
    'media/webview-base.css',
    // The Transcript panel's bundle and style: the panel, and the exported report's transcript pages.
    'dist/transcript.js',
    'media/transcript.css',
    ...[...manifest.matchAll(/"(media\/[^"]+)"/g)].map((m) => m[1]),
    ...[...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]),
  ]);
  assert.ok(needed.size > 8, 'the manifest and README references were found');
  const missing = [...needed].filter((f) => !packaged.has(f));
  assert.deepEqual(missing, [], `missing from the .vsix (see .vscodeignore): ${missing.join(', ')}`);
  for (const f of packaged) {
    assert.ok(!/^(src|test|out|node_modules|\.vscode-test|scripts|bench|webview-ui)\//.test(f), `${f} should not be packaged`);
  }
});
