// The demo as a person runs it (no smoke-test driver, so toasts show): Run Iteration with the
// scripted agents puts up the progress toast with its Cancel button while the steps run.
import * as path from 'node:path';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

const agents = path.resolve(__dirname, '../../../../test/fixtures/agents');

export async function demoToastScenario(): Promise<string> {
  const task = await prepareDemoTask('demo-toast');
  const settings = {
    'sweci.architect.agent': 'custom',
    'sweci.architect.customCommand': `python3 ${JSON.stringify(path.join(agents, 'architect.py'))}`,
    'sweci.programmer.agent': 'custom',
    'sweci.programmer.customCommand': `python3 ${JSON.stringify(path.join(agents, 'programmer.py'))}`,
    'sweci.programmer.env': task.programmerEnv,
    'sweci.sandboxReadablePaths': task.sandboxReadable,
  };
  return withWorkbench(
    { folder: task.taskDir, name: 'demo-toast', settings, smokeTestDriver: false, viewport: { width: 1400, height: 860 } },
    async (page, wb) => {
      await wb.openSweciView();
      await wb.foldViews('Task');
      const run = page
        .locator('.part.sidebar .monaco-button')
        .filter({ hasText: /^Run Iteration$/ })
        .first();
      await run.waitFor({ timeout: 60_000 });
      await run.click();
      // The toast names the step and offers Cancel; catch it while a step runs.
      const toast = page
        .locator('.notification-toast')
        .filter({ hasText: /SWE-CI/ })
        .first();
      await toast.waitFor({ timeout: 60_000 });
      await toast.locator('.monaco-button, a.monaco-button').filter({ hasText: 'Cancel' }).first().waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300);
      return wb.screenshot('demo-progress', undefined, { keepHover: true });
    },
  );
}
