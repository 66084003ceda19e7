// The security tests prove what the sandbox holds. Where bubblewrap cannot run they fail, so a CI
// machine that lost it is seen (a skipped test passes); a developer without it may skip them by
// saying so explicitly: SWECI_ALLOW_MISSING_TOOLS=bubblewrap (a comma-separated list of tools),
// which .ci/run clears. The Docker tests are never skipped (helpers/docker.ts says what to run).
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { probeBubblewrap } from '../../../src/core/runtime/sandbox';

export const ALLOW_MISSING_TOOLS = 'SWECI_ALLOW_MISSING_TOOLS';

/** The tools SWECI_ALLOW_MISSING_TOOLS names, lower-cased. */
export function toolsAllowedMissing(env: NodeJS.ProcessEnv = process.env): Set<string> {
  return new Set(
    (env[ALLOW_MISSING_TOOLS] ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * Called by a security test that found no sandbox: skips it when the developer allowed that,
 * else fails it, saying why bubblewrap cannot run here and what to install.
 */
export async function missingSandbox(t: TestContext, what = 'bubblewrap cannot run here'): Promise<void> {
  if (toolsAllowedMissing().has('bubblewrap')) return t.skip(`${what} (${ALLOW_MISSING_TOOLS}=${process.env[ALLOW_MISSING_TOOLS]})`);
  assert.fail(`${what}${await whyNoSandbox()}. ${fix()}`);
}

async function whyNoSandbox(): Promise<string> {
  const probe = await probeBubblewrap();
  if ('bwrap' in probe) return ` (${probe.bwrap} works: SWECI_TEST_SANDBOX=off hides it from this test)`;
  if (probe.problem === 'refused') return ` (bubblewrap is installed but refused to start: ${probe.detail ?? 'no reason given'})`;
  if (probe.problem === 'not-linux') return ' (it needs Linux)';
  return ` (${probe.detail ?? 'bwrap is not on PATH outside a task folder'})`;
}

function fix(): string {
  return (
    'These security tests fail, not skip, without it: install it with `apt-get install bubblewrap` (or run `bash scripts/setup.sh`), ' +
    `or set ${ALLOW_MISSING_TOOLS}=bubblewrap to skip them on purpose.`
  );
}
