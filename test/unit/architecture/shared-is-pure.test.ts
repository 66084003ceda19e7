// src/shared is what the engine, the extension and the webviews all read: the metrics, the data
// the views show (as zod/mini schemas) and the webview messages. The webview bundles import it,
// so it imports no node module and no package but the schema library's browser build and
// @vscode/l10n, and it never reaches up into src/core, src/extension or src/cli (type-only
// imports included: they would make the layers circular). webview-ui's own rule, that it imports src/shared and nothing
// else of src/, is an ESLint rule (eslint.config.mjs).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';

/**
 * Packages made for the browser, and small: the webviews' schemas, and the l10n.t the shared words
 * (the runs table's, the run flags') go through (see docs/ARCHITECTURE.md §7 and Localization).
 */
const BROWSER_PACKAGES = new Set(['zod/mini', '@vscode/l10n']);

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^;]*?from\s*['"]([^'"]+)['"]|require\s*\(\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

const SHARED = path.join(repoRoot, 'src', 'shared');

/** Why `source` (the text of `file`) may not sit in src/shared; [] when it may. */
function problems(source: string, file: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (BROWSER_PACKAGES.has(spec)) continue;
    if (!spec.startsWith('.')) {
      out.push(`${spec} (not relative: no node module or package but ${[...BROWSER_PACKAGES].join(', ')})`);
      continue;
    }
    const target = path.resolve(path.dirname(file), spec);
    if (target !== SHARED && !target.startsWith(SHARED + path.sep)) out.push(`${spec} (outside src/shared)`);
  }
  return out;
}

function sharedFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sharedFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

test('the detector sees node imports, packages and imports from outside src/shared, type-only ones too', () => {
  const here = path.join(SHARED, 'metrics', 'x.ts');
  assert.equal(problems("import * as fs from 'node:fs';", here).length, 1);
  assert.equal(problems("import { x } from 'fs';", here).length, 1);
  assert.equal(problems("const p = require('path');", here).length, 1);
  assert.equal(problems("import { UserError } from '../../core/util/errors';", here).length, 1);
  assert.equal(problems("import type { TestOutcome } from '../../core/pytest/test-report';", here).length, 1);
  assert.equal(problems("export type { X } from '../../extension/x';", here).length, 1);
  assert.equal(problems("import { evoScore } from './evo-score';\nexport * from '../chart-types';", here).length, 0);
  assert.equal(problems("import * as z from 'zod/mini';", here).length, 0);
  assert.equal(problems("import * as l10n from '@vscode/l10n';", here).length, 0);
  assert.equal(problems("import { z } from 'zod';", here).length, 1, 'full zod is not for the webview bundles');
});

test('no file under src/shared imports node, a package other than zod/mini and @vscode/l10n, or anything outside src/shared', () => {
  const files = sharedFiles(SHARED);
  assert.ok(
    files.some((f) => f.includes(`${path.sep}metrics${path.sep}`)),
    'the metrics live in src/shared/metrics',
  );
  assert.ok(files.length >= 20, `only ${files.length} files found under src/shared`);
  const offenders = files.flatMap((f) => problems(fs.readFileSync(f, 'utf8'), f).map((p) => `${path.relative(repoRoot, f)}: ${p}`));
  assert.deepEqual(offenders, []);
});
