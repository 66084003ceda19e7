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
    } catch (err) {
      // A test file failed to load (syntax error, missing module, ...).
      console.error(err);
      console.log(`${passed} passed, ${failed} failed (the test files could not be loaded)`);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
