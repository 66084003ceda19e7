// The security tests prove what the sandbox holds. Where bubblewrap cannot run they fail, so a CI
// machine that lost it is seen; a developer without it may skip them, by saying so explicitly
// (SWECI_ALLOW_NO_SANDBOX=1, which .ci/run never sets).
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

export function missingSandbox(t: TestContext, what = 'bubblewrap cannot run here'): void {
  if (process.env.SWECI_ALLOW_NO_SANDBOX === '1') return t.skip(`${what} (SWECI_ALLOW_NO_SANDBOX=1)`);
  assert.fail(`${what}: install bubblewrap (bash scripts/setup.sh), or set SWECI_ALLOW_NO_SANDBOX=1 to skip the security tests.`);
}
