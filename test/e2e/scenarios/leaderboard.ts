// The Leaderboard panel on a record shaped like the paper's (18 entries, five γ; built by code),
// handed to the test bundle by file, in the light and the dark theme at 1440×900: the table, then
// the four figures; the rows reached by keyboard; the table fits beside the side bar as it opens. Then the panel's offline page (leaderboard.html)
// opened with the network off. leaderboard-real: the entries of real experiments (`sweci run`
// over the demo batch dataset: the scripted agents, a Programmer that changes nothing, and the
// upstream developers' replay), named by the workspace's leaderboard.json and opened the way a
// user opens it, from the command palette; then the window reloaded, and the panel back.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { leaderboardRecordSchema } from '../../../src/shared/leaderboard-record';
import { writeLeaderboardReport } from '../../../src/core/report/leaderboard-html';
import { repoRoot } from '../../harness/code-server';
import { withWorkbench } from '../../harness/workbench';
import { batchFixture } from '../../unit/cli/batch-fixture';
import { buildLeaderboardExperiments } from '../../unit/cli/demo-experiments';
import { leaderboardFixture } from '../../unit/helpers/leaderboard-fixture';
import { canvasColours, checkOfflinePage } from './chart';

const FIGURES = ['#fig-release', '#fig-bump', '#fig-zero', '#fig-cost'];

/** `probe`'s value once it has one, polling; fails after `timeoutMs`. */
async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A figure is done when its canvas is drawn, or when the line that stands in for it (nothing to draw) shows. */
async function figureDone(f: Frame | Page, sel: string): Promise<boolean> {
  if (
    await f
      .locator(`${sel}-empty`)
      .isVisible()
      .catch(() => false)
  )
    return true;
  return (await canvasColours(f, `canvas${sel}`).catch(() => 0)) > 1;
}

/**
 * Fails unless the table fits its panel: no column past the panel's right edge, nothing to
 * scroll sideways. `where` names the layout in the error (the side bar's width).
 */
async function assertTableFits(frame: Frame, where: string): Promise<void> {
  const m = await frame.locator('#board').evaluate((t) => {
    const wrap = t.parentElement!;
    return { right: t.getBoundingClientRect().right, edge: wrap.getBoundingClientRect().right, scroll: wrap.scrollWidth, width: wrap.clientWidth };
  });
  if (m.right > m.edge + 1 || m.scroll > m.width + 1)
    throw new Error(
      `${where}: the leaderboard table is ${m.scroll} px wide in a panel of ${m.width} px (its right edge at ${m.right}, the panel's at ${m.edge})`,
    );
}

/** The side bar's width, for the errors (0: hidden). */
async function sideBarWidth(page: Page): Promise<number> {
  return Math.round(
    (
      await page
        .locator('.part.sidebar')
        .boundingBox()
        .catch(() => null)
    )?.width ?? 0,
  );
}

/** The frame holding the Leaderboard's table, once its rows and every figure (or the line standing in for it) are drawn. */
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
      const drawn = await Promise.all(FIGURES.map((sel) => figureDone(f, sel)));
      if (drawn.every(Boolean)) return f;
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
          // At 1440 px with the side bar as it opens (its default width): every column in view.
          const frame = await boardFrame(page, record.entries.length);
          const bar = await sideBarWidth(page);
          if (bar < 200) throw new Error(`the side bar is ${bar} px wide: the check needs it open`);
          await assertTableFits(frame, `1440 px, side bar ${bar} px`);
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
    // A record with no release date and no cost anywhere: the page shows a line for each of those
    // two figures, saying what would fill it, and draws the other two.
    const bare = leaderboardFixture({ entries: 4 });
    const empty = leaderboardRecordSchema.parse({
      ...bare,
      entries: bare.entries.map((e) => ({ ...e, released: null, costPerTask: null, tokensPerTask: { input: 0, output: 0, cached: 0, source: 'none' } })),
    });
    const emptyOut = await writeLeaderboardReport({ record: empty, folder: path.join(dir, 'export-empty'), assetRoot: repoRoot() });
    shots.push(
      await checkOfflinePage(emptyOut.html, 'leaderboard-export-empty', { width: 1440, height: 900 }, async (page) => {
        await page.locator('#board tbody tr').nth(3).waitFor({ timeout: 15_000 });
        for (const [sel, what] of [
          ['#fig-release', /“released”/],
          ['#fig-cost', /prices/],
        ] as const) {
          const line = page.locator(`${sel}-empty`);
          await line.waitFor({ timeout: 15_000 });
          if (!what.test(await line.innerText())) throw new Error(`${sel}'s line does not say what would fill it: ${await line.innerText()}`);
          if (await page.locator(`canvas${sel}`).isVisible()) throw new Error(`${sel} is drawn with nothing to draw`);
        }
        for (const sel of ['#fig-bump', '#fig-zero']) if ((await canvasColours(page, `canvas${sel}`)) <= 1) throw new Error(`${sel} is blank`);
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
      // No release dates: the release figure has nothing to draw (the paper-shaped scenario draws it).
      { experiment: 'exp-scripted', label: 'Scripted agents', provider: 'Fixtures' },
      { experiment: 'exp-nothing', label: 'Changes nothing', provider: 'Fixtures' },
      { experiment: 'exp-scripted', run: 'human-history', label: 'Upstream developers', provider: 'Humans' },
    ];
    fs.writeFileSync(path.join(fixture.tmp, 'leaderboard.json'), JSON.stringify({ entries }, null, 2));
    return await withWorkbench({ folder: fixture.tmp, name: 'leaderboard-real', viewport: { width: 1440, height: 900 } }, async (page, wb) => {
      await wb.runCommand('SWE-CI: Open Leaderboard');
      let frame = await boardFrame(page, entries.length, 120_000);
      // With no task missing anywhere, no Missing column; beside the side bar as it opens, the table fits.
      if ((await frame.locator('#board th', { hasText: 'Missing' }).count()) !== 0) throw new Error('a Missing column with nothing in it');
      await assertTableFits(frame, `1440 px, side bar ${await sideBarWidth(page)} px`);
      // The providers as leaderboard.json writes them, the developers' replay's too.
      const providers = await frame.locator('#board td.provider .value').allInnerTexts();
      if (!providers.includes('Humans') || providers.includes('human history'))
        throw new Error(`the Provider column reads ${providers.join(', ')}: the file gives "Humans" for the developers' replay`);
      // No entry has a release date: that figure is one line saying what would fill it; the
      // cost frontier has the tokens the scripted agents report, and is drawn.
      const line = frame.locator('#fig-release-empty');
      if (!(await line.isVisible())) throw new Error('EvoScore by release date is drawn with no release date to draw');
      if (!/“released”.*leaderboard\.json/.test(await line.innerText()))
        throw new Error(`the release figure's line does not say what would fill it: ${await line.innerText()}`);
      if (await frame.locator('canvas#fig-release').isVisible()) throw new Error("the release figure's empty canvas is still shown");
      if (!(await frame.locator('canvas#fig-cost').isVisible())) throw new Error('the cost frontier, which has tokens to draw, is not drawn');
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
      // Export HTML… proposes the workspace's .sweci/reports/ (not the last folder a dialog saw); Enter takes it.
      await frame.locator('button', { hasText: 'Export HTML' }).click();
      const proposal = page
        .locator('.quick-input-widget .monaco-list-row')
        .filter({ hasText: path.join(fixture.tmp, '.sweci', 'reports', 'leaderboard-') })
        .first();
      await proposal.waitFor({ timeout: 30_000 });
      console.log(`  also ${path.relative(process.cwd(), await wb.screenshot('leaderboard-real-export'))}`);
      await page.keyboard.press('Enter');
      const reports = path.join(fixture.tmp, '.sweci', 'reports');
      const written = await until('leaderboard.html in .sweci/reports/', () => {
        const folder = fs.existsSync(reports) ? fs.readdirSync(reports).find((n) => n.startsWith('leaderboard-')) : undefined;
        const html = folder && path.join(reports, folder, 'leaderboard.csv');
        return html && fs.existsSync(html) ? path.join(reports, folder, 'leaderboard.html') : undefined;
      });
      if (!fs.readFileSync(written, 'utf8').includes('sweci-leaderboard-data')) throw new Error(`${written} holds no record`);
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
