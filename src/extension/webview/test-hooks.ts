// Whether the extension runs under the test harness (test/integration/run.ts and the e2e
// harness set SWECI_TEST_HOOKS=1): only then do the webviews report what they drew and their
// hosts keep logs of the messages for the test API. Never on in normal use.
export const TEST_HOOKS_ENV = 'SWECI_TEST_HOOKS';

export function testHooksEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[TEST_HOOKS_ENV] === '1';
}
