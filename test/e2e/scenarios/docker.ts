// A task checked out in its Docker environment: the Task view's Runtime row names the image,
// Run Tests runs in a container, the status bar says Docker, and the last run says which
// report plugin wrote its report.
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

export async function dockerScenario(): Promise<string> {
  const task = await prepareDemoTask('docker', { docker: true });
  return withWorkbench({ folder: task.taskDir, name: 'docker', viewport: { width: 1400, height: 860 } }, async (page, wb) => {
    await wb.openSweciView();
    await wb.waitForTreeRow(/Runtime.*docker · sweci\/demo-env/);
    await wb.widenSideBar(480);
    // Running the tests opens the task's environment in the extension: a container from its image.
    await wb.runCommand('SWE-CI: Run Tests and Refresh');
    await page.locator('.statusbar-item').filter({ hasText: 'docker' }).first().waitFor({ timeout: 120_000 });
    const header = `${task.passedNow} / ${task.passedByTarget} passed · gap ${task.expectedGap}`;
    await page.locator('.part.sidebar .pane-header:not(.hidden)').filter({ hasText: header }).first().waitFor({ timeout: 60_000 });
    // The tooltip of the Runtime row tells the image id and where the setting is.
    await wb.hoverTreeRow(/Runtime/, 'At checkout');
    const main = await wb.screenshot('docker');
    // The image has no pytest-json-report: the Last pytest run row says our plugin wrote the report.
    // Below the Agents row it can sit half under the next view's header: give the Task view the room.
    await wb.foldViews('Non-Passed Tests', 'Iterations');
    await wb.hoverTreeRow(/Last pytest run/, "Report: SWE-CI's report plugin");
    console.log(`  also ${await wb.screenshot('docker-report', undefined, { keepHover: true })}`);
    return main;
  });
}
