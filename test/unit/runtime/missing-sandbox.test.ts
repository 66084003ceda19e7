// A security test on a machine without bubblewrap must fail (a skipped test passes, and a CI
// machine that lost it would look confined), unless the developer says skipping is intended.
// Each case runs a security test's guard in a node process of its own, with bubblewrap hidden
// from the product's own lookup (a PATH without it) or not.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { missingSandbox } from '../helpers/require-sandbox';

const HELPER = path.join(__dirname, '..', 'helpers', 'require-sandbox.js');
const SANDBOX = path.join(__dirname, '..', '..', '..', 'src', 'core', 'runtime', 'sandbox.js');

let tmp: string;
let guarded: string;

/** The guard every security test starts with, then what it proves when the sandbox is there. */
const GUARDED_TEST = [
  "const { test } = require('node:test');",
  `const { findBubblewrap } = require(${JSON.stringify(SANDBOX)});`,
  `const { missingSandbox } = require(${JSON.stringify(HELPER)});`,
  "test('a security test', async (t) => {",
  '  const bwrap = await findBubblewrap();',
  '  if (!bwrap) return missingSandbox(t);',
  "  console.log('confined with', bwrap);",
  '});',
].join('\n');

function runGuarded(env: Record<string, string | undefined>): { status: number | null; out: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.SWECI_ALLOW_MISSING_TOOLS;
  delete childEnv.NODE_TEST_CONTEXT; // else node runs the file as part of this test run, not on its own
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', guarded], { env: childEnv, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('a security test without bubblewrap', { skip: process.platform !== 'linux' && 'bubblewrap is Linux only' }, () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-missing-sandbox-'));
    guarded = path.join(tmp, 'guarded.test.js');
    await fs.writeFile(guarded, GUARDED_TEST);
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  // No folder on PATH holds bwrap (the product looks for it there, outside task folders).
  const hidden = () => ({ PATH: path.join(tmp, 'empty-bin') });

  test('fails, saying bubblewrap is not installed and what to install', () => {
    const r = runGuarded(hidden());
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /^# fail 1$/m, r.out);
    assert.match(r.out, /bubblewrap cannot run here \(bwrap is not on PATH outside a task folder\)/, r.out);
    assert.match(r.out, /install it with `apt-get install bubblewrap` \(or run `bash scripts\/setup\.sh`\)/, r.out);
    assert.match(r.out, /set SWECI_ALLOW_MISSING_TOOLS=bubblewrap to skip them on purpose/, r.out);
  });

  test('is skipped only when SWECI_ALLOW_MISSING_TOOLS names bubblewrap', () => {
    for (const allowed of ['bubblewrap', 'docker, Bubblewrap']) {
      const r = runGuarded({ ...hidden(), SWECI_ALLOW_MISSING_TOOLS: allowed });
      assert.equal(r.status, 0, r.out);
      assert.match(r.out, /^# skipped 1$/m, r.out);
      assert.match(r.out, /# SKIP bubblewrap cannot run here \(SWECI_ALLOW_MISSING_TOOLS=/, r.out);
    }
    for (const other of ['docker', '1', '']) {
      const r = runGuarded({ ...hidden(), SWECI_ALLOW_MISSING_TOOLS: other });
      assert.equal(r.status, 1, `${other}: ${r.out}`);
      assert.match(r.out, /^# fail 1$/m, r.out);
    }
  });

  test('with bubblewrap present the test runs, whatever the variable says', async (t) => {
    if (!(await findBubblewrap())) return missingSandbox(t);
    for (const allowed of [undefined, 'bubblewrap']) {
      const r = runGuarded({ SWECI_ALLOW_MISSING_TOOLS: allowed });
      assert.equal(r.status, 0, r.out);
      assert.match(r.out, /^# pass 1$/m, r.out);
      assert.match(r.out, /confined with \/.*bwrap/, r.out);
    }
  });
});
