// SWE-CI: Download Dataset… as a person runs it, against a Hub of our own on loopback
// (sweci.dataset.endpoint): the split's CSV read under a progress notification (Cancel stops it),
// the task picker with each task's repository and sizes, the images
// choice, VS Code's folder dialog, the progress notification (the Hub stalls mid-image so it is
// caught with bytes on disk), Cancel, then the same command again finishing only what was missing,
// and its toast offering Check Out.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { tinyHubRepository } from '../../harness/hub-dataset-fixture';
import { startHubServer } from '../../harness/hub-server';
import { withWorkbench, type Workbench } from '../../harness/workbench';

const IMAGE_BYTES = 8 * 1024 * 1024;

/** A notification toast with `text` (or the same in the notification center, if open). */
function notification(page: Page, text: string | RegExp) {
  return page.locator('.notification-toast, .notifications-center .notification-list-item').filter({ hasText: text }).first();
}

/** The palette command up to the folder dialog: two tasks ticked, images chosen. */
async function chooseTwoTasks(page: Page, wb: Workbench, taskIds: string[], into: string, shoot: boolean): Promise<void> {
  await wb.runCommand('SWE-CI: Download Dataset…');
  const picker = page.locator('.quick-input-widget');
  await picker.getByText(/which tasks of skylenage-ai\/SWE-CI/).waitFor({ timeout: 60_000 });
  for (const id of taskIds) {
    const row = picker.locator('.monaco-list-row').filter({ hasText: id }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click(); // a row of a multi-select picker toggles its box
  }
  if (shoot) await wb.screenshot('download-tasks');
  await page.keyboard.press('Enter');
  const images = picker.locator('.monaco-list-row').filter({ hasText: 'Code and task images' }).first();
  await images.waitFor({ timeout: 15_000 });
  if (shoot) await wb.screenshot('download-images');
  await images.click();
  // VS Code's own folder dialog (a quick input in the browser): type the folder, accept it.
  const input = picker.locator('input').first();
  await picker.getByText(/Choose the folder for 2 tasks/).waitFor({ timeout: 15_000 });
  // The dialog first lists where it starts (it would overwrite a path typed before that). With
  // a trailing slash it then moves into the typed folder (its list no longer shows the
  // starting folder's "hub"), and its button accepts the folder it is in.
  const rows = picker.locator('.monaco-list-row');
  await rows.filter({ hasText: '..' }).first().waitFor({ timeout: 15_000 });
  await input.fill(`${into}/`);
  // Every quick input the page holds, as it is now (a window of a shared code-server may hold
  // more than one, only one of them shown: each is looked at, not just the first in the page).
  const dialogs = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.quick-input-widget')].map((w) => ({
        shown: w.offsetParent !== null && getComputedStyle(w).display !== 'none',
        value: w.querySelector('input')?.value,
        // Each row's label: a row the list reuses can still hold the last picker's description
        // and separator ("..Tests run with… recently used" was seen for the '..' row).
        names: [...w.querySelectorAll('.monaco-list-row')].map((r) => (r.querySelector('.label-name') ?? r).textContent?.trim() ?? ''),
      })),
    );
  const want = `${into}/`;
  const inTypedFolder = (d: { shown: boolean; value?: string; names: string[] }) =>
    d.shown && d.value === want && d.names.includes('..') && !d.names.includes('hub');
  // The dialog lists the typed folder through the server: seen taking over 15 s at load 15.
  const deadline = Date.now() + 60_000;
  for (let seen = await dialogs(); !seen.some(inTypedFolder); seen = await dialogs()) {
    if (Date.now() > deadline) throw new Error(`the folder dialog never listed ${want}: ${JSON.stringify(seen)}`);
    await page.waitForTimeout(250);
  }
  await picker.locator('.monaco-button, .quick-input-action a').filter({ hasText: 'Download Here' }).first().click();
  await picker.getByText(/Choose the folder for 2 tasks/).waitFor({ state: 'hidden', timeout: 15_000 });
}

export async function downloadScenario(): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-download-'));
  const repo = await tinyHubRepository(path.join(scratch, 'hub'), IMAGE_BYTES);
  const hub = await startHubServer(repo.root);
  const folder = path.join(scratch, 'empty');
  const into = path.join(scratch, 'swe-ci');
  fs.mkdirSync(folder);
  fs.mkdirSync(into);
  const chosen = repo.taskIds.slice(0, 2);
  try {
    return await withWorkbench(
      {
        folder,
        name: 'download',
        settings: { 'sweci.dataset.endpoint': hub.endpoint },
        // Toasts as a person sees them (the smoke-test driver hides them).
        smokeTestDriver: false,
        viewport: { width: 1440, height: 900 },
      },
      async (page, wb) => {
        await wb.openSweciView();
        await wb.waitForWelcomeView(/Download Dataset…/);

        // The split's CSV is read under a progress notification with Cancel (the Hub stalls it).
        hub.faults.stallAfter = { path: 'metadata/default.csv', bytes: 10, onStall: () => undefined };
        await wb.runCommand('SWE-CI: Download Dataset…');
        const reading = notification(page, /SWE-CI: reading split default of skylenage-ai\/SWE-CI/);
        await reading.getByText(/its task list \(metadata\/default\.csv\)/).waitFor({ timeout: 60_000 });
        await wb.screenshot('download-reading-split');
        await reading.locator('.monaco-button, a.monaco-button').filter({ hasText: 'Cancel' }).first().click();
        await reading.waitFor({ state: 'hidden', timeout: 30_000 });
        if (
          await page
            .locator('.quick-input-widget')
            .getByText(/which tasks of/)
            .isVisible()
        )
          throw new Error('the task picker opened after Cancel');

        // First run: the Hub stalls half-way through the second image; the notification shows it.
        let stalled = false;
        hub.faults.stallAfter = { path: `data/${chosen[1]}/image.tar.gz`, bytes: IMAGE_BYTES / 2, onStall: () => (stalled = true) };
        await chooseTwoTasks(page, wb, chosen, into, true);
        const progress = notification(page, 'SWE-CI: downloading 2 tasks');
        await progress.waitFor({ timeout: 60_000 });
        for (let i = 0; !stalled && i < 600; i++) await page.waitForTimeout(100);
        if (!stalled) throw new Error('the Hub never reached the stall point');
        await progress.getByText(/\d+% · [\d.]+ MB of [\d.]+ MB/).waitFor({ timeout: 30_000 });
        await wb.screenshot('download-progress');
        await progress.locator('.monaco-button, a.monaco-button').filter({ hasText: 'Cancel' }).first().click();
        const stopped = notification(page, /Download stopped with [\d.]+ MB on disk/);
        await stopped.waitFor({ timeout: 30_000 });

        // Again: what was verified is kept, the partial image continues, and the toast offers Check Out.
        hub.bytesSent.clear();
        await chooseTwoTasks(page, wb, chosen, into, false);
        const done = notification(page, /Downloaded 2 tasks of split default/);
        await done.waitFor({ timeout: 120_000 });
        await done.getByText('Check Out a Task…').waitFor({ timeout: 10_000 });
        const resent = hub.bytesSent.get(`data/${chosen[0]}/image.tar.gz`) ?? 0;
        if (resent > 1) throw new Error(`the first task's verified image was fetched again (${resent} bytes)`);
        const second = hub.bytesSent.get(`data/${chosen[1]}/image.tar.gz`) ?? 0;
        if (second >= IMAGE_BYTES) throw new Error(`the stalled image was fetched from its start (${second} bytes), not resumed`);
        for (const id of chosen) {
          if (fs.statSync(path.join(into, 'data', id, 'image.tar.gz')).size !== IMAGE_BYTES) throw new Error(`${id}: image missing after the download`);
        }
        return wb.screenshot('download-done');
      },
    );
  } finally {
    await hub.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
