// The unit tier in two passes: the files that are independent of each other run two at a time
// (the machines this runs on have two cores and most tests wait on pytest, git or a sandbox),
// then the ones that share something run alone, one after another:
//   - Docker: docker-task removes the demo image to load it again, which would pull it from
//     under another file's containers; the fault tests start and stop engines;
//   - the real agent CLIs and the Kubernetes pod: each already keeps both cores busy;
//   - the sandbox and the language-server fuzz: they measure kills and answer times.
// Usage: node out/test/run-unit-tests.js [node --test options…]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

const UNIT_DIR = path.join(__dirname, 'unit');

/** Files that must not run beside another (see above), by path below out/test/unit. */
const ALONE = [/^runtime\/docker-/, /^batch\/k8s-pod\./, /^agents\/real-agents\./, /^runtime\/sandbox\./, /^server\/requirement-server-fuzz\./];

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(full));
    else if (entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

function run(files: string[], concurrency: number, extra: string[]): number {
  if (files.length === 0) return 0;
  const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...extra, ...files], { stdio: 'inherit' });
  return r.status ?? 1;
}

const extra = process.argv.slice(2);
const files = testFiles(UNIT_DIR);
const alone = files.filter((f) => ALONE.some((re) => re.test(path.relative(UNIT_DIR, f).split(path.sep).join('/'))));
const together = files.filter((f) => !alone.includes(f));
const started = Date.now();
const first = run(together, 2, extra);
const second = run(alone, 1, extra);
console.log(`unit tier: ${together.length} files two at a time, ${alone.length} alone; ${((Date.now() - started) / 60_000).toFixed(1)} min`);
process.exit(first || second);
