// Test Explorer fed by SWE-CI: the task's tests with their states in the Testing view, and the
// failure peek opened on a failing test's line in its file.
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

export async function testingScenario(): Promise<string> {
  const task = await prepareDemoTask('testing');
  return withWorkbench({ folder: task.taskDir, name: 'testing', viewport: { width: 1500, height: 900 } }, async (page, wb) => {
    // The SWE-CI view first: it activates the extension, which fills Test Explorer.
    await wb.openSweciView();
    await wb.waitForTreeRow('test_csvio.py');
    await wb.clickActivityBarItem('Testing');
    await (await wb.waitForTreeRow('test_csvio.py')).click();
    await page.keyboard.press('ArrowRight');
    await wb.waitForTreeRow('test_load_names_the_bad_line');

    // Open the test file and go to its first failure: the peek shows the message at its line.
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('tests/test_csvio.py');
      const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'test_csvio.py' }).first();
      if (
        await row.waitFor({ timeout: 15_000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      if (attempt === 4) throw new Error('Quick Open never listed tests/test_csvio.py');
      await page.keyboard.press('Escape');
    }
    await page.keyboard.press('Enter');
    await page.locator('.tab').filter({ hasText: 'test_csvio.py' }).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    // Right-click the failed test's status in the gutter: its menu peeks the failure.
    const glyph = page.locator('.monaco-editor .glyph-margin-widgets .codicon-testing-failed-icon');
    await glyph.first().waitFor({ timeout: 30_000 });
    const peekView = page.locator('.monaco-editor .peekview-widget').first();
    // A context menu ignores a click that comes right after it opened (the right button's
    // release must not pick an item): the click on its item waits a moment, longer on a retry.
    for (let attempt = 1; ; attempt++) {
      await glyph.first().click({ button: 'right' }); // test_load_names_the_bad_line: failed at call
      const peek = page
        .locator('.context-view .action-item')
        .filter({ hasText: /Peek (Error|Output)/ })
        .first();
      await peek.waitFor({ timeout: 10_000 });
      await page.waitForTimeout(500 * attempt);
      await peek.click();
      const shown = await peekView.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (shown) break;
      if (attempt === 3) throw new Error('the failure peek did not open from the gutter menu');
      await page.keyboard.press('Escape');
    }
    await page.waitForTimeout(1500);
    return wb.screenshot('testing-peek');
  });
}
