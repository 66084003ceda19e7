// The Iterations view and the status bar after a scripted agent run and the human-history
// replay (both recorded through the core loop, as the extension's commands do: scripted-runs.ts).
import { withWorkbench } from '../../harness/workbench';
import { scriptedAndHumanTask } from '../scripted-runs';

export async function iterationsScenario(): Promise<string> {
  const task = await scriptedAndHumanTask('iterations');

  return withWorkbench({ folder: task.taskDir, name: 'iterations', viewport: { width: 1400, height: 860 } }, async (page, wb) => {
    await wb.openSweciView();
    // Give the Iterations view the room: fold the two views above it.
    await wb.foldViews('Task', 'Non-Passed Tests');
    await wb.widenSideBar(700);
    const runRow = await wb.waitForTreeRow('scripted-agents');
    await runRow.click();
    const latest = await wb.waitForTreeRow(/#4.*a\(c\)/);
    // A click opens the iteration view; the arrow key (focus stays in the tree) lists its files.
    await latest.click();
    await page.keyboard.press('ArrowRight');
    await wb.waitForTreeRow('requirement.xml changes');
    await (await wb.waitForTreeRow('human-history')).click();
    await wb.waitForTreeRow(/#10.*gap 0/);
    // The status bar names task · run · iteration · a(c).
    await page
      .locator('.part.statusbar')
      .filter({ hasText: /demo__tinyinventory-0001 · scripted-agents · #4 · a\(c\)/ })
      .first()
      .waitFor({ timeout: 30_000 });
    return wb.screenshot('iterations');
  });
}
