// Localization's two files next to the code: l10n/bundle.l10n.json must be what `npm run l10n`
// (@vscode/l10n-dev) exports from the code now, so a new l10n.t text cannot ship untranslatable;
// package.json's every %key% must have its English text in package.nls.json, and no text there is
// left without a key that uses it. Also the checks the design doc's Localization part names: every
// webview entry configures @vscode/l10n before any module builds text, and the lint rule
// sweci/no-inline-ui-string fails on inline text (and not on l10n.t) in the folders it covers.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';
import { Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { repoRoot } from '../helpers/repo-root';

/** The folders `npm run l10n` exports from (package.json's script names the same). */
const SOURCES = ['src/extension', 'src/server', 'src/shared', 'src/core/report', 'webview-ui'];

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

test('every webview entry imports zod-config, then l10n-config, before anything else', () => {
  const esbuild = fs.readFileSync(path.join(repoRoot, 'esbuild.mjs'), 'utf8');
  const entries = [...esbuild.matchAll(/'(webview-ui\/[\w-]+\.ts)'/g)].map((m) => m[1]);
  assert.ok(entries.length >= 4, `esbuild.mjs names the webview entries: ${entries.join(', ')}`);
  for (const entry of entries) {
    const imports = [...fs.readFileSync(path.join(repoRoot, entry), 'utf8').matchAll(/^import\s[^;]*?'([^']+)';/gms)].map((m) => m[1]);
    assert.deepEqual(imports.slice(0, 2), ['./zod-config', './l10n-config'], `${entry}'s first imports`);
  }
});

/** The rule's problems in `code`, linted as TypeScript with the rule alone. */
function inlineStrings(rule: Rule.RuleModule, code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const config: Linter.Config[] = [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { sweci: { rules: { 'no-inline-ui-string': rule } } } },
    { files: ['**/*.ts'], rules: { 'sweci/no-inline-ui-string': 'error' } },
  ];
  return linter.verify(code, config, 'probe.ts').map((m) => `${m.ruleId}: ${m.message}`);
}

test('sweci/no-inline-ui-string fails on inline user-facing text, passes l10n.t, and is on for src/extension, webview-ui and src/server', async () => {
  const { noInlineUiString } = (await import(pathToFileURL(path.join(repoRoot, 'eslint-rules', 'no-inline-ui-string.mjs')).href)) as {
    noInlineUiString: Rule.RuleModule;
  };
  const flagged = [
    "void vscode.window.showInformationMessage('The run finished', 'Open');",
    "const item = new vscode.TreeItem('Base');",
    "const pick = { label: 'Check out', description: done ? 'done' : 'to do' };",
    "item.tooltip = 'Click to open ' + name;",
    "const h = el('h2', {}, 'Runs');",
    "input.setAttribute('aria-label', 'Filter the tests');",
  ];
  for (const code of flagged) assert.ok(inlineStrings(noInlineUiString, code).length > 0, `flagged: ${code}`);
  const passed = [
    "void vscode.window.showInformationMessage(vscode.l10n.t('The run finished'), openLabel);",
    "const item = new vscode.TreeItem(vscode.l10n.t('Base'));",
    "const h = el('h2', {}, l10n.t('Runs'));",
    "const pick = { label: '$(sync~spin) ', description: 'summary.jsonl' };",
  ];
  for (const code of passed) assert.deepEqual(inlineStrings(noInlineUiString, code), [], `passed: ${code}`);
  // The project's config turns it on for the three folders (npm run lint, count-inline-ui-strings.mjs).
  const config = (await import(pathToFileURL(path.join(repoRoot, 'eslint.config.mjs')).href)) as { default: Linter.Config[] };
  const on = config.default.find((c) => c.rules?.['sweci/no-inline-ui-string'] === 'error');
  assert.deepEqual(on?.files, ['src/extension/**/*.ts', 'webview-ui/**/*.ts', 'src/server/**/*.ts']);
});
