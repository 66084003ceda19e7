// What the webviews bundle imports zod as: `import * as z from 'zod/mini'` (or named imports
// from it). Full zod adds about 90 KB to a bundle, and `import { z }` keeps every locale in it
// (about 400 KB), as esbuild cannot drop what the namespace object holds.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';

const ZOD_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?([^;]*?)\s*from\s*['"](zod(?:\/[^'"]*)?)['"]/g;

/** Why this source's zod imports would bloat a webview bundle; [] when they do not. */
function problems(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(ZOD_IMPORT)) {
    const [, what, spec] = m;
    if (spec !== 'zod/mini') out.push(`${spec}: use zod/mini`);
    else if (/\{\s*z\s*\}/.test(what)) out.push(`{ z } from ${spec}: use import * as z`);
  }
  return out;
}

function* tsFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

test('the detector tells the small import from the large ones', () => {
  assert.deepEqual(problems("import * as z from 'zod/mini';\nimport type * as y from 'zod/mini';\nimport { config } from 'zod/mini';"), []);
  assert.equal(problems("import { z } from 'zod/mini';").length, 1);
  assert.equal(problems("import { z } from 'zod';").length, 1);
  assert.equal(problems("import * as z from 'zod';").length, 1);
});

test('the webview protocols, the chart data schemas and the webview code import zod/mini, as a namespace', () => {
  const files = [...tsFiles(path.join(repoRoot, 'src', 'shared')), ...tsFiles(path.join(repoRoot, 'webview-ui'))];
  const offenders = files.flatMap((f) => problems(fs.readFileSync(f, 'utf8')).map((p) => `${path.relative(repoRoot, f)}: ${p}`));
  assert.deepEqual(offenders, []);
});
