// requirement.xml in the editor: the language server's squiggles and the Problems panel on a
// document with a missing file and an unknown test, and the hover on a non-passed node id.
import * as fs from 'node:fs';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

export async function requirementScenario(): Promise<string> {
  const task = await prepareDemoTask('requirement');
  const layout = taskFolder(task.taskDir);
  const nonPassed = fs
    .readFileSync(layout.summaryFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { test: string; description: string })
    .find((e) => e.description.startsWith('Test failed'));
  if (!nonPassed) throw new Error('the demo task has no failed test to show');
  const source = fs.readdirSync(path.join(layout.codeDir, 'src', 'tinyinventory')).find((f) => f.endsWith('.py') && f !== '__init__.py');
  const text = [
    '<requirements>',
    '  <requirement>',
    `    <location>src/tinyinventory/${source}</location>`,
    '    <description>Make the failing test pass.</description>',
    "    <contract>The behaviour the target's test expects.</contract>",
    `    <acceptance>${nonPassed.test}</acceptance>`,
    '  </requirement>',
    '  <requirement>',
    '    <location>src/tinyinventory/reports.py</location>',
    '    <description>Add a report of the stock.</description>',
    '    <acceptance>tests/test_reports.py::test_stock_report</acceptance>',
    '  </requirement>',
    '</requirements>',
    '',
  ].join('\n');
  fs.writeFileSync(layout.requirementFile, text);

  return withWorkbench({ folder: task.taskDir, name: 'requirement', viewport: { width: 1500, height: 900 } }, async (page, wb) => {
    await wb.openSweciView();
    await quickOpen(page, 'app/requirement.xml');
    // The server's three warnings reach the Problems panel.
    await wb.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const problems = page.locator('.markers-panel .monaco-list-row');
    for (const expected of ['reports.py does not exist under app/code', 'has no <contract>', 'test_stock_report is not a known test']) {
      await problems.filter({ hasText: expected }).first().waitFor({ timeout: 60_000 });
    }
    // Hover the non-passed node id: its kind and pytest's reason.
    const idName = nonPassed.test.split('::').pop()!;
    // The innermost span: Monaco wraps each line in one span and each token in another.
    const token = page.locator('.monaco-editor .view-line span span').filter({ hasText: idName }).first();
    await token.waitFor({ timeout: 10_000 });
    const box = (await token.boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + box.height / 2);
    await page.waitForTimeout(200);
    await page.mouse.move(box.x + 30, box.y + box.height / 2);
    await page.locator('.monaco-hover').filter({ hasText: 'at call stage' }).first().waitFor({ timeout: 30_000 });
    return wb.screenshot('requirement-language-server', undefined, { keepHover: true });
  });
}

/**
 * Completion of a node id inside <acceptance>: typing the start of a test's path and pressing
 * Enter inserts our node id, not an Emmet expansion of the typed text into tags (Emmet runs in
 * every .xml file, and `tests/test_x` is a valid abbreviation).
 */
export async function requirementCompletionScenario(): Promise<string> {
  const task = await prepareDemoTask('requirement-completion');
  const layout = taskFolder(task.taskDir);
  const ids = fs
    .readFileSync(layout.summaryFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { test: string }).test);
  const typed = 'tests/test_';
  if (!ids.some((id) => id.startsWith(typed))) throw new Error(`no non-passed test of the demo task starts with ${typed}`);
  const before = [
    '<requirements>',
    '  <requirement>',
    '    <location>src/tinyinventory/__init__.py</location>',
    '    <description>d</description>',
    '    <contract>c</contract>',
    '    <acceptance>',
  ];
  const after = ['</acceptance>', '  </requirement>', '</requirements>', ''];
  fs.writeFileSync(layout.requirementFile, `${before.join('\n')}${after.join('\n')}`);

  return withWorkbench({ folder: task.taskDir, name: 'requirement-completion', viewport: { width: 1440, height: 900 } }, async (page, wb) => {
    await wb.openSweciView();
    await quickOpen(page, 'app/requirement.xml');
    // The language server must have started (its diagnostics say so) before completion is asked.
    await wb.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    await wb.runCommand('View: Focus Active Editor Group');
    await page.keyboard.press('Control+G');
    await page.keyboard.type(`${before.length}:${before[before.length - 1].length + 1}`);
    await page.keyboard.press('Enter');
    await page.keyboard.type(typed, { delay: 30 });
    await page.keyboard.press('Control+Space');
    const ours = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: ids.find((id) => id.startsWith(typed))!.split('::')[0] });
    await ours.first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const shot = await wb.screenshot('requirement-completion');
    const focused = (await page.locator('.suggest-widget .monaco-list-row.focused').first().textContent()) ?? '';
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    // A read while the editor writes the file can find it short (truncated, not yet written): no line yet.
    const line = () => fs.readFileSync(layout.requirementFile, 'utf8').split('\n')[before.length - 1] ?? '';
    // Saving takes a moment to reach the disk: wait while the line is still as the file was
    // written (empty) or as typed, never the completion (a state, for up to a minute).
    const inserted = () =>
      line()
        .trim()
        .replace(/^<acceptance>/, '')
        .replace(/<\/acceptance>$/, '');
    const saveDeadline = Date.now() + 60_000;
    while ((inserted() === '' || inserted() === typed) && Date.now() < saveDeadline) await page.waitForTimeout(200);
    const got = line().trim();
    if (!ids.includes(inserted())) throw new Error(`Enter on the completion list (focused: "${focused.trim()}") gave "${got}", not a non-passed node id`);
    return shot;
  });
}

/**
 * Quick Opens a file of the folder, as a person would. The file search may still be indexing the
 * folder, and an Enter while the list re-renders can close it with nothing opened: ask again
 * until the file is listed, focused, and opened in a tab.
 */
export async function quickOpen(page: Page, relative: string): Promise<void> {
  const name = relative.split('/').pop()!;
  const tab = page.locator('.tab').filter({ hasText: name }).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    // The widget can close again before it is typed into (focus taken by a view that refreshes,
    // seen under load): that is a failed attempt, as a list that never shows the file is.
    const filled = await input
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(() => input.fill(relative, { timeout: 10_000 }))
      .then(
        () => true,
        () => false,
      );
    const row = page.locator('.quick-input-widget .monaco-list-row.focused').filter({ hasText: name }).first();
    const listed =
      filled &&
      (await row.waitFor({ timeout: 15_000 }).then(
        () => true,
        () => false,
      ));
    if (listed) {
      await page.keyboard.press('Enter');
      const opened = await tab.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (opened) return;
    }
    if (attempt === 4) throw new Error(`Quick Open never opened ${relative}`);
    await page.keyboard.press('Escape');
  }
}
