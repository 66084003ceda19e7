// Loaded as --extensionTestsPath by run.ts in a host started without SWECI_TEST_HOOKS, as a
// person's VS Code is: the extension activates and returns nothing test-related.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  assert.equal(process.env.SWECI_TEST_HOOKS, undefined, 'this host runs without the test hooks');
  const ext = vscode.extensions.getExtension('sweci.swe-ci-vscode');
  assert.ok(ext, 'the extension is installed in the host');
  const exports: unknown = ext.isActive ? ext.exports : await ext.activate();
  assert.equal(ext.isActive, true, 'the extension activates');
  assert.equal(exports, undefined, 'without SWECI_TEST_HOOKS=1, activate() returns no test API');
  console.log('without SWECI_TEST_HOOKS: the extension activated and returned no test API');
}
