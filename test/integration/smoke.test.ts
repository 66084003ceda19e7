// The extension loads and activates in a real VS Code extension host.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'sweci.swe-ci-vscode';

suite('Smoke', () => {
  test('the host is a real VS Code; its kind is logged', () => {
    const uiKind = vscode.env.uiKind === vscode.UIKind.Web ? 'Web' : 'Desktop';
    console.log(
      `host: ${vscode.env.appName} ${vscode.version}, uiKind=${uiKind} (${vscode.env.uiKind}), ` +
        `appHost=${vscode.env.appHost}, remoteName=${vscode.env.remoteName ?? '(local)'}, ` +
        `node=${process.version}, platform=${process.platform}`,
    );
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
  });

  test('the environment of the test runner reaches the extension host', () => {
    // test/integration/run.ts passes SWECI_INTEGRATION=1 through runTests' extensionTestsEnv.
    assert.equal(process.env.SWECI_INTEGRATION, '1');
  });

  test(`the extension ${EXTENSION_ID} is present and activates`, async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed in the extension host`);
    await ext.activate();
    assert.equal(ext.isActive, true, 'the extension is active after activate()');
    console.log(`activated ${ext.id} ${(ext.packageJSON as { version: string }).version} from ${ext.extensionUri.toString()}`);
  });
});
