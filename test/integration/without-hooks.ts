// Loaded as --extensionTestsPath by run.ts in a host running the product's own bundle
// (dist/extension.js), as a person's VS Code does: the extension activates and returns nothing.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension('sweci.swe-ci-vscode');
  assert.ok(ext, 'the extension is installed in the host');
  const exports: unknown = ext.isActive ? ext.exports : await ext.activate();
  assert.equal(ext.isActive, true, 'the extension activates');
  assert.equal(exports, undefined, "the product's activate() returns no test API");
  console.log('the product bundle: the extension activated and returned no test API');
}
