// The Non-passed tests view of the checked-out demo task: rows, header counts, a tooltip.
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

export async function nonPassedScenario(): Promise<string> {
  const task = await prepareDemoTask('non-passed');
  return withWorkbench({ folder: task.taskDir, name: 'non-passed', viewport: { width: 1400, height: 860 } }, async (page, wb) => {
    await wb.openSweciView();
    await wb.waitForTreeRow('test_csvio.py');
    // A task with upstream history offers to replay it (an instance does not: see swe-bench).
    const welcome = await wb.waitForWelcomeView('No runs yet');
    if (!/Record Human History/.test(await welcome.innerText())) throw new Error('the Iterations view does not offer Record Human History');
    // Widen the side bar so the reasons are readable, as a user would.
    await wb.foldViews('Iterations');
    await wb.widenSideBar(640);
    // The header shows passed now / passed by target · gap.
    const header = `${task.passedNow} / ${task.passedByTarget} passed · gap ${task.expectedGap}`;
    await page.locator('.part.sidebar .pane-header:not(.hidden)').filter({ hasText: header }).first().waitFor({ timeout: 30_000 });
    // A failed test, an error at setup and a not-collected test are all shown with their reasons.
    await wb.waitForTreeRow(/test_roundtrip_keeps_every_item.*setup: ImportError/);
    await wb.waitForTreeRow(/test_low_stock_with_zero_threshold/);
    // Clicking a test opens its file at the test.
    const row = await wb.waitForTreeRow('test_low_stock_with_zero_threshold');
    await row.click();
    await page.locator('.editor-group-container .tab').filter({ hasText: 'test_inventory.py' }).first().waitFor({ timeout: 30_000 });
    await page
      .locator('.monaco-editor .current-line ~ * , .monaco-editor .view-line')
      .filter({ hasText: 'def test_low_stock_with_zero_threshold' })
      .first()
      .waitFor({ timeout: 30_000 });
    return wb.screenshot('non-passed');
  });
}
