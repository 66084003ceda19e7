// The extension as the tests load it: a folder like the repository's (package.json, media/, the
// product's dist/) whose dist/ holds the test bundles (dist-test/, built by `npm run build`) in
// place of the product's extension.js, webview.js and transcript.js. Files a webview loads are
// copied, not linked, so they are inside the folder VS Code lets the webview read.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './code-server';

export interface TestExtension {
  /** The folder to load as the extension (same publisher and name as the product). */
  readonly path: string;
  dispose(): void;
}

/** Copied whole: what the webviews load (dist/, media/) and the manifest. */
const COPIED = new Set(['dist', 'media', 'package.json']);
/** Never in the folder. */
const LEFT_OUT = new Set(['.git', 'dist-test']);

export function makeTestExtension(root = repoRoot()): TestExtension {
  const productDist = path.join(root, 'dist');
  const testDist = path.join(root, 'dist-test');
  for (const [dir, what] of [
    [productDist, 'dist/'],
    [testDist, 'the test bundles (dist-test/)'],
  ]) {
    if (!fs.existsSync(path.join(dir, 'extension.js'))) throw new Error(`${what} is missing; build first: npm run build`);
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-test-extension-'));
  for (const name of fs.readdirSync(root)) {
    if (LEFT_OUT.has(name)) continue;
    const from = path.join(root, name);
    if (COPIED.has(name)) fs.cpSync(from, path.join(folder, name), { recursive: true, dereference: true });
    else fs.symlinkSync(from, path.join(folder, name));
  }
  // The test bundles take the product's place (same names: the manifest's main and the hosts' scripts).
  fs.cpSync(testDist, path.join(folder, 'dist'), { recursive: true });
  return { path: folder, dispose: () => fs.rmSync(folder, { recursive: true, force: true }) };
}
