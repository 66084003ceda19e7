// Find Tasks in This Repository… in the real workbench, on a repository built by code opened as
// the folder: the command offers the open folder's repository, the Candidate Tasks view lists
// the kept span and the dropped one with its reason, and a candidate's context menu has
// Build Environment and Check Out above Check Out on This Machine (the integration test runs both).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withWorkbench } from '../../harness/workbench';
import { curateRepository } from '../../harness/curate-repository';

export async function curateScenario(): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-curate-'));
  try {
    const repo = await curateRepository(path.join(scratch, 'toy'));
    return await withWorkbench({ folder: repo.dir, name: 'curate', viewport: { width: 1400, height: 860 } }, async (page, wb) => {
      await wb.openSweciView();
      // The open folder's repository is the first choice.
      await wb.runCommandAndPick('SWE-CI: Find Tasks in This Repository', repo.dir);
      await wb.foldViews('Task', 'Non-passed tests', 'Iterations');
      const kept = await wb.waitForTreeRow(`${repo.kept.base.slice(0, 7)} → ${repo.kept.oracle.slice(0, 7)}`);
      await wb.waitForTreeRow(/dropped: \d+ changed lines, fewer than --min-changed-lines 1000/);
      await wb.widenSideBar(700);
      await wb.screenshot('curate-candidates');
      await kept.click({ button: 'right' });
      const item = page.locator('.context-view .action-item').filter({ hasText: 'Check Out on This Machine' }).first();
      await item.waitFor({ state: 'visible', timeout: 10_000 });
      const build = page.locator('.context-view .action-item').filter({ hasText: 'Build Environment and Check Out' }).first();
      await build.waitFor({ state: 'visible', timeout: 10_000 });
      const [buildBox, checkBox] = [await build.boundingBox(), await item.boundingBox()];
      if (!buildBox || !checkBox || buildBox.y >= checkBox.y) throw new Error('Build Environment and Check Out is not above Check Out on This Machine');
      const file = await wb.screenshot('curate-context-menu', undefined, { keepHover: true });
      await page.keyboard.press('Escape');
      return file;
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
