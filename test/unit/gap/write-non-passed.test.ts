import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeNonPassed } from '../../../src/core/gap/write-non-passed';
import type { TestReport } from '../../../src/core/pytest/test-report';
import { jsonPair, junitPair, referenceDir, referenceLines, withPlaceholder } from './reference-fixture';

const tmpRoots: string[] = [];
function tmpTask(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-gap-'));
  tmpRoots.push(root);
  return root;
}
after(() => tmpRoots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

const referenceDetailNames = fs.readdirSync(referenceDir).filter((f) => f !== 'summary.jsonl');

function readLines(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

describe('writeNonPassed: parity with the reference folder (acceptance)', () => {
  const root = tmpTask();
  const dir = path.join(root, 'app', 'non-passed');
  let written: Awaited<ReturnType<typeof writeNonPassed>>;

  test('writes summary.jsonl and one detail file per test that ran', async () => {
    written = await writeNonPassed(dir, jsonPair.current, jsonPair.target);
    assert.equal(written.count, 14);
    assert.equal(written.summaryFile, path.join(dir, 'summary.jsonl'));
    assert.equal(written.detailFiles.length, 11);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['summary.jsonl', ...referenceDetailNames.map((n) => n + '.json')].sort());
  });

  test('summary.jsonl equals the reference as a set of lines, detail path aside', () => {
    const ours = readLines(written.summaryFile);
    assert.equal(ours.length, referenceLines.length);
    assert.deepEqual(new Set(ours.map(withPlaceholder)), new Set(referenceLines.map(withPlaceholder)));
    assert.ok(fs.readFileSync(written.summaryFile, 'utf8').endsWith('}\n'));
  });

  test('each description points at the real absolute path of its detail file', () => {
    for (const line of readLines(written.summaryFile)) {
      const m = /Detailed traceback is recorded in (.*)$/.exec((JSON.parse(line) as { description: string }).description);
      if (!m) continue;
      assert.ok(path.isAbsolute(m[1]));
      assert.equal(path.dirname(m[1]), dir);
      assert.ok(fs.existsSync(m[1]), m[1]);
    }
  });

  test("detail files are the reference's bytes (Python's number format: 7.012500009295763e-05, not 0.0000701…)", () => {
    let exponents = 0;
    for (const name of referenceDetailNames) {
      const ours = fs.readFileSync(path.join(dir, name + '.json'), 'utf8');
      const theirs = fs.readFileSync(path.join(referenceDir, name), 'utf8');
      assert.equal(ours, theirs, name);
      if (/\d+e-\d\d/.test(theirs)) exponents++;
    }
    assert.ok(exponents > 0, 'the fixture has numbers JavaScript would print differently');
  });

  test('no staging or old folders are left next to it', () => {
    assert.deepEqual(fs.readdirSync(path.dirname(dir)), ['non-passed']);
  });

  test('shownDir names the folder as the agent sees it', async () => {
    const other = path.join(tmpTask(), 'non-passed');
    await writeNonPassed(other, jsonPair.current, jsonPair.target, { shownDir: '/app/non-passed' });
    const expected = referenceLines.map((l) => l.replace(/(Detailed traceback is recorded in [^"]*)"\}$/, '$1.json"}'));
    assert.deepEqual(new Set(readLines(path.join(other, 'summary.jsonl'))), new Set(expected));
  });
});

describe('writeNonPassed: JUnit pair', () => {
  test('same node ids and same lines; detail files hold a json-report-shaped entry', async () => {
    const dir = path.join(tmpTask(), 'non-passed');
    const w = await writeNonPassed(dir, junitPair.current, junitPair.target);
    assert.equal(w.count, 14);
    const ours = readLines(w.summaryFile);
    assert.deepEqual(new Set(ours.map(withPlaceholder)), new Set(referenceLines.map(withPlaceholder)));
    const td = JSON.parse(fs.readFileSync(path.join(dir, 'tests_test_fixtures.py__test_teardown_error.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(td.nodeid, 'tests/test_fixtures.py::test_teardown_error');
    assert.equal(td.outcome, 'error');
    assert.equal(td.lineno, 22);
    assert.match((td.teardown as { longrepr: string }).longrepr, /teardown saw no power$/);
  });
});

describe('writeNonPassed: replacing the folder', () => {
  const fewer: TestReport = {
    ...jsonPair.current,
    tests: jsonPair.current.tests.map((t) => (t.nodeid.includes('test_stats') ? { ...t, outcome: 'passed' as const } : t)),
  };

  test('old contents are replaced, not merged', async () => {
    const dir = path.join(tmpTask(), 'non-passed');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'stale-from-earlier.json'), '{}');
    await writeNonPassed(dir, jsonPair.current, jsonPair.target);
    assert.equal(fs.existsSync(path.join(dir, 'stale-from-earlier.json')), false);
    const w = await writeNonPassed(dir, fewer, jsonPair.target);
    assert.equal(w.count, 10);
    assert.equal(fs.readdirSync(dir).length, 1 + 7);
    assert.equal(fs.existsSync(path.join(dir, 'tests_test_stats.py__test_mean.json')), false);
  });

  test('nothing non-passed: an empty summary.jsonl and no detail files', async () => {
    const dir = path.join(tmpTask(), 'non-passed');
    const w = await writeNonPassed(dir, jsonPair.target, jsonPair.target);
    assert.equal(w.count, 0);
    assert.deepEqual(fs.readdirSync(dir), ['summary.jsonl']);
    assert.equal(fs.readFileSync(w.summaryFile, 'utf8'), '');
  });

  test('a concurrent reader only ever sees a complete summary.jsonl', async () => {
    const dir = path.join(tmpTask(), 'non-passed');
    await writeNonPassed(dir, jsonPair.current, jsonPair.target);
    const complete = new Set([14, 10]);
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        try {
          const text = await fs.promises.readFile(path.join(dir, 'summary.jsonl'), 'utf8');
          const n = text.split('\n').filter((l) => l !== '').length;
          assert.ok(complete.has(n) && text.endsWith('\n'), `partial summary with ${n} lines`);
          reads++;
        } catch (err) {
          // Between the two renames the folder is briefly absent, never partial.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 0; i < 30; i++) await writeNonPassed(dir, i % 2 ? jsonPair.current : fewer, jsonPair.target);
    writing = false;
    await reader;
    assert.ok(reads > 0);
    assert.deepEqual(fs.readdirSync(path.dirname(dir)), ['non-passed']);
  });
});
