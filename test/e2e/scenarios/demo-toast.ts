// The demo as a person runs it (no smoke-test driver, so toasts show): Run Iteration with the
// scripted agents puts up the progress toast with its Cancel button while the steps run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withWorkbench } from '../../harness/workbench';
import { demoAgentSettings, prepareDemoTask } from '../demo-task';

export async function demoToastScenario(): Promise<string> {
  const task = await prepareDemoTask('demo-toast');
  const settings = demoAgentSettings(task);
  return withWorkbench(
    { folder: task.taskDir, name: 'demo-toast', settings, smokeTestDriver: false, viewport: { width: 1400, height: 860 } },
    async (page, wb) => {
      await wb.openSweciView();
      // Before the first run, the Task view names who plays each role, and the welcome points there.
      await wb.waitForTreeRow(/Architect.*custom: architect\.py/);
      await wb.waitForTreeRow(/Programmer.*custom: programmer\.py/);
      await page
        .locator('.part.sidebar')
        .filter({ hasText: "The Task view's Architect and Programmer rows say who plays each role" })
        .first()
        .waitFor({ timeout: 30_000 });
      await wb.screenshot('roles-before-run');
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
      const progress = await wb.screenshot('demo-progress', undefined, { keepHover: true });
      // When it ends: the new iteration is selected in the view, and a message says what happened.
      const done = page
        .locator('.notification-toast')
        .filter({ hasText: /iteration #1 recorded/ })
        .first();
      const failed = page
        .locator('.notification-toast')
        .filter({ hasText: /Run Iteration failed/ })
        .first();
      await Promise.race([done.waitFor({ timeout: 240_000 }), failed.waitFor({ timeout: 240_000 })]);
      if (await failed.isVisible()) {
        // Say why, from the agents' own logs: the toast only has their exit codes.
        const runs = path.join(task.taskDir, '.sweci', 'runs');
        const logs = fs
          .readdirSync(runs, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('try-1.log'))
          .map((f) => `${f}:\n${fs.readFileSync(path.join(runs, f), 'utf8').slice(-1500)}`);
        throw new Error(`Run Iteration failed: ${await failed.textContent()}\n${logs.join('\n')}`);
      }
      await done.getByRole('button', { name: 'Open Iteration' }).waitFor({ timeout: 5_000 });
      await done.getByRole('button', { name: 'Show Chart' }).waitFor({ timeout: 5_000 });
      // A state, not a while: the cap only bounds a failure (the view refreshes, then reveals).
      await page.locator('.part.sidebar .monaco-list-row.selected').filter({ hasText: '#1' }).first().waitFor({ timeout: 120_000 });
      await wb.screenshot('iteration-recorded', undefined, { keepHover: true });

      // Export Report: in the browser there is no file manager, so the toast offers the Explorer, and it works.
      await wb.runCommand('SWE-CI: Export Report');
      const first = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'in the task folder' }).first();
      await first.waitFor({ timeout: 10_000 });
      await first.click();
      const written = page.locator('.notification-toast').filter({ hasText: 'SWE-CI report written to' }).first();
      await written.waitFor({ timeout: 30_000 });
      if ((await written.getByRole('button', { name: 'Reveal Folder' }).count()) > 0)
        throw new Error('the web toast offers Reveal Folder, which does nothing there');
      await written.getByRole('button', { name: 'Show in Explorer' }).click();
      await page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'report.html' }).first().waitFor({ timeout: 15_000 });
      return progress;
    },
  );
}
