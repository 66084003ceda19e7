// The SWE-CI side bar at VS Code's default width, as a person first sees it: no row of the Task,
// Non-Passed Tests or Iterations views may be cut off ("…"); details live in tooltips.
import { taskFolder } from '../../../src/core/workspace/task-folder';
import type { Page } from 'playwright-core';
import { replayHumanHistory } from '../../../src/core/history/replay-history';
import { withWorkbench } from '../../harness/workbench';
import { SCRIPTED_PYTEST, scriptedAgentsTask, scriptedRuntime } from '../scripted-runs';

/** The side bar's visible tree rows whose label or description does not fit, with their view. */
export async function cutRows(page: Page): Promise<{ view: string; row: string }[]> {
  return page.evaluate(() => {
    const cut: { view: string; row: string }[] = [];
    for (const row of Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row'))) {
      if ((row as HTMLElement).offsetParent === null) continue;
      const container = row.querySelector<HTMLElement>('.monaco-icon-label-container');
      if (!container || container.scrollWidth <= container.clientWidth + 1) continue;
      const view = row.closest('.pane')?.querySelector('.pane-header .title')?.textContent ?? '?';
      cut.push({ view, row: row.getAttribute('aria-label') ?? row.textContent ?? '' });
    }
    return cut;
  });
}

/** The Task view's height, and the height its rows need: the view must show every row without scrolling. */
async function taskViewFit(page: Page): Promise<{ shown: number; needed: number }> {
  return page.evaluate(() => {
    const pane = Array.from(document.querySelectorAll<HTMLElement>('.part.sidebar .pane')).find(
      (p) => p.querySelector('.pane-header .title')?.textContent?.trim().toLowerCase() === 'task',
    );
    const list = pane?.querySelector<HTMLElement>('.monaco-list');
    const rows = list?.querySelector<HTMLElement>('.monaco-list-rows');
    if (!list || !rows) throw new Error('the Task view has no list');
    return { shown: list.offsetHeight, needed: parseFloat(rows.style.height) || rows.offsetHeight };
  });
}

export async function sidebarScenario(): Promise<string> {
  // The scripted agents' two iterations as iteration-reload records them (once per tier), then the developers' history.
  const task = await scriptedAgentsTask('sidebar', 2);
  const runtime = await scriptedRuntime(task);
  await replayHumanHistory({ ...SCRIPTED_PYTEST, task: taskFolder(task.taskDir), runtime });

  // VS Code's own default layout: the window of a 1366×768 laptop, the side bar as it opens.
  return withWorkbench({ folder: task.taskDir, name: 'sidebar', viewport: { width: 1366, height: 768 } }, async (page, wb) => {
    // A task folder opened for the first time shows the SWE-CI view by itself, not the Explorer.
    const sideBarTitle = () => page.evaluate(() => document.querySelector('.part.sidebar .composite.title h2')?.textContent?.trim() ?? '');
    await page
      .waitForFunction(() => document.querySelector('.part.sidebar .composite.title h2')?.textContent?.trim() === 'SWE-CI', undefined, { timeout: 120_000 })
      .catch(async () => {
        throw new Error(`the side bar shows ${JSON.stringify(await sideBarTitle())} where a newly opened task folder should show SWE-CI`);
      });
    await wb.openSweciView();
    await (await wb.waitForTreeRow('scripted-agents')).click();
    await wb.waitForTreeRow(/#2.*a\(c\)/);
    await (await wb.waitForTreeRow('human-history')).click();
    await wb.waitForTreeRow(/#10.*gap 0/);
    // The Architect's row: who plays the role and what it may do (sandboxed here: every action).
    await wb.waitForTreeRow(/Architect/);
    await page.mouse.move(900, 600); // no hover over a row
    await wb.waitForIdle();
    const width = await page.locator('.part.sidebar').evaluate((e) => (e as HTMLElement).offsetWidth);
    const cut = await cutRows(page);
    const file = await wb.screenshot('sidebar-default-width');
    // A test's own name can be longer than the side bar (its reason is in the tooltip); every
    // other row is ours to keep short.
    const ours = cut.filter((c) => c.view.toLowerCase() !== 'non-passed tests');
    if (ours.length)
      throw new Error(`at the default side bar width (${width} px) these rows are cut off:\n${ours.map((c) => `${c.view}: ${c.row}`).join('\n')}`);
    console.log(`sidebar: ${cut.length} Non-Passed Tests rows are wider than ${width} px (long test names and reasons; whole in their tooltips)`);
    const fit = await taskViewFit(page);
    if (fit.needed > fit.shown + 1) throw new Error(`the Task view shows ${fit.shown} px of the ${fit.needed} px its rows need: its last rows are cut off`);
    // Its tooltip names each role's endpoint and permissions.
    await wb.hoverTreeRow(/Architect/, 'allowed: every action accepted (confined)');
    console.log(`  also ${await wb.screenshot('sidebar-agents', undefined, { keepHover: true })}`);
    return file;
  });
}
