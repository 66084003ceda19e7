// What a person is told between steps, and what the role rows do: clicking the Task view's
// Architect row opens its settings; Run Architect ends by offering Run Programmer, which ends by
// offering Run Tests, which records the iteration. Then a human Programmer who edits a test file
// is told that *they* did (not "the agent"). No smoke-test driver, so toasts show.
import * as fs from 'node:fs';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { withWorkbench } from '../../harness/workbench';
import { demoSettings, prepareDemoTask, startDemoTaskModel } from '../demo-task';

/** The toast whose text matches, once it shows. */
async function toast(page: Page, text: RegExp, timeout = 240_000) {
  const t = page.locator('.notification-toast').filter({ hasText: text }).first();
  await t.waitFor({ timeout });
  return t;
}

export async function nextStepScenario(): Promise<string> {
  const task = await prepareDemoTask('next-step');
  const model = await startDemoTaskModel(task);
  const settings = demoSettings(model);
  try {
    return await withWorkbench({ folder: task.taskDir, name: 'next-step', settings, smokeTestDriver: false }, async (page, wb) => {
      await wb.openSweciView();
      const architectRow = await wb.waitForTreeRow(/Architect.*custom: demo-agent\.py/);
      await architectRow.click();
      // The Settings editor, searching the Architect's settings.
      await page.locator('.settings-editor .setting-item-title').filter({ hasText: 'Architect: Agent' }).first().waitFor({ timeout: 30_000 });
      // The search box is a small Monaco editor: its text is in its view lines.
      const query = ((await page.locator('.settings-editor .suggest-input-container .view-lines').first().textContent()) ?? '').replace(/\u00a0/g, ' ').trim();
      if (!query.startsWith('sweci.architect')) throw new Error(`the Architect row opened the settings searching "${query}"`);
      // The Settings editor opens as a tab or, in newer VS Code, over the workbench: close either.
      await page.keyboard.press('Escape');
      if (await page.locator('.settings-editor').first().isVisible()) await wb.runCommand('View: Close Editor');

      await wb.runCommand('SWE-CI: Run Architect');
      const afterArchitect = await toast(page, /the Architect wrote requirement\.xml\. Next: Run Programmer/);
      await afterArchitect.getByRole('button', { name: 'Run Programmer' }).click();
      const afterProgrammer = await toast(page, /the Programmer is done\. Next: Run Tests/);
      await page.waitForTimeout(300);
      const shot = await wb.screenshot('next-step', undefined, { keepHover: true });
      await afterProgrammer.getByRole('button', { name: 'Run Tests' }).click();
      await toast(page, /iteration #1 recorded/);

      // A human Programmer who edits a test file: the warning names them.
      await wb.runCommand("SWE-CI: I'll Be the Programmer");
      await toast(page, /You are the Programmer of iteration 2/);
      const tests = path.join(taskFolder(task.taskDir).codeDir, 'tests');
      const testFile = fs.readdirSync(tests).find((f) => /^test_.*\.py$/.test(f));
      if (!testFile) throw new Error(`no test file in ${tests}`);
      fs.appendFileSync(path.join(tests, testFile), '\n# an edit by the person playing the Programmer\n');
      await wb.runCommand('SWE-CI: Submit Iteration');
      // The warning comes with the iteration's own message; toasts beyond three wait in the
      // notification centre, so look there.
      await toast(page, /iteration #2 recorded/);
      await wb.runCommand('Notifications: Show Notifications');
      const warning = page
        .locator('.notifications-center .notification-list-item')
        .filter({ hasText: /Iteration 2: (.*) changed (.*)test file/ })
        .first();
      await warning.waitFor({ timeout: 30_000 });
      const said = ((await warning.textContent()) ?? '').replace(/\s+/g, ' ');
      if (!said.includes('Iteration 2: you changed a test file') || !said.includes(testFile)) throw new Error(`the tampering warning says: ${said}`);
      return shot;
    });
  } finally {
    await model.close();
  }
}
