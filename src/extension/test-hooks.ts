// Test-only surfaces (the API activate() returns, the messages it records, the webviews' message
// logs and the chart's 'rendered' report) exist only when the
// extension host runs under the test harness, which sets SWECI_TEST_HOOKS=1
// (test/integration/run.ts, test/harness/workbench.ts). A person's VS Code never has them.
export const TEST_HOOKS_ENV = 'SWECI_TEST_HOOKS';

export function testHooksEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[TEST_HOOKS_ENV] === '1';
}
