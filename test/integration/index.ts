// Loaded by the extension host as --extensionTestsPath: runs every
// out/test/integration/**/*.test.js with mocha and rejects if any test fails.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { showScriptedAgents } from './helpers';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

/**
 * Prints each top-level suite's time with its hooks (suiteSetup builds fixtures, which the spec
 * reporter's per-test times leave out), so the log shows where the tier's time goes.
 */
function timeSuites(runner: Mocha.Runner): void {
  const started = new Map<Mocha.Suite, number>();
  const hooks = new Map<Mocha.Suite, number>();
  runner.on('suite', (suite) => started.set(suite, Date.now()));
  runner.on('hook end', (hook) => {
    const top = topSuite(hook.parent);
    if (top) hooks.set(top, (hooks.get(top) ?? 0) + (hook.duration ?? 0));
  });
  runner.on('suite end', (suite) => {
    const t0 = started.get(suite);
    if (t0 === undefined || !suite.parent?.root) return;
    const s = (ms: number) => (ms / 1000).toFixed(1);
    console.log(`  (suite "${suite.title}": ${s(Date.now() - t0)} s, ${s(hooks.get(suite) ?? 0)} s of it in hooks)`);
  });
}

function topSuite(suite: Mocha.Suite | undefined): Mocha.Suite | undefined {
  while (suite?.parent && !suite.parent.root) suite = suite.parent;
  return suite?.parent ? suite : undefined;
}

export async function run(): Promise<void> {
  await showScriptedAgents();
  const mocha = new Mocha({
    ui: 'tdd',
    timeout: 120_000,
    color: false,
    reporter: 'spec',
    grep: process.env.SWECI_TEST_GREP || undefined,
  });
  for (const file of findTests(__dirname)) mocha.addFile(file);

  return new Promise<void>((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    try {
      const runner = mocha.run((failures) => {
        console.log(`${passed} passed, ${failed} failed`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
      runner.on('pass', () => passed++);
      runner.on('fail', () => failed++);
      timeSuites(runner);
    } catch (err) {
      // A test file failed to load (syntax error, missing module, ...).
      console.error(err);
      console.log(`${passed} passed, ${failed} failed (the test files could not be loaded)`);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
