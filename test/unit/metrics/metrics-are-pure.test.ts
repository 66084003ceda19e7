// src/core/metrics, src/core/scoring/chart-types.ts and src/core/continual/sequence-data-schema.ts
// are bundled into the chart webview: no node (or any package) imports but the schema library's
// browser build, zod/mini; relative imports stay inside src/core/metrics, except type-only ones
// (erased when bundled).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';

/** Packages made for the browser, and small: the webviews' schemas (see docs/ARCHITECTURE.md §7). */
const BROWSER_PACKAGES = new Set(['zod/mini']);

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?from\s*['"]([^'"]+)['"]|require\s*\(\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

/** Why `source` (the text of `file`) may not be bundled for the browser; [] when it may. */
function problems(source: string, file: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const typeOnly = Boolean(m[2]);
    const spec = m[3] ?? m[4] ?? m[5] ?? m[6];
    if (BROWSER_PACKAGES.has(spec)) continue;
    if (!spec.startsWith('.')) {
      out.push(`${spec} (not relative)`);
      continue;
    }
    const target = path.resolve(path.dirname(file), spec);
    const inside = target.startsWith(METRICS + path.sep);
    if (!inside && !typeOnly) out.push(`${spec} (outside src/core/metrics, not type-only)`);
  }
  return out;
}

const METRICS = path.join(repoRoot, 'src', 'core', 'metrics');

test('the detector sees node imports and value imports from outside', () => {
  const here = path.join(METRICS, 'x.ts');
  assert.equal(problems("import * as fs from 'node:fs';", here).length, 1);
  assert.equal(problems("import { x } from 'fs';", here).length, 1);
  assert.equal(problems("const p = require('path');", here).length, 1);
  assert.equal(problems("import { UserError } from '../util/errors';", here).length, 1);
  assert.equal(problems("import type { TestOutcome } from '../pytest/test-report';", here).length, 0);
  assert.equal(problems("import { evoScore } from './evo-score';\nexport * from './regressions';", here).length, 0);
  assert.equal(problems("import * as z from 'zod/mini';", here).length, 0);
  assert.equal(problems("import { z } from 'zod';", here).length, 1, 'full zod is not for the webview bundles');
});

test('no file under src/core/metrics, nor the chart data types and schemas, imports node or runtime code from outside', () => {
  const dir = path.join(repoRoot, 'src', 'core', 'metrics');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
  files.push(path.join(repoRoot, 'src', 'core', 'scoring', 'chart-types.ts'), path.join(repoRoot, 'src', 'core', 'continual', 'sequence-data-schema.ts'));
  assert.ok(files.length >= 7);
  const offenders = files.flatMap((f) => problems(fs.readFileSync(f, 'utf8'), f).map((p) => `${path.relative(repoRoot, f)}: ${p}`));
  assert.deepEqual(offenders, []);
});
