// The extension in another display language, through VS Code's own mechanism (issue 47): the
// workbench runs in qps-ploc (a language pack installed as code-server starts makes VS Code resolve
// it), and the extension folder holds pseudo-localized copies of the English bundle and manifest
// text, made here by @vscode/l10n-dev. VS Code then loads l10n/bundle.l10n.qps-ploc.json for
// vscode.l10n.t (which the webview host hands to the pages) and package.nls.qps-ploc.json for the
// manifest: the Task view's title and rows, a command's title in the palette and the chart
// page's own text, its runs table's headings and its worded cells (the metrics' words, which
// src/shared words through @vscode/l10n) must all show the pseudo text, and the numbers in the
// cells must read as in English.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { replayHumanHistory } from '../../../src/core/history/replay-history';
import { writeReport } from '../../../src/core/report/export-report';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { repoRoot } from '../../harness/code-server';
import { writeLanguagePackVsix } from '../../harness/language-pack';
import { makeTestExtension } from '../../harness/test-extension';
import { SCREENSHOT_DIR, withBrowserContext, withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

const LOCALE = 'qps-ploc';
/** Windows' other pseudo-locale: a second pack, as the workbench needs two (displayArgs). */
const OTHER_LOCALE = 'qps-plocm';

type Messages = Record<string, string | { message: string; comment: string[] }>;

function readMessages(file: string): Messages {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
}

/** The pseudo text of `key` in `pseudo`, checked to differ from the English. */
function pseudoText(pseudo: Messages, english: Messages, key: string): string {
  const text = (v: Messages[string] | undefined) => (typeof v === 'string' ? v : v?.message);
  const was = text(english[key]);
  const now = text(pseudo[key]);
  if (was === undefined || !now || now === was) throw new Error(`the pseudo bundle has no text of its own for ${JSON.stringify(key)}: ${now}`);
  return now;
}

/** The webview frame whose page shows `text`. */
async function frameShowing(page: Page, text: string, timeoutMs = 60_000): Promise<Frame> {
  const start = Date.now();
  for (;;) {
    for (const f of page.frames()) {
      const body = await f
        .locator('body')
        .innerText({ timeout: 1000 })
        .catch(() => '');
      if (body.includes(text)) return f;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`no webview shows ${JSON.stringify(text)}`);
    await page.waitForTimeout(250);
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The runs table's row of the replayed run reads the pseudo words in its worded cells: solved and
 * zero-regression a pseudo yes or no, tokens the pseudo "none recorded" (the upstream developers
 * report none), time its numbers with the pseudo units; no English word of a cell is left.
 */
async function expectRunCells(
  chart: Pick<Frame, 'locator'>,
  want: { yesNo: readonly string[]; noTokens: string; duration: RegExp; columnOf: (englishHeading: string) => string },
): Promise<void> {
  const heads = (await chart.locator('#runs thead th').allTextContents()).map((t) => t.trim());
  const cells = (await chart.locator('#runs tbody tr').first().locator('td').allTextContents()).map((t) => t.trim());
  const cell = (englishHeading: string) => {
    const at = heads.indexOf(want.columnOf(englishHeading));
    if (at < 0) throw new Error(`the runs table has no ${englishHeading} column in pseudo text: ${JSON.stringify(heads)}`);
    return cells[at];
  };
  const problems = [
    ...['solved', 'zero-regression'].flatMap((h) => (want.yesNo.includes(cell(h)) ? [] : [`${h} reads ${JSON.stringify(cell(h))}`])),
    ...(cell('tokens in / out') === want.noTokens ? [] : [`tokens read ${JSON.stringify(cell('tokens in / out'))}`]),
    ...(want.duration.test(cell('time')) ? [] : [`time reads ${JSON.stringify(cell('time'))}`]),
    ...cells.filter((c) => /\b(yes|no|none recorded|crashed|min)\b/.test(c)).map((c) => `a cell is English: ${JSON.stringify(c)}`),
  ];
  if (problems.length) throw new Error(`the runs table's cells are not in the pseudo-locale: ${problems.join('; ')} (row ${JSON.stringify(cells)})`);
}

/** An exported report as chromium draws it from its file: the runs table's headings and first row, the page's text. */
async function drawnReport(
  context: BrowserContext,
  file: string,
  screenshot?: string,
): Promise<{ page: Page; heads: string[]; cells: string[]; text: string }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  await page.locator('#runs tbody tr').first().waitFor({ timeout: 60_000 });
  if (errors.length) throw new Error(`${file} failed to draw: ${errors.join('; ')}`);
  const heads = (await page.locator('#runs thead th').allTextContents()).map((t) => t.trim());
  const cells = (await page.locator('#runs tbody tr').first().locator('td').allTextContents()).map((t) => t.trim());
  if (screenshot) await page.screenshot({ path: screenshot });
  return { page, heads, cells, text: await page.locator('body').innerText() };
}

/**
 * The report the editor exported in the pseudo-locale against the same task's report written in
 * English: the pseudo one carries the pseudo words (heading, runs table, cells), the English one
 * the English; every heading and worded cell differs, and the numbers are the same.
 */
async function compareReports(
  pseudoFile: string,
  englishFile: string,
  want: { heading: string; english: string; cells: Parameters<typeof expectRunCells>[1] },
): Promise<string> {
  const shot = path.join(SCREENSHOT_DIR, 'pseudo-locale-report.png');
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return withBrowserContext({ viewport: { width: 1440, height: 900 } }, async (context) => {
    const pseudo = await drawnReport(context, pseudoFile);
    const english = await drawnReport(context, englishFile);
    const problems: string[] = [];
    if (!pseudo.text.includes(want.heading)) problems.push(`the pseudo report has no ${JSON.stringify(want.heading)}`);
    if (!english.text.includes(want.english) || english.text.includes(want.heading)) problems.push('the English report is not in English');
    if (pseudo.heads.length !== english.heads.length || pseudo.cells.length !== english.cells.length) problems.push('the two tables differ in shape');
    const digits = (t: string) => (t.match(/\d+(?:\.\d+)?/g) ?? []).join(' ');
    english.heads.forEach((h, i) => {
      if (pseudo.heads[i] === h) problems.push(`heading ${JSON.stringify(h)} is not translated`);
    });
    // The first cell is the run's name, an id: the same in every language.
    english.cells.forEach((c, i) => {
      const now = pseudo.cells[i];
      if (i > 0 && /\p{L}/u.test(c) ? now === c : now !== c) problems.push(`cell ${i} reads ${JSON.stringify(now)} against ${JSON.stringify(c)}`);
      if (digits(now) !== digits(c)) problems.push(`cell ${i}'s numbers ${digits(now)} are not ${digits(c)}`);
    });
    if (problems.length)
      throw new Error(
        `the exported report in the pseudo-locale: ${problems.join('; ')} (pseudo ${JSON.stringify(pseudo.cells)}, English ${JSON.stringify(english.cells)})`,
      );
    await expectRunCells(pseudo.page, want.cells);
    await pseudo.page.locator('#runs').scrollIntoViewIfNeeded();
    await pseudo.page.screenshot({ path: shot });
    return shot;
  });
}

/** The folders Export Report wrote in a task's reports folder. */
const exportedFolders = (reports: string) => (fs.existsSync(reports) ? fs.readdirSync(reports).filter((d) => d.startsWith('export-')) : []);

export async function pseudoLocaleScenario(): Promise<string> {
  const task = await prepareDemoTask('pseudo-locale');
  const extension = makeTestExtension();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-pseudo-'));
  try {
    const englishBundle = readMessages(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'));
    const englishNls = readMessages(path.join(repoRoot(), 'package.nls.json'));
    const bundle = getL10nPseudoLocalized(englishBundle);
    const nls = getL10nPseudoLocalized(englishNls);
    // The test extension links l10n/ to the repository's: a folder of its own, with the pseudo bundle beside the English.
    const l10nDir = path.join(extension.path, 'l10n');
    fs.rmSync(l10nDir, { recursive: true, force: true });
    fs.mkdirSync(l10nDir);
    fs.writeFileSync(path.join(l10nDir, 'bundle.l10n.json'), JSON.stringify(englishBundle));
    fs.writeFileSync(path.join(l10nDir, `bundle.l10n.${LOCALE}.json`), JSON.stringify(bundle));
    fs.writeFileSync(path.join(extension.path, `package.nls.${LOCALE}.json`), JSON.stringify(nls));

    // What must show: a Task view row (vscode.l10n.t), the view container's and the view's names
    // and a command's title (package.nls), and the chart page's heading and empty note (@vscode/l10n in the webview).
    const container = pseudoText(nls, englishNls, 'viewsContainer.sweci.title');
    const baseRow = pseudoText(bundle, englishBundle, 'Base');
    const taskView = pseudoText(nls, englishNls, 'view.task.name');
    const showChart = `${pseudoText(nls, englishNls, 'command.category')}: ${pseudoText(nls, englishNls, 'command.showChart.title')}`;
    const chartHeading = pseudoText(bundle, englishBundle, 'Normalized change a(c) per pytest run');
    // The Non-passed view's description (its fixed words between the counts).
    const passedGap = pseudoText(bundle, englishBundle, '{0} / {1} passed · gap {2}')
      .split(/\{\d\}/)[2]
      .trim();
    // The runs table (a human-history run, replayed here): a metric's heading and its tooltip.
    const regressionsHead = pseudoText(bundle, englishBundle, 'regressions');
    const regressionsAbout = pseudoText(bundle, englishBundle, 'How many times the passed count dropped');
    const upstream = pseudoText(bundle, englishBundle, 'upstream developers');
    // Its cells: the yes/no of solved and zero-regression, no tokens recorded, a duration's unit.
    const yesNo = [pseudoText(bundle, englishBundle, 'yes'), pseudoText(bundle, englishBundle, 'no')];
    const noTokens = pseudoText(bundle, englishBundle, 'none recorded');
    // A duration in any of its three shapes, its numbers as in English.
    const durationShapes = ['{0} s', '{0} min {1} s', '{0} h {1} min'].map((k) =>
      escapeRegExp(pseudoText(bundle, englishBundle, k)).replace(/\\\{\d\\\}/g, '\\d+(?:\\.\\d)?'),
    );
    const duration = new RegExp(`^(?:${durationShapes.join('|')})$`);
    const columnOf = (key: string) => pseudoText(bundle, englishBundle, key);
    const solvedWord = pseudoText(bundle, englishBundle, 'solved');
    // Export Report from the palette, into the task folder.
    const exportReport = `${pseudoText(nls, englishNls, 'command.category')}: ${pseudoText(nls, englishNls, 'command.exportReport.title')}`;
    const inTaskFolder = pseudoText(bundle, englishBundle, 'in the task folder');
    await replayHumanHistory({
      python: 'python3',
      timeoutMs: 120_000,
      format: 'junit',
      task: taskFolder(task.taskDir),
      runtime: new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable }),
    });

    const languagePacks = [await writeLanguagePackVsix(scratch, LOCALE), await writeLanguagePackVsix(scratch, OTHER_LOCALE)];
    const shot = await withWorkbench(
      { folder: task.taskDir, name: 'pseudo-locale', extensionPath: extension.path, display: { locale: LOCALE, languagePacks } },
      async (page, wb) => {
        await wb.clickActivityBarItem(container);
        await wb.waitForTreeRow(baseRow, 120_000);
        const titles = page.locator('.part.sidebar .pane-header .title');
        await titles
          .filter({ hasText: taskView })
          .first()
          .waitFor({ timeout: 30_000 })
          .catch(async () => {
            throw new Error(`no view is titled ${JSON.stringify(taskView)}; the titles are ${JSON.stringify(await titles.allTextContents())}`);
          });
        await page.locator('.part.sidebar .pane-header').filter({ hasText: passedGap }).first().waitFor({ timeout: 30_000 });
        // The Iterations view's run row: the replayed run solves, in the pseudo word.
        await page
          .locator('.part.sidebar .monaco-list-row')
          .filter({ hasText: 'human-history' })
          .filter({ hasText: solvedWord })
          .first()
          .waitFor({ timeout: 30_000 });
        // The palette finds the command only by its pseudo title.
        await wb.runCommand(showChart);
        const chart = await frameShowing(page, chartHeading);
        const head = chart.locator('#runs th').filter({ hasText: regressionsHead });
        await head.first().waitFor({ timeout: 30_000 });
        const about = await head.first().getAttribute('title');
        if (about !== regressionsAbout)
          throw new Error(`the regressions heading's tooltip reads ${JSON.stringify(about)}, not ${JSON.stringify(regressionsAbout)}`);
        await chart.locator('#runs td.who').filter({ hasText: upstream }).first().waitFor({ timeout: 30_000 });
        await expectRunCells(chart, { yesNo, noTokens, duration, columnOf });
        await chart.locator('#runs').scrollIntoViewIfNeeded();
        await page.mouse.move(900, 600);
        const shot = await wb.screenshot('pseudo-locale');
        // The editor's Export Report writes the report in the display language.
        await wb.runCommandAndPick(exportReport, inTaskFolder);
        // Written once metrics.json, its last file, is there (the toast may already be folded into the bell).
        const reports = path.dirname(taskFolder(task.taskDir).exportDir());
        for (const start = Date.now(); !exportedFolders(reports).some((d) => fs.existsSync(path.join(reports, d, 'metrics.json')));) {
          if (Date.now() - start > 120_000) throw new Error(`Export Report wrote nothing to ${reports}`);
          await page.waitForTimeout(250);
        }
        return shot;
      },
    );
    const reports = path.dirname(taskFolder(task.taskDir).exportDir());
    const exported = exportedFolders(reports);
    if (exported.length !== 1) throw new Error(`expected one exported report in ${reports}, found ${JSON.stringify(exported)}`);
    const english = await writeReport({
      task: taskFolder(task.taskDir),
      folder: path.join(scratch, 'english'),
      extensionRoot: repoRoot(),
      gamma: 1,
      title: 'English',
    });
    await compareReports(path.join(reports, exported[0], 'report.html'), english.html, {
      heading: pseudoText(bundle, englishBundle, 'Per-test results'),
      english: 'Per-test results',
      cells: { yesNo, noTokens, duration, columnOf },
    });
    return shot;
  } finally {
    extension.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
