// Export Report where VS Code runs in a browser (code-server): the toast offers Open in Browser and
// Download, not a file manager. Open in Browser opens the report itself in a new browser page
// (through code-server's port forwarding), with its chart drawn; then the toast is back, and its
// Download saves the exported folder as a .zip that holds the report.
import { execFileSync } from 'node:child_process';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Download, Page } from 'playwright-core';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { SCREENSHOT_DIR, withWorkbench, type Workbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';
import { canvasColours } from './chart';

const agents = path.resolve(__dirname, '../../../../test/fixtures/agents');

function scripted(script: string, env: Record<string, string> = {}): RoleSetup {
  const settings: AgentSettings = { kind: 'custom', command: `python3 ${path.join(agents, script)}`, promptVia: 'stdin', timeoutSec: 120, maxTries: 2, env };
  return { settings };
}

/** Export Report from the palette into the task folder; the toast that says where it went. */
async function exportReport(page: Page, wb: Workbench) {
  await wb.runCommandAndPick('SWE-CI: Export Report', 'in the task folder', 10_000);
  const toast = page.locator('.notification-toast').filter({ hasText: 'SWE-CI report written to' }).last();
  await toast.waitFor({ timeout: 30_000 });
  return toast;
}

export async function exportBrowserScenario(): Promise<string> {
  const task = await prepareDemoTask('export-browser');
  const runtime = new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable });
  await startRun({
    task: taskFolder(task.taskDir),
    run: 'scripted-agents',
    roles: { architect: scripted('architect.py'), programmer: scripted('programmer.py', task.programmerEnv) },
    runtime,
    pytest: { python: 'python3', timeoutMs: 120_000, format: 'junit' as const },
    iterations: 1,
  });
  await runtime.dispose();
  return withWorkbench({ folder: task.taskDir, name: 'export-browser', smokeTestDriver: false }, async (page, wb) => {
    await wb.openSweciView();
    await wb.waitForTreeRow('scripted-agents');
    let toast = await exportReport(page, wb);
    for (const label of ['Open in Browser', 'Download', 'Show in Explorer']) await toast.getByRole('button', { name: label }).waitFor({ timeout: 5_000 });
    if ((await toast.getByRole('button', { name: 'Reveal Folder' }).count()) > 0)
      throw new Error('the web toast offers Reveal Folder, which does nothing there');
    const shot = await wb.screenshot('export-toast-browser', undefined, { keepHover: true });

    // Open in Browser: a new page of this browser, the report itself (not its source), chart drawn.
    const [report] = await Promise.all([
      page.context().waitForEvent('page', { timeout: 30_000 }),
      toast.getByRole('button', { name: 'Open in Browser' }).click(),
    ]);
    await report.waitForLoadState('domcontentloaded');
    if (!new URL(report.url()).pathname.includes('/proxy/')) throw new Error(`the report opened at ${report.url()}, not through code-server's port forwarding`);
    if ((await report.title()) !== 'SWE-CI report · export-browser') throw new Error(`the page opened is "${await report.title()}", not the report`);
    await report.locator('#runs tbody tr').first().waitFor({ timeout: 15_000 });
    if ((await canvasColours(report, 'canvas#chart')) <= 1) throw new Error("the report's chart is blank in the opened page");
    await report.setViewportSize({ width: 1200, height: 900 });
    await report.screenshot({ path: path.join(SCREENSHOT_DIR, 'export-opened-in-browser.png') });
    await report.close();

    // Download, from the same export: the toast came back after Open in Browser, with Download on it.
    // (A toast left alone moves to the notification centre after a while: Download is reachable there too.)
    const withDownload = (sel: string) =>
      page
        .locator(sel)
        .filter({ hasText: 'SWE-CI report written to' })
        .filter({ has: page.getByRole('button', { name: 'Download' }) })
        .last();
    toast = withDownload('.notification-toast');
    const listed = withDownload('.notifications-center .notification-list-item');
    await toast
      .or(listed)
      .waitFor({ timeout: 5_000 })
      .catch(async () => {
        await page.locator('.statusbar-item .codicon-bell-dot, .statusbar-item .codicon-bell').first().click();
        await listed.waitFor({ timeout: 15_000 }).catch(() => {
          throw new Error('the export toast is gone after Open in Browser: Download is out of reach without exporting again');
        });
      });
    if (!(await toast.isVisible())) toast = listed;
    if ((await toast.getByRole('button', { name: 'Open in Browser' }).count()) > 0) throw new Error('the toast that came back offers Open in Browser again');
    console.log(`  also ${path.relative(process.cwd(), await wb.screenshot('export-toast-after-browser', undefined, { keepHover: true }))}`);
    const download = new Promise<Download>((resolve) => {
      page.once('download', resolve);
      page.context().once('page', (p) => p.once('download', resolve));
    });
    await toast.getByRole('button', { name: 'Download' }).click();
    const saved = await Promise.race([
      download,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Download started no download')), 30_000)),
    ]);
    if (!/^export-.*\.zip$/.test(saved.suggestedFilename())) throw new Error(`the download is named ${saved.suggestedFilename()}`);
    const file = path.join(SCREENSHOT_DIR, 'export-download.zip');
    await saved.saveAs(file);
    const names = execFileSync(
      'python3',
      ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(*sorted(z.namelist()))', file],
      {
        encoding: 'utf8',
      },
    ).trim();
    fs.rmSync(file, { force: true });
    if (names !== 'metrics.csv metrics.json report.html') throw new Error(`the downloaded .zip holds ${names}`);
    return shot;
  });
}
