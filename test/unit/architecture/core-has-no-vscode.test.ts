// src/core is the engine shared with the CLI: it must never depend on the VS Code API.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

/** Any static import, re-export, require or dynamic import of the 'vscode' module. */
export function importsVscode(source: string): boolean {
  return /(?:from\s*|require\s*\(\s*|import\s*\(\s*|import\s+)['"]vscode['"]/.test(source);
}

test('the detector sees every form of importing vscode', () => {
  assert.ok(importsVscode("import * as vscode from 'vscode';"));
  assert.ok(importsVscode('import type { Uri } from "vscode";'));
  assert.ok(importsVscode("export { window } from 'vscode';"));
  assert.ok(importsVscode("const v = require('vscode');"));
  assert.ok(importsVscode("await import('vscode')"));
  assert.ok(importsVscode("import 'vscode';"));
  assert.ok(!importsVscode("import * as x from 'vscode-languageserver';"));
  assert.ok(!importsVscode('// talks to vscode through the extension'));
});

test('no file under src/core imports vscode', () => {
  const offenders: string[] = [];
  const files = [...sourceFiles(path.join(repoRoot, 'src', 'core'), /\.(ts|js|mjs|cjs)$/)];
  assert.ok(files.length > 5, `expected the core sources under ${repoRoot}/src/core`);
  for (const file of files) {
    if (importsVscode(fs.readFileSync(file, 'utf8'))) offenders.push(path.relative(repoRoot, file));
  }
  assert.deepEqual(offenders, [], `src/core must not import vscode: ${offenders.join(', ')}`);
});
