// The chart webview with a scripted agent run and the human-history replay, in the light and
// the dark theme; then Export Report, and the exported HTML opened offline in chromium.
import * as fs from 'node:fs';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startRun } from '../../../src/core/loop/run-loop';
import { SCREENSHOT_DIR, waitForWorkbench, withBrowserContext, withWorkbench } from '../../harness/workbench';
import { SCRIPTED_PYTEST, scriptedAndHumanTask, scriptedRole, scriptedRuntime } from '../scripted-runs';

/** Distinct colours on a canvas: more than one means something was drawn. */
export async function canvasColours(frame: Frame | Page, selector: string): Promise<number> {
  return frame.evaluate((sel) => {
    const c = document.querySelector<HTMLCanvasElement>(sel);
    if (!c || c.width === 0 || c.height === 0) return 0;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length && seen.size < 50; i += 16) seen.add((d[i] << 24) | (d[i + 1] << 16) | (d[i + 2] << 8) | d[i + 3]);
    return seen.size;
  }, selector);
}

/** The webview is an iframe inside an iframe: find the frame that holds the chart canvas. */
export async function chartFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const start = Date.now();
  for (;;) {
    for (const f of page.frames()) {
      if (await f.$('canvas#chart').catch(() => null)) {
        if ((await canvasColours(f, 'canvas#chart').catch(() => 0)) > 1) return f;
      }
    }
    if (Date.now() - start > timeoutMs) throw new Error('the chart webview did not draw its canvas');
    await page.waitForTimeout(250);
  }
}

/**
 * Opens an exported page from disk in chromium with the network off, runs `check` on it, fails if
 * the page asked for anything but a file or threw, and saves it whole as test-results/e2e/<name>.png.
 */
export async function checkOfflinePage(
  html: string,
  name: string,
  viewport: { width: number; height: number },
  check: (page: Page) => Promise<void>,
): Promise<string> {
  return withBrowserContext({ viewport }, async (context) => {
    await context.setOffline(true);
    const requests: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${html}`);
    await check(page);
    if (requests.length) throw new Error(`${name}: the page tried the network: ${requests.join(', ')}`);
    if (errors.length) throw new Error(`${name}: the page threw: ${errors.join('; ')}`);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  });
}

/** report.html of the newest export under the task's .sweci/reports/, once all three files are written. */
function exportedReport(taskDir: string): string | undefined {
  const reports = path.join(taskDir, '.sweci', 'reports');
  const folder = fs.existsSync(reports)
    ? fs
        .readdirSync(reports)
        .filter((n) => n.startsWith('export-'))
        .sort()
        .pop()
    : undefined;
  const html = folder && path.join(reports, folder, 'report.html');
  return html && fs.existsSync(path.join(reports, folder, 'metrics.json')) ? html : undefined;
}

export async function chartScenario(): Promise<string> {
  const task = await scriptedAndHumanTask('chart');
  const runtime = await scriptedRuntime(task);
  const pytest = SCRIPTED_PYTEST;
  // A run whose score is inflated (a code-owned table grew a parametrized target test): its row is flagged.
  await startRun({
    task: taskFolder(task.taskDir),
    run: 'table-grower',
    roles: { architect: scriptedRole('architect.py'), programmer: scriptedRole('grow-table.py') },
    runtime,
    pytest,
    iterations: 1,
  });

  const shots: string[] = [];
  for (const [theme, name] of [
    ['Default Light Modern', 'chart-light'],
    ['Default Dark Modern', 'chart-dark'],
  ] as const) {
    shots.push(
      await withWorkbench(
        { folder: task.taskDir, name, viewport: { width: 1400, height: 960 }, settings: { 'workbench.colorTheme': theme } },
        async (page, wb) => {
          await wb.openSweciView();
          await wb.waitForTreeRow('scripted-agents');
          await wb.runCommand('SWE-CI: Show Chart');
          const frame = await chartFrame(page);
          await frame.locator('#runs tbody tr').nth(1).waitFor({ timeout: 30_000 });
          await frame.locator('.heat-columns span').first().waitFor({ timeout: 30_000 });
          const flagged = await frame.locator('#runs td.flagged').first().textContent({ timeout: 30_000 });
          if (!flagged?.includes('table-grower ⚑ inflated')) throw new Error(`the inflated run is not flagged in the runs table: ${flagged}`);
          // Room for the chart: hide the side bar.
          await page.keyboard.press('Control+B');
          await page.waitForTimeout(800);
          const shot = await wb.screenshot(name);
          if (name === 'chart-dark') {
            // The serializer brings the panel back after a window reload, and the webview its state (γ).
            await frame.locator('#gamma-number').fill('1.5');
            await frame.locator('#gamma-number').dispatchEvent('change');
            await frame.locator('#runs th').filter({ hasText: 'EvoScore(γ=1.50)' }).waitFor({ timeout: 10_000 });
            // Through the workbench, so it shuts down as on a real reload (state saved first).
            const reloaded = page.waitForEvent('load', { timeout: 60_000 });
            await wb.runCommand('Developer: Reload Window');
            await reloaded;
            await waitForWorkbench(page);
            const restored = await chartFrame(page, 90_000);
            await restored.locator('#runs th').filter({ hasText: 'EvoScore(γ=1.50)' }).waitFor({ timeout: 30_000 });
          }
          if (name === 'chart-light') {
            // The runs table fits the panel: nothing runs off its right edge.
            const fits = await frame
              .locator('#runs')
              .evaluate((t) => t.getBoundingClientRect().right <= (t.parentElement?.getBoundingClientRect().right ?? 0) + 1);
            if (!fits) throw new Error('the runs table is wider than the panel');
            // The heatmap: test names beside a short list, a hover card, and a click opens the test there.
            const canvas = frame.locator('#heatmap');
            await canvas.scrollIntoViewIfNeeded();
            const box = await canvas.boundingBox();
            if (!box) throw new Error('no heatmap canvas');
            await page.mouse.move(box.x + box.width - 4, box.y + 4);
            await frame.locator('.heat-tip:not([hidden])').waitFor({ timeout: 10_000 });
            const tip = (await frame.locator('.heat-tip').textContent()) ?? '';
            if (!/iteration \d+|base/.test(tip) || !tip.includes('::')) throw new Error(`the heatmap's hover card says: ${tip}`);
            await wb.screenshot('chart-heatmap', undefined, { keepHover: true });
            await page.mouse.click(box.x + box.width - 4, box.y + 4);
            await page
              .locator('.tabs-container .tab')
              .filter({ hasText: /^test_.*\.py/ })
              .first()
              .waitFor({ timeout: 15_000 });
            // Export Report from the palette, default folder (the first choice).
            await wb.runCommandAndPick('SWE-CI: Export Report', 'in the task folder', 10_000);
            const start = Date.now();
            while (!exportedReport(task.taskDir)) {
              if (Date.now() - start > 30_000) throw new Error('Export Report wrote no report.html');
              await page.waitForTimeout(250);
            }
          }
          return shot;
        },
      ),
    );
  }

  // The exported report, opened with the network off.
  const html = exportedReport(task.taskDir)!;
  for (const f of ['report.html', 'metrics.csv', 'metrics.json'])
    if (!fs.existsSync(path.join(path.dirname(html), f))) throw new Error(`the export has no ${f}`);
  shots.push(
    await checkOfflinePage(html, 'chart-export', { width: 1200, height: 1000 }, async (page) => {
      await page.locator('#runs tbody tr').nth(1).waitFor({ timeout: 15_000 });
      const colours = await canvasColours(page, 'canvas#chart');
      const heat = await canvasColours(page, 'canvas#heatmap');
      if (colours <= 1) throw new Error('the exported chart canvas is blank');
      if (heat <= 1) throw new Error('the exported heatmap canvas is blank');
    }),
  );
  for (const f of shots.slice(1)) console.log(`  also ${path.relative(process.cwd(), f)}`);
  return shots[0];
}
