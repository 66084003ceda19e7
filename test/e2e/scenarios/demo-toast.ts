// The demo as a person runs it (no smoke-test driver, so toasts show), with the demo's agent and
// the stand-in model `npm run demo` starts: Run Iteration puts up the progress toast with its
// Cancel button while the steps run. The iteration's agents went through the gateway, so its
// Programmer's transcript opens (a command and its output, the files it wrote), the iteration
// view says how many model calls each role made and what they cost, and Replay Run replays the
// run with no model call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { ARCHIVE } from '../../../src/core/loop/run-store';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import type { ModelServer } from '../../../scripts/stand-in-model/model-server';
import { withWorkbench, type Workbench } from '../../harness/workbench';
import { demoSettings, prepareDemoTask, startDemoTaskModel, type PreparedTask } from '../demo-task';
import { iterationFrame } from './inspect';
import { transcriptFrame } from './transcript';

export async function demoToastScenario(): Promise<string> {
  const task = await prepareDemoTask('demo-toast');
  const model = await startDemoTaskModel(task);
  const settings = demoSettings(model);
  try {
    return await withWorkbench(
      { folder: task.taskDir, name: 'demo-toast', settings, smokeTestDriver: false, viewport: { width: 1400, height: 860 } },
      async (page, wb) => {
        await wb.openSweciView();
        // Before the first run, the Task view names who plays each role, and the welcome points there.
        await wb.waitForTreeRow(/Architect.*custom: demo-agent\.py/);
        await wb.waitForTreeRow(/Programmer.*custom: demo-agent\.py/);
        await page
          .locator('.part.sidebar')
          .filter({ hasText: "The Task view's Architect and Programmer rows say who plays each role" })
          .first()
          .waitFor({ timeout: 30_000 });
        await wb.screenshot('roles-before-run');
        await wb.foldViews('Task');
        const run = page
          .locator('.part.sidebar .monaco-button')
          .filter({ hasText: /^Run Iteration$/ })
          .first();
        await run.waitFor({ timeout: 60_000 });
        await run.click();
        // The toast names the step and offers Cancel; catch it while a step runs.
        const toast = page
          .locator('.notification-toast')
          .filter({ hasText: /SWE-CI/ })
          .first();
        await toast.waitFor({ timeout: 60_000 });
        await toast.locator('.monaco-button, a.monaco-button').filter({ hasText: 'Cancel' }).first().waitFor({ timeout: 10_000 });
        await page.waitForTimeout(300);
        const progress = await wb.screenshot('demo-progress', undefined, { keepHover: true });
        // When it ends: the new iteration is selected in the view, and a message says what happened.
        const done = page
          .locator('.notification-toast')
          .filter({ hasText: /iteration #1 recorded/ })
          .first();
        const failed = page
          .locator('.notification-toast')
          .filter({ hasText: /Run Iteration failed/ })
          .first();
        await Promise.race([done.waitFor({ timeout: 240_000 }), failed.waitFor({ timeout: 240_000 })]);
        if (await failed.isVisible()) {
          // Say why, from the agents' own logs: the toast only has their exit codes.
          const runs = path.join(task.taskDir, '.sweci', 'runs');
          const logs = fs
            .readdirSync(runs, { recursive: true })
            .map(String)
            .filter((f) => f.endsWith('try-1.log'))
            .map((f) => `${f}:\n${fs.readFileSync(path.join(runs, f), 'utf8').slice(-1500)}`);
          throw new Error(`Run Iteration failed: ${await failed.textContent()}\n${logs.join('\n')}`);
        }
        await done.getByRole('button', { name: 'Open Iteration' }).waitFor({ timeout: 5_000 });
        await done.getByRole('button', { name: 'Show Chart' }).waitFor({ timeout: 5_000 });
        // A state, not a while: the cap only bounds a failure (the view refreshes, then reveals).
        await page.locator('.part.sidebar .monaco-list-row.selected').filter({ hasText: '#1' }).first().waitFor({ timeout: 120_000 });
        await wb.screenshot('iteration-recorded', undefined, { keepHover: true });
        await transcriptCostAndReplay(page, wb, task, model);

        // Export Report: in the browser there is no file manager, so the toast offers the Explorer, and it works.
        await wb.runCommandAndPick('SWE-CI: Export Report', 'in the task folder', 10_000);
        const written = page.locator('.notification-toast').filter({ hasText: 'SWE-CI report written to' }).first();
        await written.waitFor({ timeout: 30_000 });
        if ((await written.getByRole('button', { name: 'Reveal Folder' }).count()) > 0)
          throw new Error('the web toast offers Reveal Folder, which does nothing there');
        await written.getByRole('button', { name: 'Show in Explorer' }).click();
        await page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'report.html' }).first().waitFor({ timeout: 15_000 });
        return progress;
      },
    );
  } finally {
    await model.close();
  }
}

/** The one run the demo made so far (Run Iteration named it). */
function onlyRun(task: PreparedTask): string {
  const runs = fs.readdirSync(taskFolder(task.taskDir).runsDir).filter((n) => fs.existsSync(path.join(taskFolder(task.taskDir).run(n).iterationsFile)));
  if (runs.length !== 1) throw new Error(`one run after Run Iteration, not: ${runs.join(', ')}`);
  return runs[0];
}

/** The demo's first iteration: its Programmer's transcript, the iteration view's model calls and cost, then Replay Run. */
async function transcriptCostAndReplay(page: Page, wb: Workbench, task: PreparedTask, model: ModelServer): Promise<void> {
  const run = onlyRun(task);
  const called = model.requests.filter((r) => r.protocol === 'chat-completions').length;
  if (called < 4) throw new Error(`the demo's agents made ${called} model calls: they did not go through the stand-in model`);
  // The transcript, from the iteration's own rows.
  await wb.foldViews('Task', 'Non-Passed Tests');
  await page.mouse.move(900, 700);
  const iteration = await wb.waitForTreeRow(/#1.*a\(c\)/);
  await iteration.locator('.monaco-tl-twistie').click();
  await (await wb.waitForTreeRow(/Transcript.*Programmer · try 1/)).click();
  const transcript = await transcriptFrame(page, /Programmer · try 1/);
  await transcript.locator('.tool.shell pre.command').filter({ hasText: 'sha256sum' }).first().waitFor({ timeout: 15_000 });
  await transcript.locator('.tool.write').first().waitFor({ timeout: 15_000 });
  await page.mouse.move(900, 700);
  await page.waitForTimeout(1000);
  await wb.screenshot('demo-transcript');

  // The iteration view: each role's model calls through the gateway, and their cost at the demo's prices.
  await page.mouse.move(900, 700);
  await (await wb.waitForTreeRow(/#1.*a\(c\)/)).click();
  const view = await iterationFrame(page, new RegExp(`${run}\\s+iteration 1`));
  await view
    .getByText(/Model: \d+ model calls through the gateway/)
    .first()
    .waitFor({ timeout: 15_000 });
  const modelLines = await view.getByText(/Model: \d+ model calls through the gateway/).count();
  if (modelLines !== 2) throw new Error(`each role's row says what the gateway counted: ${modelLines} of 2`);
  if ((await view.getByText(/cost unknown/).count()) > 0) throw new Error('the demo has prices: no cost may be unknown');
  const costs = await view.getByText(/^\$\d+\.\d\d$/).count();
  if (costs < 2) throw new Error(`each role's cost at the demo's prices: ${costs} of 2 shown`);
  // The Roles table in view, no toast over its Cost column.
  await wb.runCommand('Notifications: Clear All Notifications');
  await view
    .getByText(/Model: \d+ model calls through the gateway/)
    .last()
    .scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  await wb.screenshot('demo-iteration-calls');

  // Replay Run: the run again, every model call answered from its recording.
  await wb.runCommandAndPick('SWE-CI: Replay Run…', run, 15_000);
  const replay = `${run}-replay-1`;
  // Its end, in the words of any run's end ("<run>-replay-1: iteration #1 recorded · gap …", or solved, or stopped at the maximum).
  const done = page
    .locator('.notification-toast')
    .filter({ hasText: `${replay}: ` })
    .first();
  const failed = page
    .locator('.notification-toast')
    .filter({ hasText: /failed/ })
    .first();
  await Promise.race([done.waitFor({ timeout: 240_000 }), failed.waitFor({ timeout: 240_000 })]);
  if (await failed.isVisible()) throw new Error(`Replay Run: ${await failed.textContent()}`);
  const folder = taskFolder(task.taskDir);
  const records = await readIterationRecords(folder.run(replay).iterationsFile);
  if (records.length !== 2) throw new Error(`the replay recorded ${records.length - 1} iterations, not 1`);
  if (model.requests.filter((r) => r.protocol === 'chat-completions').length !== called) throw new Error('the replay called the model');
  for (const file of [ARCHIVE.requirement, ARCHIVE.codeDiff]) {
    const want = fs.readFileSync(path.join(folder.run(run).dir, 'iter-001', file), 'utf8');
    if (fs.readFileSync(path.join(folder.run(replay).dir, 'iter-001', file), 'utf8') !== want)
      throw new Error(`the replay's ${file} is not the recorded run's`);
  }
  const log = fs.readFileSync(path.join(folder.run(replay).dir, 'iter-001', ARCHIVE.agentLog('programmer', 1)), 'utf8');
  if (!/# replay: {2}answered from the recording/.test(log))
    throw new Error(`the replayed Programmer's log does not say it was replayed:\n${log.slice(0, 1500)}`);
  await page.mouse.move(900, 700);
  await wb.waitForTreeRow(replay);
  await page.waitForTimeout(500);
  await wb.screenshot('demo-replay', undefined, { keepHover: true });
}
