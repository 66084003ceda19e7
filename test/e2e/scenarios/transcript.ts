// What a person sees of what an agent did: a run recorded through the gateway, both roles
// tool-client.py (a real program the real driver runs, with a shell tool and a file-write tool)
// against the project's model server, whose brain answers as a model does: the Architect reads
// the summary with a command and writes requirement.xml, the Programmer runs a command and writes
// a file. Each try's transcript is opened from the Iterations view (the Architect's, the
// Programmer's: a command with its output, a write as a diff, tokens per call), then the same
// Programmer try in the exported report, opened in the browser.
import * as fs from 'node:fs';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { writeReport } from '../../../src/core/report/export-report';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { repoRoot } from '../../harness/code-server';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { startModelServer } from '../../../scripts/stand-in-model/model-server';
import { SAMPLE_REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';
import { taskBrain } from '../../../scripts/stand-in-model/task-brain';
import { SCREENSHOT_DIR, withBrowserContext, withWorkbench, type Workbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

const agents = path.resolve(__dirname, '../../../../test/fixtures/agents');
const RUN = 'with-tools';
const HELPER = `"""What the requirement asks for."""\n\n\ndef answer():\n    return 6 * 7\n\n\ndef describe():\n    return f"the answer is {answer()}"\n`;

/** The Transcript panel's frame once it shows `heading` (it sits in nested webview iframes). */
export async function transcriptFrame(page: Page, heading: RegExp, timeoutMs = 30_000): Promise<Frame> {
  const start = Date.now();
  for (;;) {
    for (const f of page.frames()) {
      const h1 = await f.$('header.top h1').catch(() => null);
      if (h1 && heading.test((await h1.textContent().catch(() => '')) ?? '')) return f;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`the Transcript panel did not show ${heading}`);
    await page.waitForTimeout(250);
  }
}

/** From the SWE-CI view: `run`, its first iteration's files (the Transcript rows among them), the Architect's first try. */
export async function openFirstArchitectTranscript(page: Page, wb: Workbench, run: string): Promise<Frame> {
  await wb.openSweciView();
  await wb.foldViews('Task', 'Non-Passed Tests');
  await (await wb.waitForTreeRow(run)).click();
  await page.mouse.move(900, 700);
  const iteration = await wb.waitForTreeRow(/#1.*a\(c\)/);
  await iteration.locator('.monaco-tl-twistie').click();
  await (await wb.waitForTreeRow(/Transcript.*Architect · try 1/)).click();
  return transcriptFrame(page, /Architect · try 1/);
}

/** What a person must be able to read in the Programmer's transcript: the command and its output, the write as a diff, the tokens. */
async function checkProgrammer(frame: Frame | Page): Promise<void> {
  await frame.locator('.tool.shell pre.command').filter({ hasText: 'print(6 * 7)' }).first().waitFor({ timeout: 15_000 });
  await frame.locator('.tool.shell pre.output').filter({ hasText: /^42$/ }).first().waitFor({ timeout: 5_000 });
  await frame.locator('.tool.write .diff-lines .add').filter({ hasText: 'def answer():' }).first().waitFor({ timeout: 5_000 });
  const figures = await frame.locator('.call-head .figures').allTextContents();
  if (figures.length !== 3 || !figures.every((f) => /\d+ in .* out/.test(f))) throw new Error(`tokens per call: ${JSON.stringify(figures)}`);
}

export async function transcriptScenario(): Promise<string> {
  const task = await prepareDemoTask('transcript');
  const server = await startModelServer({
    brain: taskBrain({ requirementXml: SAMPLE_REQUIREMENT, files: { 'helper.py': HELPER } }),
    adapters: [chatCompletionsAdapter],
  });
  try {
    const runtime = new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable });
    const role = (): RoleSetup => {
      const settings: AgentSettings = {
        kind: 'custom',
        command: `python3 ${path.join(agents, 'tool-client.py')}`,
        promptVia: 'stdin',
        baseUrl: `${server.origin}/v1`,
        model: 'sweci-coder',
        timeoutSec: 120,
        maxTries: 1,
      };
      return { settings, driver: createDriver(settings, { host: runtime, model: DEFAULT_MODEL_ACCESS }) };
    };
    await startRun({
      task: taskFolder(task.taskDir),
      run: RUN,
      roles: { architect: role(), programmer: role() },
      runtime,
      pytest: { python: 'python3', timeoutMs: 120_000, format: 'junit' as const },
      maxIterations: 1,
    });
  } finally {
    await server.close();
  }
  const shots: string[] = [];
  await withWorkbench({ folder: task.taskDir, name: 'transcript', viewport: { width: 1440, height: 900 } }, async (page, wb) => {
    const architect = await openFirstArchitectTranscript(page, wb, RUN);
    await architect.locator('#jump-requirement').waitFor({ timeout: 15_000 });
    await architect.locator('.tool.shell pre.command').filter({ hasText: 'summary.jsonl' }).first().waitFor({ timeout: 15_000 });
    // The top of the panel: the try's figures, the search box, the timeline, the files it wrote.
    await page.waitForTimeout(500);
    shots.push(await wb.screenshot('transcript-architect'));
    // Where the Architect's work is: the call that wrote requirement.xml, brought into view.
    await architect.locator('#jump-requirement').click();
    const write = architect.locator('.tool.write').filter({ hasText: 'requirement.xml' }).first();
    await write.waitFor({ timeout: 5_000 });
    const box = await write.boundingBox();
    if (!box || box.y > 600) throw new Error(`the call that wrote requirement.xml is not in view: ${JSON.stringify(box)}`);

    await page.mouse.move(900, 700);
    await (await wb.waitForTreeRow(/Transcript.*Programmer · try 1/)).click();
    const programmer = await transcriptFrame(page, /Programmer · try 1/);
    await checkProgrammer(programmer);
    // The first call at the top: the command and its output, then the write.
    await programmer.locator('.timeline .bar').first().click();
    await page.mouse.move(900, 700);
    await page.waitForTimeout(1500);
    shots.push(await wb.screenshot('transcript-programmer'));

    // Developer: Reload Window: VS Code brings the panel back and the host the try it showed.
    await wb.reloadWindow();
    await checkProgrammer(await transcriptFrame(page, /Programmer · try 1/, 120_000));
    shots.push(await wb.screenshot('transcript-reload'));
  });

  // The same try in the exported report, in a plain browser page: offline, the same bundle.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-report-'));
  try {
    const out = await writeReport({ task: taskFolder(task.taskDir), folder, extensionRoot: repoRoot(), gamma: 1, title: 'SWE-CI report · transcript' });
    const page0 = out.transcripts.find((f) => f.endsWith(path.join(RUN, '1-programmer-1.html')));
    if (!page0) throw new Error(`the report has no page for the Programmer's try: ${JSON.stringify(out.transcripts)}`);
    const reportHtml = fs.readFileSync(out.html, 'utf8');
    if (!reportHtml.includes(`href="transcripts/${RUN}/1-programmer-1.html"`)) throw new Error('the report does not link the transcript');
    await withBrowserContext({ viewport: { width: 1280, height: 900 } }, async (context) => {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      await page.goto(`file://${page0}`);
      await page.locator('header.top h1').filter({ hasText: 'Programmer · try 1' }).waitFor({ timeout: 15_000 });
      await checkProgrammer(page);
      if (requests.length) throw new Error(`the exported page asked the network: ${requests.join(', ')}`);
      await page.locator('.timeline .bar').first().click();
      await page.mouse.move(0, 0);
      await page.waitForTimeout(1500);
      const file = path.join(SCREENSHOT_DIR, 'transcript-report.png');
      await page.screenshot({ path: file });
      shots.push(file);
    });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return shots[shots.length - 1];
}
