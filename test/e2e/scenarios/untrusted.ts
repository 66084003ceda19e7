// In an untrusted (restricted) workspace the tree shows the last report, but Refresh never
// runs pytest and the user is told why.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

export async function untrustedScenario(): Promise<string> {
  const task = await prepareDemoTask('untrusted');
  const runFile = path.join(task.taskDir, '.sweci', 'reports', 'current.run.json');
  const before = fs.readFileSync(runFile, 'utf8');
  return withWorkbench({ folder: task.taskDir, name: 'untrusted', workspaceTrust: true }, async (page, wb) => {
    await wb.openSweciView();
    await wb.waitForTreeRow('test_csvio.py');
    await wb.waitForWelcomeView('SWE-CI runs no agent and no pytest here');
    await wb.runCommand('SWE-CI: Run Tests and Refresh');
    // The warning may already have left the toasts; the notification center keeps it.
    await wb.runCommand('Notifications: Show Notifications');
    await page
      .locator('.notifications-center, .notifications-toasts')
      .filter({ hasText: 'this workspace is not trusted' })
      .first()
      .waitFor({ timeout: 30_000 });
    // Give a (wrongly) started pytest time to finish, then check nothing ran.
    await page.waitForTimeout(4000);
    if (fs.readFileSync(runFile, 'utf8') !== before) throw new Error('pytest ran in an untrusted workspace');
    return wb.screenshot('untrusted');
  });
}
