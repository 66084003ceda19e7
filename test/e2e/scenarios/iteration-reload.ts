// The iteration view comes back after Developer: Reload Window: VS Code recreates the panel, the
// webview host (webview-host.ts) hands the panel what it kept (run, iteration, test report) and
// the page its own state (the report's filter). Opened on an iteration's test report from the
// Iterations view, filtered, reloaded: the same report, the same filter.
import { withWorkbench } from '../../harness/workbench';
import { scriptedAgentsTask } from '../scripted-runs';
import { iterationFrame } from './inspect';

export async function iterationReloadScenario(): Promise<string> {
  const task = await scriptedAgentsTask('iteration-reload', 2);

  return withWorkbench({ folder: task.taskDir, name: 'iteration-reload' }, async (page, wb) => {
    await wb.openSweciView();
    await wb.foldViews('Task', 'Non-Passed Tests');
    await (await wb.waitForTreeRow('scripted-agents')).click();
    await page.mouse.move(900, 700);
    await (await wb.waitForTreeRow(/#2(?!\d).*a\(c\)/)).click();
    await page.keyboard.press('ArrowRight');
    await page.mouse.move(900, 700);
    await (await wb.waitForTreeRow('test report')).click();
    const heading = /scripted-agents\s+iteration 2 of 2 · test report/;
    const report = await iterationFrame(page, heading);
    await report.locator('table.report tbody tr').first().waitFor({ timeout: 10_000 });
    await report.locator('#report-filter').fill('test_');
    const count = (await report.locator('#report-count').textContent()) ?? '';
    if (!/^\d+ of \d+ tests$/.test(count)) throw new Error(`the filter's count reads "${count}"`);

    await wb.reloadWindow();
    // Not opened by anything after the reload: VS Code brought the panel back, and the host its report.
    const again = await iterationFrame(page, heading, 120_000);
    await again.locator('table.report tbody tr').first().waitFor({ timeout: 30_000 });
    const filter = await again.locator('#report-filter').inputValue();
    if (filter !== 'test_') throw new Error(`after the reload the report's filter is "${filter}", not "test_"`);
    await again.locator('#report-count').filter({ hasText: count }).waitFor({ timeout: 10_000 });
    return wb.screenshot('iteration-reload');
  });
}
