// Runs the integration tests (out/test/integration/**/*.test.js) inside a real VS Code
// extension host through @vscode/test-electron's runTests(), with the extension loaded from the
// test bundle (test/harness/test-extension.ts: the product plus the API the suites drive it
// through). First, a host running the product itself, as a person runs it, checks that it has
// no test API (without-hooks.ts).
//
// By default the "VS Code executable" is scripts/vscode-shim, which runs the tests in
// code-server 1.139.1 (installed by scripts/setup.sh) driven by Debian's chromium, because
// desktop VS Code cannot be downloaded on the project machines. With SWECI_VSCODE=desktop,
// runTests downloads and uses desktop VS Code as usual.
//
// Environment:
//   SWECI_TEST_WORKSPACE   folder to open (default: a fresh, empty temp folder)
//   SWECI_VSCODE=desktop   use desktop VS Code instead of the code-server shim
//   SWECI_TEST_TIMEOUT_MS  bound on the shim's run (default 40 min; it ends a hang)
//   SWECI_TEST_GREP        only run tests whose title matches (mocha grep); skips the product's host
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot } from '../harness/code-server';
import { makeTestExtension } from '../harness/test-extension';
import { useTestPython } from '../harness/test-python';

async function main(): Promise<number> {
  // The extension host's local pytest runs use the suite's Python (test/harness/test-python.ts).
  useTestPython();
  const root = repoRoot();
  const extensionTestsPath = path.join(root, 'out', 'test', 'integration', 'index.js');
  let testExtension;
  try {
    testExtension = makeTestExtension(root);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const tempWorkspace = process.env.SWECI_TEST_WORKSPACE ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-ws-'));
  const workspace = path.resolve(process.env.SWECI_TEST_WORKSPACE ?? tempWorkspace!);
  const desktop = process.env.SWECI_VSCODE === 'desktop';
  const started = Date.now();
  const vscodeExecutablePath = desktop ? undefined : path.join(root, 'scripts', 'vscode-shim');
  const plainWorkspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-plain-'));
  // The demo dataset, built once for the suites and copied to each (test/harness/demo-dataset-fixture.ts).
  const fixtureCache = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-fixtures-'));
  try {
    if (!process.env.SWECI_TEST_GREP) {
      await runTests({
        extensionDevelopmentPath: root,
        vscodeExecutablePath,
        launchArgs: [plainWorkspace],
        extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'without-hooks.js'),
        extensionTestsEnv: { SWECI_INTEGRATION: '1' },
      });
    }
    await runTests({
      extensionDevelopmentPath: testExtension.path,
      vscodeExecutablePath,
      launchArgs: [workspace],
      extensionTestsPath,
      extensionTestsEnv: { SWECI_INTEGRATION: '1', SWECI_TEST_FIXTURE_CACHE: fixtureCache },
    });
    return 0;
  } catch (err) {
    console.error(`integration tests failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    console.log(`integration run took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (tempWorkspace) fs.rmSync(tempWorkspace, { recursive: true, force: true });
    fs.rmSync(plainWorkspace, { recursive: true, force: true });
    testExtension.dispose();
    fs.rmSync(fixtureCache, { recursive: true, force: true });
  }
}

void main().then((code) => process.exit(code));
