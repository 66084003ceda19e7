// The Leaderboard panel on a record shaped like the paper's (18 entries, five γ; built by code),
// handed to the test bundle by file, in the light and the dark theme at 1440×900: the table, then
// the four figures; the rows reached by keyboard. Then the panel's offline page (leaderboard.html)
// opened with the network off. leaderboard-real: the entries of real experiments (`sweci run`
// over the demo batch dataset: the scripted agents, a Programmer that changes nothing, and the
// upstream developers' replay), named by the workspace's leaderboard.json and opened the way a
// user opens it, from the command palette; then the window reloaded, and the panel back.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { leaderboardRecordSchema } from '../../../src/core/leaderboard/leaderboard-record';
import { writeLeaderboardReport } from '../../../src/core/report/leaderboard-html';
import { repoRoot } from '../../harness/code-server';
import { withWorkbench } from '../../harness/workbench';
import { batchFixture } from '../../unit/cli/batch-fixture';
import { buildLeaderboardExperiments } from '../../unit/cli/demo-experiments';
import { leaderboardFixture } from '../../unit/helpers/leaderboard-fixture';
import { canvasColours, checkOfflinePage } from './chart';

const FIGURES = ['#fig-release', '#fig-bump', '#fig-zero', '#fig-cost'];

/** The frame holding the Leaderboard's table, once its rows and every figure are drawn. */
async function boardFrame(page: Page, rows: number, timeoutMs = 60_000): Promise<Frame> {
  const start = Date.now();
  for (;;) {
    for (const f of page.frames()) {
      if (
        (await f
          .locator('#board tbody tr')
          .count()
          .catch(() => 0)) !== rows
      )
        continue;
      const drawn = await Promise.all(FIGURES.map((sel) => canvasColours(f, `canvas${sel}`).catch(() => 0)));
      if (drawn.every((n) => n > 1)) return f;
    }
    if (Date.now() - start > timeoutMs) throw new Error('the Leaderboard webview did not draw its table and figures');
    await page.waitForTimeout(250);
  }
}

export async function leaderboardScenario(): Promise<string> {
  const record = leaderboardRecordSchema.parse(leaderboardFixture());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-leaderboard-'));
  const folder = path.join(dir, 'workspace');
  fs.mkdirSync(folder);
  const file = path.join(dir, 'record.json');
  fs.writeFileSync(file, JSON.stringify(record));
  const shots: string[] = [];
  try {
    for (const [theme, name] of [
      ['Default Light Modern', 'leaderboard-light'],
      ['Default Dark Modern', 'leaderboard-dark'],
    ] as const) {
      await withWorkbench(
        { folder, name, viewport: { width: 1440, height: 900 }, settings: { 'workbench.colorTheme': theme }, env: { SWECI_TEST_LEADERBOARD: file } },
        async (page, wb) => {
          // Opening the SWE-CI view activates the extension, which opens the panel on the record.
          await wb.openSweciView();
          let frame = await boardFrame(page, record.entries.length);
          // Room for the panel: hide the side bar.
          await page.keyboard.press('Control+B');
          await page.waitForTimeout(800);
          frame = await boardFrame(page, record.entries.length);
          const fits = await frame
            .locator('#board')
            .evaluate((t) => t.getBoundingClientRect().right <= (t.parentElement?.getBoundingClientRect().right ?? 0) + 1);
          if (!fits) throw new Error('the leaderboard table is wider than the panel');
          // Keyboard: a row takes the focus, ArrowDown moves it to the next.
          const rows = frame.locator('#board tbody tr');
          await rows.first().focus();
          await page.keyboard.press('ArrowDown');
          const focused = await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.label);
          if (focused !== record.entries[1].label) throw new Error(`ArrowDown focused ${focused}, not ${record.entries[1].label}`);
          await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          shots.push(await wb.screenshot(name));
          await frame.locator('.figures').scrollIntoViewIfNeeded();
          await frame.evaluate(() => document.querySelector('.figures')?.scrollIntoView({ block: 'start' }));
          await page.waitForTimeout(300);
          shots.push(await wb.screenshot(`${name}-figures`));
          // Below the figures, the top entry's tasks: one cell per task it is ranked on.
          const cells = await frame.locator('.task-grid .task').count();
          const expected = Object.keys(record.entries[0].taskScores).length;
          if (cells !== expected) throw new Error(`the tasks grid shows ${cells} tasks, not ${record.entries[0].label}'s ${expected}`);
        },
      );
    }

    // The offline page, as Export HTML writes it, opened with the network off.
    const out = await writeLeaderboardReport({ record, folder: path.join(dir, 'export'), assetRoot: repoRoot() });
    shots.push(
      await checkOfflinePage(out.html, 'leaderboard-export', { width: 1440, height: 900 }, async (page) => {
        await page
          .locator('#board tbody tr')
          .nth(record.entries.length - 1)
          .waitFor({ timeout: 15_000 });
        for (const sel of FIGURES) if ((await canvasColours(page, `canvas${sel}`)) <= 1) throw new Error(`the exported ${sel} is blank`);
      }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const f of shots.slice(1)) console.log(`  also ${path.relative(process.cwd(), f)}`);
  return shots[0];
}

export async function leaderboardRealScenario(): Promise<string> {
  const fixture = await batchFixture();
  try {
    await buildLeaderboardExperiments(fixture, { iterations: 3 });
    // The workspace holds the experiments and the file that names them (paths relative to it).
    const entries = [
      { experiment: 'exp-scripted', label: 'Scripted agents', provider: 'Fixtures', released: '2025-06-01' },
      { experiment: 'exp-nothing', label: 'Changes nothing', provider: 'Fixtures', released: '2025-02-01' },
      { experiment: 'exp-scripted', run: 'human-history', label: 'Upstream developers', provider: 'Humans', released: '2024-10-01' },
    ];
    fs.writeFileSync(path.join(fixture.tmp, 'leaderboard.json'), JSON.stringify({ entries }, null, 2));
    return await withWorkbench({ folder: fixture.tmp, name: 'leaderboard-real', viewport: { width: 1440, height: 900 } }, async (page, wb) => {
      await wb.runCommand('SWE-CI: Open Leaderboard');
      let frame = await boardFrame(page, entries.length, 120_000);
      // Room for the panel: hide the side bar.
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(800);
      frame = await boardFrame(page, entries.length);
      // With no task missing anywhere, no Missing column: the table fits the panel.
      if ((await frame.locator('#board th', { hasText: 'Missing' }).count()) !== 0) throw new Error('a Missing column with nothing in it');
      const fits = await frame.locator('#board').evaluate((t) => t.getBoundingClientRect().right <= (t.parentElement?.getBoundingClientRect().right ?? 0) + 1);
      if (!fits) throw new Error('the leaderboard table is wider than the panel');
      const labels = await frame.locator('#board tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.label));
      // The scripted agents replay the upstream commits, so they and the developers lead; doing nothing is last.
      if (labels[2] !== 'Changes nothing') throw new Error(`the rows are ${labels.join(', ')}: the Programmer that changes nothing should be last`);
      const shot = await wb.screenshot('leaderboard-real');
      // The top entry's tasks, below the figures: one cell per task; a click offers that task's chart.
      const cells = frame.locator('.task-grid .task');
      await cells.first().scrollIntoViewIfNeeded();
      if ((await cells.count()) !== 4) throw new Error(`the tasks grid shows ${await cells.count()} tasks, not the demo's 4`);
      const task = await cells.first().getAttribute('data-task');
      await cells.first().click();
      // The offer is a notification (its toast may have gone by when the page looks): read it in the notification centre.
      const offer = new RegExp(`${task} \\(${labels[0]}, run human-history\\) is a task folder of its own`);
      const listed = page.locator('.notifications-center .notification-list-item').filter({ hasText: offer }).first();
      const toast = page.locator('.notification-toast').filter({ hasText: offer }).first();
      await toast
        .or(listed)
        .waitFor({ timeout: 5_000 })
        .catch(async () => {
          await page.locator('.statusbar-item .codicon-bell-dot, .statusbar-item .codicon-bell').first().click();
          await listed.waitFor({ timeout: 30_000 }).catch(async (err: unknown) => {
            const said = await page.locator('.notification-toast, .notifications-center .notification-list-item').allInnerTexts();
            throw new Error(`no offer of ${task}'s chart (the notifications: ${JSON.stringify(said)}): ${(err as Error).message}`);
          });
        });
      console.log(`  also ${path.relative(process.cwd(), await wb.screenshot('leaderboard-real-tasks'))}`);
      await frame.evaluate(() => document.querySelector('.figures')?.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(300);
      console.log(`  also ${path.relative(process.cwd(), await wb.screenshot('leaderboard-real-figures'))}`);
      // A window reload as a person asks for one (the workbench saves its state first): VS Code
      // restores the panel, which ranks its leaderboard.json again.
      await wb.runCommand('Developer: Reload Window');
      frame = await boardFrame(page, entries.length, 120_000);
      const again = await frame.locator('#board tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.label));
      if (again.join() !== labels.join()) throw new Error(`after the reload the rows are ${again.join(', ')}, not ${labels.join(', ')}`);
      return shot;
    });
  } finally {
    await fixture.dispose();
  }
}
