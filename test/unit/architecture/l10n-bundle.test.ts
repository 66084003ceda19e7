// Localization's two files next to the code: l10n/bundle.l10n.json must be what `npm run l10n`
// (@vscode/l10n-dev) exports from the code now, so a new l10n.t text cannot ship untranslatable;
// package.json's every %key% must have its English text in package.nls.json, and no text there is
// left without a key that uses it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { getL10nJson } from '@vscode/l10n-dev';
import { repoRoot } from '../helpers/repo-root';

/** The folders `npm run l10n` exports from (package.json's script names the same). */
const SOURCES = ['src/extension', 'src/server', 'webview-ui'];

function typeScriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return typeScriptFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

test("the committed English bundle is what @vscode/l10n-dev exports from today's code (npm run l10n)", async () => {
  const script = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.l10n;
  for (const dir of SOURCES) assert.ok(script.includes(`./${dir}`), `npm run l10n exports from ${dir}: ${script}`);
  const files = SOURCES.flatMap((d) => typeScriptFiles(path.join(repoRoot, d))).map((f) => ({ contents: fs.readFileSync(f, 'utf8'), extension: '.ts' }));
  const exported = await getL10nJson(files);
  const committed = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as unknown;
  assert.ok(Object.keys(exported).length > 100, 'the code has its texts in l10n.t calls');
  assert.deepEqual(committed, exported, 'l10n/bundle.l10n.json is stale: run npm run l10n and commit it');
});

test("package.json's %keys% and package.nls.json's texts match one to one", () => {
  const manifest = fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8');
  const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const used = new Set([...manifest.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]));
  assert.ok(used.size > 100, 'the manifest names its texts by key');
  assert.deepEqual(
    [...used].filter((k) => !(k in nls)),
    [],
    'every key the manifest names has its English text',
  );
  assert.deepEqual(
    Object.keys(nls).filter((k) => !used.has(k)),
    [],
    'no text is left without a key that uses it',
  );
  for (const [k, v] of Object.entries(nls)) assert.ok(typeof v === 'string' && v.trim(), `${k} has text`);
});
