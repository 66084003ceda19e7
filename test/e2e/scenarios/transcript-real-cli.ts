// What a person sees of what a real agent CLI did: Claude Code (installed by scripts/setup.sh,
// pinned in scripts/agent-clis.txt) plays both roles of one iteration of the demo task through
// `sweci run` and its gateway, against the project's model server, both in a network namespace
// that has only loopback. Its model has the Architect read the summary with Bash and write
// requirement.xml with Write, and the Programmer run a command and write the target's files.
// Each try's transcript is opened from the Iterations view and screenshotted (a shell call with its
// output, a write as a diff, tokens per call as the calls record has them), then the Programmer's
// try in the exported report, opened in the browser.
import { existsSync, promises as fs, rmSync } from 'node:fs';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { writeReport } from '../../../src/core/report/export-report';
import { formatTokens } from '../../../src/shared/metrics/metric-format';
import { repoRoot } from '../../harness/code-server';
import { LoopbackNamespace } from '../../harness/loopback-namespace';
import { AGENTS_BIN, REAL_KEY, REAL_REQUIREMENT, REAL_TASK, runFlags, sandboxedRunFlags, startServerIn, sweciIn, targetFiles } from '../../harness/real-clis';
import { SCREENSHOT_DIR, withBrowserContext, withWorkbench } from '../../harness/workbench';
import { openFirstArchitectTranscript, transcriptFrame } from './transcript';

const PRESET = 'claude-code';
const EXECUTABLE = 'claude';
const RUN = 'real';
type Role = 'architect' | 'programmer';

/** Each call's tokens in the try's calls record, as the panel writes them: "N in", "N out". */
async function recordedFigures(iterDir: string, role: Role): Promise<{ input: string; output: string }[]> {
  const text = await fs.readFile(path.join(iterDir, `${role}-try-1.calls.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { usage?: { input: number; output: number } })
    .filter((c) => c.usage)
    .map((c) => ({ input: `${formatTokens(c.usage!.input)} in`, output: `${formatTokens(c.usage!.output)} out` }));
}

interface Want {
  command: RegExp;
  output: RegExp;
  written: string;
  addedLine: string;
  /** The file the try read before writing it, and a line its write removed. */
  read?: { path: string; removedLine: string };
}

/**
 * What the pictures must show: Claude Code's Bash call with the output the shell gave, its Write
 * of `written` as a diff with `addedLine` among the added lines, and each call's tokens as the
 * calls record has them.
 */
async function checkTry(frame: Frame | Page, want: Want, figures: { input: string; output: string }[]) {
  const bash = frame.locator('.tool.shell').filter({ has: frame.locator('.tool-name', { hasText: /^Bash$/ }) });
  await bash.locator('pre.command').filter({ hasText: want.command }).first().waitFor({ timeout: 15_000 });
  await bash.locator('pre.output').filter({ hasText: want.output }).first().waitFor({ timeout: 5_000 });
  const write = frame
    .locator('.tool.write')
    .filter({ has: frame.locator('.tool-name', { hasText: /^Write$/ }) })
    .filter({ hasText: want.written });
  await write.locator('.diff-lines .add').filter({ hasText: want.addedLine }).first().waitFor({ timeout: 5_000 });
  if (want.read) {
    // It read the file first: its Read is one line, and the Write is a diff against what it read.
    const read = frame.locator('.tool').filter({ has: frame.locator('.tool-name', { hasText: /^Read$/ }) });
    await read.locator('.tool-args').filter({ hasText: want.read.path }).first().waitFor({ timeout: 5_000 });
    await write.locator('.diff-stat').filter({ hasText: 'against the file as the agent read it' }).first().waitFor({ timeout: 5_000 });
    await write.locator('.diff-lines .del').filter({ hasText: want.read.removedLine }).first().waitFor({ timeout: 5_000 });
  }
  const shown = await frame.locator('.call-head .figures').allTextContents();
  if (shown.length !== figures.length)
    throw new Error(`a header per recorded call: ${shown.length} shown, ${figures.length} recorded: ${JSON.stringify(shown)}`);
  figures.forEach((f, i) => {
    if (!shown[i].startsWith(f.input) || !shown[i].includes(` · ${f.output}`)) {
      throw new Error(`call ${i + 1}: the panel shows "${shown[i]}", the calls record ${f.input} · ${f.output}`);
    }
  });
}

const ARCHITECT: Want = { command: /summary\.jsonl/, output: /test_inventory\.py/, written: 'requirement.xml', addedLine: '<contract>low_stock(threshold)' };
const PROGRAMMER: Want = {
  command: /print\(6 \* 7\)/,
  output: /^42$/m,
  written: 'inventory.py',
  addedLine: 'item.quantity <= threshold',
  read: { path: 'app/code/src/tinyinventory/inventory.py', removedLine: 'item.quantity < threshold' },
};

export async function transcriptRealCliScenario(): Promise<string> {
  if (!existsSync(path.join(AGENTS_BIN, EXECUTABLE))) {
    throw new Error(`Claude Code is not installed in ${AGENTS_BIN}: run \`bash scripts/setup.sh\` (it installs the CLIs pinned in scripts/agent-clis.txt)`);
  }
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-e2e-real-cli-')));
  const ns = LoopbackNamespace.create('sweci-e2e');
  try {
    const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { batch: true });
    const experiment = path.join(tmp, 'experiment');
    const server = await startServerIn(ns, tmp, { requirementXml: REAL_REQUIREMENT, files: targetFiles(0, 2) }, 'model', REAL_KEY);
    try {
      const r = await sweciIn(ns, tmp, runFlags(demo.datasetDir, experiment, PRESET, server.port, sandboxedRunFlags(1)), 8 * 60_000);
      if (r.code !== 0) throw new Error(`sweci run with ${PRESET} failed (${r.code}):\n${r.err}\n${r.out.slice(-3000)}`);
    } finally {
      server.child.kill('SIGTERM');
    }
    const taskDir = path.join(experiment, REAL_TASK);
    const iterDir = path.join(taskDir, '.sweci', 'runs', RUN, 'iter-001');
    const figures = { architect: await recordedFigures(iterDir, 'architect'), programmer: await recordedFigures(iterDir, 'programmer') };

    const shots: string[] = [];
    await withWorkbench({ folder: taskDir, name: 'transcript-real-cli', viewport: { width: 1440, height: 900 } }, async (page, wb) => {
      const architect = await openFirstArchitectTranscript(page, wb, RUN);
      await checkTry(architect, ARCHITECT, figures.architect);
      // The prompt the harness gave comes first; Claude Code's system reminders around it are folded.
      await architect
        .locator('.prompt pre.prompt-text')
        .filter({ hasText: /^# Role: Architect/ })
        .first()
        .waitFor({ timeout: 5_000 });
      if (await architect.locator('.prompt details.reminders').getAttribute('open')) throw new Error("Claude Code's system reminders are not folded");
      // The call that wrote requirement.xml, brought into view under the panel's header.
      await architect.locator('#jump-requirement').click();
      await page.mouse.move(900, 700);
      await page.waitForTimeout(1000);
      shots.push(await wb.screenshot('transcript-real-architect'));

      await (await wb.waitForTreeRow(/Transcript.*Programmer · try 1/)).click();
      const programmer = await transcriptFrame(page, /Programmer · try 1/);
      await checkTry(programmer, PROGRAMMER, figures.programmer);
      await bringShellCallIntoView(programmer);
      await page.mouse.move(900, 700);
      await page.waitForTimeout(1500);
      shots.push(await wb.screenshot('transcript-real-programmer'));
    });

    // The same try in the exported report, in a plain browser page: offline, the same bundle.
    const folder = path.join(tmp, 'report');
    const out = await writeReport({ task: taskFolder(taskDir), folder, extensionRoot: repoRoot(), gamma: 1, title: 'SWE-CI report · Claude Code' });
    const pageFile = out.transcripts.find((f) => f.endsWith(path.join(RUN, '1-programmer-1.html')));
    if (!pageFile) throw new Error(`the report has no page for the Programmer's try: ${JSON.stringify(out.transcripts)}`);
    await withBrowserContext({ viewport: { width: 1280, height: 900 } }, async (context) => {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (q) => {
        if (!q.url().startsWith('file:')) requests.push(q.url());
      });
      await page.goto(`file://${pageFile}`);
      await page.locator('header.top h1').filter({ hasText: 'Programmer · try 1' }).waitFor({ timeout: 15_000 });
      await checkTry(page, PROGRAMMER, figures.programmer);
      if (requests.length) throw new Error(`the exported page asked the network: ${requests.join(', ')}`);
      await bringShellCallIntoView(page);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(1500);
      const file = path.join(SCREENSHOT_DIR, 'transcript-real-report.png');
      await page.screenshot({ path: file });
      shots.push(file);
    });
    return shots[shots.length - 1];
  } finally {
    ns.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Clicks the timeline's bar of the call whose tool ran the Programmer's command: the call shows at the top. */
async function bringShellCallIntoView(frame: Frame | Page): Promise<void> {
  await frame.locator('.timeline .bar').first().click();
}
