// Proof that an exported Inspect log is one Inspect reads (issue 49): an experiment made by
// `sweci run` (tool-loop agents through the gateway, and the developers' replay), exported by
// `sweci export inspect`, opened in Inspect's own log viewer as published on npm
// (@metrevals/inspect-log-viewer) in headless chromium. The log list shows both runs with their
// models; a log's sample list shows each task with its EvoScore as `sweci summarize` gives it; a
// sample's messages show the Architect's prompt and the Programmer's command with its output;
// its scoring shows our four scores with their values.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { ExperimentSummary } from '../../../src/core/batch/experiment-summary';
import { HUMAN_HISTORY_RUN } from '../../../src/core/loop/run-name';
import { SCREENSHOT_DIR, withBrowserContext } from '../../harness/workbench';
import { INSPECT_MODEL, INSPECT_RUN, INSPECT_TASKS, buildInspectExperiment, runCli } from '../../unit/helpers/inspect-experiment';
import { buildViewerPage, serveViewer } from '../inspect-viewer-page';

async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Waits until the page's text holds every one of `texts`. */
async function waitForTexts(page: Page, texts: readonly string[], what: string): Promise<void> {
  try {
    await page.waitForFunction((want) => want.every((t) => document.body.innerText.includes(t)), texts, { timeout: 60_000 });
  } catch {
    const body = await page.evaluate(() => document.body.innerText);
    const missing = texts.filter((t) => !body.includes(t));
    throw new Error(`${what}: the viewer does not show ${JSON.stringify(missing)}; it shows:\n${body.slice(0, 2000)}`);
  }
}

export async function inspectLogViewerScenario(): Promise<string> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-inspect-log-')));
  try {
    const { experiment } = await buildInspectExperiment(tmp);
    const logs = path.join(tmp, 'logs');
    const exported = await runCli(tmp, ['export', 'inspect', experiment, '--out', logs]);
    if (exported.code !== 0) throw new Error(`sweci export inspect exited ${exported.code}: ${exported.err}`);
    const summary = await runCli(tmp, ['summarize', experiment, '--format', 'json']);
    if (summary.code !== 0) throw new Error(`sweci summarize exited ${summary.code}: ${summary.err}`);
    const groups = (JSON.parse(summary.out) as ExperimentSummary).groups;
    const rows = (run: string) => groups.find((g) => g.run === run)?.rows ?? [];
    const replay = rows(HUMAN_HISTORY_RUN);
    if (replay.length !== INSPECT_TASKS.length || replay.some((r) => !r.metrics.evoScore))
      throw new Error(`the replay should score every task above 0: ${JSON.stringify(replay.map((r) => r.metrics))}`);

    const pageDir = path.join(tmp, 'page');
    await buildViewerPage(pageDir);
    const server = await serveViewer(pageDir, logs);
    try {
      return await withBrowserContext({ viewport: { width: 1440, height: 900 } }, async (context) => {
        const errors: string[] = [];
        // Each view from its own address, in a page of its own (as a link to it opens).
        const open = async (route: string) => {
          const p = await context.newPage();
          p.on('pageerror', (e) => errors.push(e.message));
          await p.goto(`${server.origin}/${route}`);
          return p;
        };

        // The log list: both runs, by their task set and model.
        let page = await open('#/logs/');
        await waitForTexts(
          page,
          ['swe-ci/dataset', INSPECT_MODEL, 'upstream developers', `exp_${INSPECT_RUN}.eval`, `exp_${HUMAN_HISTORY_RUN}.eval`],
          'the log list',
        );
        await shot(page, 'inspect-log-list');

        // The replay's samples: each task with its EvoScore, the number sweci summarize prints.
        page = await open(`#/logs/exp_${HUMAN_HISTORY_RUN}.eval`);
        await waitForTexts(
          page,
          [...INSPECT_TASKS, ...replay.map((r) => String(r.metrics.evoScore)), 'evoscore, final_a, solved, zero_regression'],
          'the sample list',
        );
        await shot(page, 'inspect-log-samples');

        // One sample's scores: the four, with our values and the reasons.
        const task = replay[replay.length - 1];
        await page.getByText(task.task, { exact: true }).first().click();
        await page.getByRole('tab', { name: /^scoring$/i }).click();
        await waitForTexts(
          page,
          [
            String(task.metrics.evoScore),
            `EvoScore at γ = 1 over N = 2 iterations`,
            String(task.metrics.finalA),
            String(task.metrics.solved),
            String(task.metrics.zeroRegression),
            'zero_regression',
          ],
          "a sample's scores",
        );
        const scores = await shot(page, 'inspect-log-scores');

        // The agents' run: a sample's messages, the Architect's prompt and the Programmer's command with its output.
        page = await open(`#/logs/exp_${INSPECT_RUN}.eval`);
        await page.getByText(INSPECT_TASKS[0], { exact: true }).first().click();
        await page.getByRole('tab', { name: /^messages$/i }).click();
        await waitForTexts(page, ['Role: Architect', 'print(6 * 7)', '42', 'requirement.xml is written.'], "a sample's messages");
        await shot(page, 'inspect-log-messages');
        if (errors.length) throw new Error(`the viewer threw: ${errors.join('; ')}`);
        if (!server.requests.some((r) => r.path === `/logs/exp_${INSPECT_RUN}.eval` && r.status === 206))
          throw new Error('the viewer did not read the .eval by ranges, as it reads a zip');
        return scores;
      });
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
