// The digest of what failed (test/harness/failure-digest.ts), read off a real `node --test` spec
// report of a file with a failing test: names and messages are kept, stack frames and the
// error's own fields are not; a log's digest is what follows its last mark.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { FAILURE_DIGEST_MARK, digestOfLog, failingTests } from '../../harness/failure-digest';

const FAILING = `
const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
describe('a suite', () => {
  test('passes', () => {});
  test('compares two numbers', () => assert.equal(1, 2, 'one is not two'));
  test('throws a plain error', () => { throw new Error('the wire said no'); });
});
`;

async function specReport(source: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sweci-digest-'));
  try {
    const file = path.join(dir, 'sample.test.js');
    writeFileSync(file, source);
    // Without the parent runner's NODE_TEST_CONTEXT, which would make the child report to it instead.
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
    const failed = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=spec', file], { env }).then(
      () => undefined,
      (e: { stdout: string }) => e.stdout,
    );
    assert.ok(failed !== undefined, 'the sample file fails');
    return failed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a spec report: each failing test with its message, no stack frames, nothing of the passing test', async () => {
  const digest = failingTests(await specReport(FAILING));
  assert.ok(digest, 'a failing-tests part is found');
  const text = digest.join('\n');
  assert.match(text, /compares two numbers/);
  assert.match(text, /one is not two/);
  assert.match(text, /throws a plain error/);
  assert.match(text, /the wire said no/);
  assert.doesNotMatch(text, /^\s*at /m, 'no stack frame');
  assert.doesNotMatch(text, /generatedMessage|operator/, "no error's own fields");
  assert.doesNotMatch(text, /✔ passes/);
  assert.ok(digest.length <= 10, `short: ${digest.length} lines\n${text}`);
  assert.equal(failingTests('✔ all passed\n'), undefined, 'no failing-tests part, no digest');
});

test('a long digest is cut with a count; a log gives what follows its last mark, or its tail', () => {
  const many = ['✖ failing tests:', ...Array.from({ length: 50 }, (_, i) => `✖ case ${i}`)].join('\n');
  const cut = failingTests(many, 10)!;
  assert.equal(cut.length, 11);
  assert.match(cut[10], /40 more lines/);
  const log = ['noise', FAILURE_DIGEST_MARK, 'old', FAILURE_DIGEST_MARK, 'file.test.js:', '✖ it broke', ''].join('\n');
  assert.deepEqual(digestOfLog(log), ['file.test.js:', '✖ it broke']);
  assert.deepEqual(digestOfLog('a\nb\nc\nd\n', 2), ['c', 'd']);
});
