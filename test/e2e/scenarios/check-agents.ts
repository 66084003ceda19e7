// A new user's first step on the demo: the Iterations view's welcome sends them to Check Agents,
// and with the demo's own workspace settings (the demo's agent and its stand-in model, as `npm run
// demo` writes and starts them) the one Check Agents document, rendered as its Markdown preview, says both agents are
// ready, and under them which runtimes answer here. Run twice, it is refreshed in place: one tab,
// no untitled buffer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { withWorkbench } from '../../harness/workbench';
import { demoSettings, prepareDemoTask, startDemoTaskModel } from '../demo-task';

/** The frame of the Markdown preview once it shows `text`. */
async function previewFrame(page: Page, text: string, timeoutMs = 30_000): Promise<Frame> {
  const start = Date.now();
  for (;;) {
    // Not the workbench's own frame: its toast says the same words.
    for (const f of page.frames().filter((fr) => fr !== page.mainFrame())) {
      if (
        await f
          .getByText(text)
          .first()
          .isVisible()
          .catch(() => false)
      )
        return f;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`no Markdown preview shows "${text}"`);
    await page.waitForTimeout(250);
  }
}

export async function checkAgentsScenario(): Promise<string> {
  const task = await prepareDemoTask('check-agents');
  // In the task folder's .vscode/settings.json, where scripts/demo.ts writes them.
  const model = await startDemoTaskModel(task);
  const settings = demoSettings(model);
  fs.mkdirSync(path.join(task.taskDir, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(task.taskDir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
  try {
    return await withWorkbench({ folder: task.taskDir, name: 'check-agents', smokeTestDriver: false }, async (page, wb) => {
      await wb.openSweciView();
      await wb.foldViews('Non-Passed Tests');
      const link = page
        .locator('.part.sidebar .welcome-view-content a, .part.sidebar .welcome-view-content .monaco-button')
        .filter({ hasText: /^Check Agents$/ });
      await link.first().waitFor({ timeout: 60_000 });
      await link.first().click();
      const toast = page.locator('.notification-toast').filter({ hasText: 'SWE-CI: Both agents can run.' }).first();
      const failed = page
        .locator('.notification-toast')
        .filter({ hasText: /cannot run yet|Check Agents failed/ })
        .first();
      await Promise.race([toast.waitFor({ timeout: 180_000 }), failed.waitFor({ timeout: 180_000 })]);
      if (await failed.isVisible()) throw new Error(`Check Agents: ${await failed.textContent()}`);
      // Rendered, not its source: the Markdown preview's tab, its heading drawn as a heading.
      const tab = page.locator('.tabs-container .tab').filter({ hasText: /Preview\s*Check\s*Agents\s*\.md/ });
      await tab.first().waitFor({ timeout: 15_000 });
      const preview = await previewFrame(page, 'Both agents can run.');
      await preview.locator('h1', { hasText: 'SWE-CI: Check Agents' }).waitFor({ timeout: 15_000 });
      for (const line of [/architect \(custom: demo-agent\.py.*\): ready/, /programmer \(custom: demo-agent\.py.*\): ready/]) {
        await preview.getByText(line).first().waitFor({ timeout: 15_000 });
      }
      // Under the agents, the runtimes of this machine: the local one always answers.
      await preview.locator('h2', { hasText: /^Runtimes on this machine/ }).waitFor({ timeout: 15_000 });
      await preview
        .locator('td', { hasText: /^local$/ })
        .first()
        .waitFor({ timeout: 15_000 });
      if (
        (await page
          .locator('.editor-instance .view-lines')
          .getByText(/^# SWE-CI: Check Agents/)
          .count()) > 0
      )
        throw new Error('Check Agents opened its Markdown source');
      const shot = await wb.screenshot('check-agents', undefined, { keepHover: true });

      // Again, from the palette: the same tab is refreshed, nothing untitled appears.
      await toast
        .locator('.codicon-notifications-clear, .codicon-close')
        .first()
        .click()
        .catch(() => undefined);
      await wb.runCommand('SWE-CI: Check Agents');
      await page.locator('.notification-toast').filter({ hasText: 'SWE-CI: Both agents can run.' }).first().waitFor({ timeout: 180_000 });
      // The tab's label draws the name and its extension apart: compare without white space.
      const tabs = (await page.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.replace(/\s+/g, ''));
      if (tabs.length !== 1 || tabs[0] !== 'PreviewCheckAgents.md')
        throw new Error(`one tab, Preview Check Agents.md, and no untitled buffer, not: ${tabs.join(' | ')}`);
      return shot;
    });
  } finally {
    await model.close();
  }
}
