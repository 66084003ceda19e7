// Opens the real VS Code workbench (code-server + chromium) with this extension
// installed, for screenshot / end-to-end tests.
//
//   await withWorkbench({ folder }, async (page, wb) => {
//     await wb.openSweciView();                    // clicks the "SWE-CI" activity-bar item
//     await wb.waitForTreeRow(/test_/);            // a row of the Non-passed tests view
//     await wb.screenshot('non-passed');           // test-results/e2e/non-passed.png
//   });
//
// Everything (browser, code-server, temp dirs) is cleaned up when the callback
// returns or throws; on a throw a `<name>-failure.png` is saved first.
//
// Inside `lane.run(...)` of a WorkbenchLane (the e2e tier runs each scenario so), the windows
// share the lane's code-server and chromium instead: each window gets a fresh browser context,
// fresh user settings and storage, and its extension host is ended when it closes.

import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { CodeServer, launchChromium, linkExtension, repoRoot, sleep, startCodeServer } from './code-server';
import { makeTestExtension, type TestExtension } from './test-extension';

export interface WorkbenchOptions {
  /** Folder to open (absolute or relative to cwd). Default: no folder. */
  folder?: string;
  /**
   * How the extension is loaded:
   *  - 'installed' (default): symlinked into the server's extensions folder as
   *    `sweci.swe-ci-vscode-<version>`, like a user install;
   *  - 'development': as an extension under development (smoke-test payload);
   *  - 'none': not loaded.
   */
  extension?: 'installed' | 'development' | 'none';
  /** Extension folder; default: the test bundle's (test-extension.ts: the product with the test API; needs `npm run build`). */
  extensionPath?: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server / the extension host. */
  env?: NodeJS.ProcessEnv;
  /** Keep workspace trust on, so the folder opens untrusted (restricted mode). Default false. */
  workspaceTrust?: boolean;
  /** Browser viewport; default 1440×900. */
  viewport?: { width: number; height: number };
  /** Name used for the failure screenshot; default 'workbench'. */
  name?: string;
  /** Print code-server output to stderr (also SWECI_E2E_VERBOSE=1). */
  verbose?: boolean;
  /** false: without VS Code's smoke-test driver, which hides notification toasts (as a person sees it). */
  smokeTestDriver?: boolean;
  /**
   * The display language (code-server's --locale), with the language packs (.vsix,
   * language-pack.ts) that code-server installs as it starts: VS Code resolves a locale only
   * through an installed pack. The window opens once VS Code has recorded the pack for `locale`.
   */
  display?: { locale: string; languagePacks: string[] };
}

export interface Workbench {
  readonly page: Page;
  readonly server: CodeServer;
  readonly browser: Browser;
  /** Clicks the activity-bar item whose aria-label contains `label` and waits for the side bar. */
  clickActivityBarItem(label: string): Promise<void>;
  /** Opens the SWE-CI view container (activity-bar item "SWE-CI"). */
  openSweciView(): Promise<void>;
  /** Waits for a tree/list row in the side bar, optionally containing `text`; returns it. */
  waitForTreeRow(text?: string | RegExp, timeoutMs?: number): Promise<Locator>;
  /**
   * Hovers the side-bar row matching `row` until its tooltip shows `text` (a hover that follows
   * another does not always open: it moves away and tries again, three times).
   */
  hoverTreeRow(row: string | RegExp, text: string | RegExp): Promise<void>;
  /** Waits for the welcome content of a view in the side bar, optionally containing `text`. */
  waitForWelcomeView(text?: string | RegExp, timeoutMs?: number): Promise<Locator>;
  /** Folds the side bar's views with these titles (e.g. 'Task'), leaving the room to the others. */
  foldViews(...titles: string[]): Promise<void>;
  /** Drags the side bar's edge so it is `width` pixels wide, as a user would to read long rows. */
  widenSideBar(width: number): Promise<void>;
  /** Runs a command from the command palette by its title (e.g. 'SWE-CI: Show Log'). */
  runCommand(title: string): Promise<void>;
  /**
   * Runs a command from the palette and clicks the first row of the Quick Pick it shows that
   * holds `item`; when that pick closes before the click lands, the command is run again.
   */
  runCommandAndPick(title: string, item: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Waits until no extension is activating and no view shows a progress bar (bounded; never throws). */
  waitForIdle(timeoutMs?: number): Promise<void>;
  /** Developer: Reload Window, as a person asks for it (the workbench saves its state first); waits for the new workbench. */
  reloadWindow(): Promise<void>;
  /**
   * Waits for idle (above), saves test-results/e2e/<name>.png and returns its path.
   * With `target` (e.g. `page.locator('.part.sidebar')`) only that element is captured.
   */
  screenshot(name: string, target?: Locator, opts?: { keepHover?: boolean }): Promise<string>;
}

export const SCREENSHOT_DIR = path.join(repoRoot(), 'test-results', 'e2e');

/** Starts code-server + chromium, opens the workbench, runs `fn`, and always cleans up. */
export async function withWorkbench<T>(opts: WorkbenchOptions, fn: (page: Page, wb: Workbench) => Promise<T>): Promise<T> {
  const wb = await openWorkbench(opts);
  try {
    return await fn(wb.page, wb);
  } catch (err) {
    const file = await wb.screenshot(`${opts.name ?? 'workbench'}-failure`).catch(() => undefined);
    if (file) console.error(`screenshot of the failure: ${file}`);
    const logs = keepWindowLogs(wb.server, `${opts.name ?? 'workbench'}-failure-logs`);
    if (logs) console.error(`the window's extension host logs: ${logs.folder}\n${logs.tail}`);
    throw err;
  } finally {
    await wb.close();
  }
}

/** Lines of the extension's own log printed with a failure (CI keeps the output, not the files). */
const LOG_TAIL_LINES = 40;

/**
 * Copies the newest extension host's logs (the window that failed: a server serves one window at
 * a time) to test-results/e2e/<name>/, the SWE-CI log among them, and returns that log's last
 * lines. A failure that passes on its retry is then still explained. Never throws.
 */
function keepWindowLogs(server: CodeServer, name: string): { folder: string; tail: string } | undefined {
  try {
    const logs = path.join(server.userDataDir, 'logs');
    const hosts = fs
      .readdirSync(logs)
      .flatMap((session) => fs.readdirSync(path.join(logs, session)).map((d) => path.join(logs, session, d)))
      .filter((d) => /^exthost\d*$/.test(path.basename(d)))
      .map((d) => ({ d, t: fs.statSync(d).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    if (hosts.length === 0) return undefined;
    const folder = path.join(SCREENSHOT_DIR, name);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.cpSync(hosts[0].d, folder, { recursive: true });
    const lastLines = (file: string | undefined, keep: (line: string) => boolean = () => true): string[] =>
      file && fs.existsSync(path.join(folder, file))
        ? fs
            .readFileSync(path.join(folder, file), 'utf8')
            .split('\n')
            .filter((l) => l.trim() && keep(l))
            .slice(-LOG_TAIL_LINES)
        : [];
    const ours = lastLines(
      fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).find((f) => /swe-ci-vscode/.test(path.dirname(f)) && f.endsWith('.log')),
    );
    // What the extension host itself reported as errors (a provider or command that threw).
    const hostErrors = lastLines('remoteexthost.log', (l) => /\[error\]/.test(l));
    const tail = [
      ours.length ? `the SWE-CI log's last lines:\n${ours.join('\n')}` : '(the SWE-CI log is empty)',
      ...(hostErrors.length ? [`the extension host's errors:\n${hostErrors.join('\n')}`] : []),
    ].join('\n');
    return { folder, tail };
  } catch {
    return undefined;
  }
}

/** Like withWorkbench but you call `close()` yourself. */
export async function openWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench & { close(): Promise<void> }> {
  const lane = laneStorage.getStore();
  // A lane serves the usual window: the installed test extension, one window at a time.
  if (lane && (opts.extension ?? 'installed') === 'installed' && !opts.extensionPath && !opts.display && !lane.busy) return lane.openWindow(opts);
  return openOwnWorkbench(opts);
}

async function openOwnWorkbench(opts: WorkbenchOptions): Promise<Workbench & { close(): Promise<void> }> {
  const mode = opts.extension ?? 'installed';
  const testExtension = mode !== 'none' && !opts.extensionPath ? makeTestExtension() : undefined;
  const extensionPath = path.resolve(opts.extensionPath ?? testExtension?.path ?? repoRoot());
  if (mode !== 'none' && !fs.existsSync(path.join(extensionPath, 'dist', 'extension.js'))) {
    testExtension?.dispose();
    throw new Error(`${extensionPath}/dist/extension.js is missing; build first: npm run build`);
  }
  const verbose = opts.verbose ?? process.env.SWECI_E2E_VERBOSE === '1';
  const server = await startCodeServer({
    settings: opts.settings,
    env: opts.env,
    workspaceTrust: opts.workspaceTrust,
    smokeTestDriver: opts.smokeTestDriver,
    args: opts.display && displayArgs(opts.display),
    onOutput: verbose ? (l) => process.stderr.write(`[code-server] ${l}\n`) : undefined,
  });
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    await server.stop();
    testExtension?.dispose();
  };
  try {
    if (mode === 'installed') linkExtension(server.extensionsDir, extensionPath);
    if (opts.display) await waitForLanguagePack(server, opts.display.locale);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1440, height: 900 } });
    if (verbose) {
      page.on('console', (m) => m.type() === 'error' && console.error(`[browser] ${m.text()}`));
      page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
    }
    const payload: Array<[string, string]> = [['skipWelcome', 'true']];
    if (mode === 'development') payload.push(['extensionDevelopmentPath', server.remoteUri(extensionPath)]);
    await page.goto(server.workbenchUrl({ folder: opts.folder, payload }), { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await waitForWorkbench(page);
    return { ...workbenchHelpers(page), page, server, browser, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * code-server's arguments for a display language. VS Code's server installs the packs as it loads
 * (install-builtin-extension) and then records them in <user-data>/languagepacks.json, which is
 * what resolves --locale; `code-server --install-extension` installs without recording them. The
 * option must be a list: code-server passes one --vscode-option value on as a string, which VS
 * Code's server cannot take here, and a pack named twice is installed twice at once (the second
 * fails its rename), so two packs or more.
 */
function displayArgs(display: { locale: string; languagePacks: string[] }): string[] {
  if (display.languagePacks.length < 2)
    throw new Error('display.languagePacks: give two language packs or more (code-server passes a single one on as a string, which VS Code rejects)');
  return ['--locale', display.locale, ...display.languagePacks.flatMap((p) => ['--vscode-option', `install-builtin-extension=${p}`])];
}

/**
 * Waits until VS Code's server has recorded a language pack for `locale`. code-server loads VS
 * Code's server with the first request to it, so one is made first; a page loaded before the pack
 * is recorded would stay English (the window and its extension host take the language then).
 */
async function waitForLanguagePack(server: CodeServer, locale: string, timeoutMs = 120_000): Promise<void> {
  await fetch(server.workbenchUrl()).then(
    (r) => r.arrayBuffer(),
    () => undefined,
  );
  const file = path.join(server.userDataDir, 'languagepacks.json');
  const recorded = () => {
    try {
      return locale in (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>);
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!recorded()) {
    if (Date.now() > deadline)
      throw new Error(`code-server did not install the language pack for ${locale} (${file} does not name it):\n${server.output().slice(-30).join('\n')}`);
    await sleep(100);
  }
}

/** What makes code-servers differ: set when the server starts, the same for all its windows. */
interface ServerKind {
  env?: NodeJS.ProcessEnv;
  workspaceTrust?: boolean;
  smokeTestDriver?: boolean;
}

const laneStorage = new AsyncLocalStorage<WorkbenchLane>();

/**
 * Asks code-server for its files as they are: a window's fresh context caches nothing, so each
 * window would have code-server gzip the workbench's 19 MB of scripts again and chromium unzip them.
 */
const IDENTITY_ENCODING: Record<string, string> = process.env.SWECI_CS_COMPRESS === '1' ? {} : { 'Accept-Encoding': 'identity' };

/**
 * Servers a lane keeps at once: the two usual kinds (with and without the smoke-test driver) and
 * one more. A server of an unusual kind (its own env, workspace trust) is the first to go.
 */
const LANE_SERVERS = 3;

/**
 * The code-servers and the chromium that the scenarios of one lane of the e2e tier share, one
 * window at a time. A server is started per kind (extension host environment, workspace trust,
 * smoke-test driver: all fixed per server) when a window first needs it. Each window starts
 * from nothing the earlier ones left: replaced user settings, no global or workspace storage
 * (a fresh browser context holds the workbench's state, the extension's globalState and
 * secrets), and no extension host (ended when the window closes).
 */
export class WorkbenchLane {
  busy = false;
  /** Counts, for the tier's summary. */
  readonly started = { servers: 0, browsers: 0, windows: 0 };
  private browser?: Promise<Browser>;
  private extension?: TestExtension;
  private readonly servers: Array<{ key: string; server: Promise<CodeServer> }> = [];

  /** Runs `fn` with this lane serving its workbenches (and offline pages' browser contexts). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return laneStorage.run(this, fn);
  }

  /** A fresh context of the lane's chromium (launched on first use, again if it died). */
  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    let browser = this.browser ? await this.browser.catch(() => undefined) : undefined;
    if (!browser?.isConnected()) {
      this.browser = launchChromium();
      this.started.browsers++;
      browser = await this.browser;
    }
    return browser.newContext(options);
  }

  async openWindow(opts: WorkbenchOptions): Promise<Workbench & { close(): Promise<void> }> {
    this.busy = true;
    this.started.windows++;
    let context: BrowserContext | undefined;
    let server: CodeServer | undefined;
    const close = async () => {
      await context?.close().catch(() => undefined);
      context = undefined;
      // The closed window's extension host would otherwise run on, for hours.
      if (server) await server.stopExtensionHosts();
      server = undefined;
      this.busy = false;
    };
    try {
      server = await this.serverFor(opts);
      server.resetUserData(opts.settings);
      context = await this.newContext({ viewport: opts.viewport ?? { width: 1440, height: 900 }, extraHTTPHeaders: IDENTITY_ENCODING });
      const browser = context.browser()!;
      const page = await context.newPage();
      watchPage(page, opts);
      await page.goto(server.workbenchUrl({ folder: opts.folder, payload: [['skipWelcome', 'true']] }), { waitUntil: 'domcontentloaded', timeout: 120_000 });
      await waitForWorkbench(page);
      return { ...workbenchHelpers(page), page, server, browser, close };
    } catch (err) {
      await close();
      throw err;
    }
  }

  /** Stops the lane's servers and browser; the next window starts them again (a retry starts so). */
  async close(): Promise<void> {
    const servers = this.servers.splice(0);
    const browser = this.browser;
    this.browser = undefined;
    await Promise.all([...servers.map(async (s) => (await s.server.catch(() => undefined))?.stop()), browser?.then((b) => b.close()).catch(() => undefined)]);
    this.extension?.dispose();
    this.extension = undefined;
    this.busy = false;
  }

  private async serverFor(opts: WorkbenchOptions): Promise<CodeServer> {
    const kind: ServerKind = { env: opts.env, workspaceTrust: opts.workspaceTrust ?? false, smokeTestDriver: opts.smokeTestDriver ?? true };
    const key = JSON.stringify(kind);
    const i = this.servers.findIndex((s) => s.key === key);
    if (i >= 0) {
      // Most recently used last.
      const [found] = this.servers.splice(i, 1);
      this.servers.push(found);
      const server = await found.server.catch(() => undefined);
      if (server && !(await exitedYet(server))) return server;
      this.servers.pop();
    }
    while (this.servers.length >= LANE_SERVERS) {
      const unusual = this.servers.findIndex((s) => isUnusual(JSON.parse(s.key) as ServerKind));
      const [gone] = this.servers.splice(Math.max(unusual, 0), 1);
      await (await gone.server.catch(() => undefined))?.stop();
    }
    this.extension ??= makeTestExtension();
    const extensionPath = this.extension.path;
    if (!fs.existsSync(path.join(extensionPath, 'dist', 'extension.js')))
      throw new Error(`${extensionPath}/dist/extension.js is missing; build first: npm run build`);
    const verbose = opts.verbose ?? process.env.SWECI_E2E_VERBOSE === '1';
    const starting = startCodeServer({ ...kind, onOutput: verbose ? (l) => process.stderr.write(`[code-server] ${l}\n`) : undefined }).then((s) => {
      linkExtension(s.extensionsDir, extensionPath);
      return s;
    });
    this.started.servers++;
    this.servers.push({ key, server: starting });
    try {
      return await starting;
    } catch (err) {
      this.servers.pop();
      throw err;
    }
  }
}

/** A fresh browser context: the lane's chromium inside a lane, else one launched for it and closed with it. */
export async function withBrowserContext<T>(options: BrowserContextOptions, fn: (context: BrowserContext) => Promise<T>): Promise<T> {
  const lane = laneStorage.getStore();
  const browser = lane ? undefined : await launchChromium();
  const context = lane ? await lane.newContext(options) : await browser!.newContext(options);
  try {
    return await fn(context);
  } finally {
    await context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

function isUnusual(kind: ServerKind): boolean {
  return kind.env !== undefined || kind.workspaceTrust === true;
}

async function exitedYet(server: CodeServer): Promise<boolean> {
  return Promise.race([server.exited.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
}

function watchPage(page: Page, opts: WorkbenchOptions): void {
  if (!(opts.verbose ?? process.env.SWECI_E2E_VERBOSE === '1')) return;
  page.on('console', (m) => m.type() === 'error' && console.error(`[browser] ${m.text()}`));
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
}

/** Waits until the workbench has rendered its activity bar and side bar parts. */
export async function waitForWorkbench(page: Page, timeoutMs = 120_000): Promise<void> {
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The helpers of a Workbench for a page that shows one (e.g. a workbench a script started). */
export function workbenchHelpers(page: Page): Omit<Workbench, 'page' | 'server' | 'browser'> {
  const sideBar = page.locator('.monaco-workbench .part.sidebar');

  const clickActivityBarItem = async (label: string) => {
    const item = page.locator(`.part.activitybar .action-item:has(a[aria-label*="${cssString(label)}"])`).first();
    // Contributed containers appear once the extension host has scanned extensions: as long as
    // the page's own load may take (seen past 60 s with the machine 15 times oversubscribed).
    await item.waitFor({ state: 'visible', timeout: 120_000 });
    // Clicking the item of the container already shown would hide the side bar. A click that
    // lands while the workbench is still restoring its layout can leave the side bar hidden (seen
    // under load): look again and click again, as a person would, for up to 30 s.
    const deadline = Date.now() + 30_000;
    for (let round = 1; ; round++) {
      // After a round the side bar is known hidden, so a click can only show it.
      const open = round === 1 && (await item.evaluate((el) => el.classList.contains('checked') || el.getAttribute('aria-selected') === 'true'));
      if (!open) await item.click();
      const shown = await sideBar.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      if (shown) return;
      if (Date.now() > deadline) throw new Error(`the side bar did not show "${label}" within 30 s of clicking its activity bar item`);
    }
  };

  const waitForTreeRow = async (text?: string | RegExp, timeoutMs = 60_000) => {
    let rows = sideBar.locator('.monaco-list-row');
    if (text !== undefined) rows = rows.filter({ hasText: text });
    const row = rows.first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    return row;
  };

  const hoverTreeRow = async (row: string | RegExp, text: string | RegExp) => {
    const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: text }).first();
    for (let attempt = 1; ; attempt++) {
      await page.mouse.move(900, 600);
      await page.waitForTimeout(500);
      await (await waitForTreeRow(row)).hover();
      const shown = await hover.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (shown) return;
      if (attempt === 3) throw new Error(`the tooltip of the row ${String(row)} never showed ${String(text)}`);
    }
  };

  const waitForWelcomeView = async (text?: string | RegExp, timeoutMs = 60_000) => {
    let views = sideBar.locator('.welcome-view-content');
    if (text !== undefined) views = views.filter({ hasText: text });
    const view = views.first();
    await view.waitFor({ state: 'visible', timeout: timeoutMs });
    return view;
  };

  // The palette can close under us (a notification or a view taking focus while it opens; in CI
  // a modal made it inert once): open it again rather than wait on a closed one.
  const runCommand = async (title: string) => {
    const input = page.locator('.quick-input-widget input');
    const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: title }).first();
    for (let attempt = 1; ; attempt++) {
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 5, y: 5 } })
        .catch(() => undefined);
      await page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill(`>${title}`, { timeout: 8_000 });
        await row.waitFor({ state: 'visible', timeout: 10_000 });
        await page.keyboard.press('Enter');
        return;
      } catch (err) {
        const dialog = await page
          .locator('.monaco-dialog-box')
          .first()
          .innerText({ timeout: 500 })
          .catch(() => '');
        if (attempt === 3)
          throw new Error(`the command palette did not run "${title}"${dialog ? ` (a dialog is open: ${dialog})` : ''}: ${(err as Error).message}`);
        console.error(`runCommand "${title}": attempt ${attempt} failed${dialog ? ` (dialog: ${dialog.replace(/\s+/g, ' ')})` : ''}; trying again`);
        await page.keyboard.press('Escape');
        await page.waitForTimeout(500);
      }
    }
  };

  // A Quick Pick closes when it loses focus, and under load something can take it between the row
  // showing and the click (seen once, on demo-toast's Replay Run pick). Its rows stay in the page,
  // hidden, so the click would wait on them for good: run the command again instead.
  const runCommandAndPick = async (title: string, item: string | RegExp, timeoutMs = 30_000) => {
    const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: item }).first();
    for (let attempt = 1; ; attempt++) {
      await runCommand(title);
      try {
        await row.waitFor({ state: 'visible', timeout: timeoutMs });
        await row.click({ timeout: 10_000 });
        return;
      } catch (err) {
        if (attempt === 3) throw new Error(`"${title}" never let its row ${String(item)} be clicked: ${(err as Error).message}`);
        console.error(`runCommandAndPick "${title}": attempt ${attempt} failed (the pick closed or never listed ${String(item)}); trying again`);
        await page.keyboard.press('Escape');
        await page.waitForTimeout(500);
      }
    }
  };

  const widenSideBar = async (width: number) => {
    const box = await sideBar.boundingBox();
    if (!box) return;
    await page.mouse.move(box.x + box.width + 1, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + width, box.y + 200, { steps: 8 });
    await page.mouse.up();
    // Off the sash, so its hover highlight is not in screenshots.
    await page.mouse.move(box.x + width + 300, box.y + 400);
  };

  const foldViews = async (...titles: string[]) => {
    for (const title of titles) {
      const header = sideBar.locator('.pane-header').filter({ hasText: title }).first();
      await header.waitFor({ state: 'visible', timeout: 30_000 });
      // Click the title, not the header's middle, where the view's action buttons sit.
      if ((await header.getAttribute('aria-expanded')) === 'true') await header.locator('.title').first().click();
    }
  };

  const waitForIdle = async (timeoutMs = 30_000) => {
    await page
      .waitForFunction(
        () => {
          const status = document.querySelector('.part.statusbar')?.textContent ?? '';
          if (/Activating Extensions/i.test(status)) return false;
          const busy = Array.from(document.querySelectorAll('.part.sidebar .monaco-progress-container.active, .part.panel .monaco-progress-container.active'));
          return busy.every((el) => (el as HTMLElement).offsetParent === null);
        },
        undefined,
        { timeout: timeoutMs, polling: 250 },
      )
      .catch(() => undefined);
    // Let the last layout/animation settle.
    await page.waitForTimeout(300);
  };

  const reloadWindow = async () => {
    const reloaded = page.waitForEvent('load', { timeout: 120_000 });
    await runCommand('Developer: Reload Window');
    await reloaded;
    await waitForWorkbench(page);
  };

  const screenshot = async (name: string, target?: Locator, opts: { keepHover?: boolean } = {}) => {
    // Park the mouse over the editor area so no hover tooltip covers the views (unless the
    // tooltip is what the picture is of).
    const size = page.viewportSize();
    if (size && !opts.keepHover) await page.mouse.move(size.width - 40, size.height - 80);
    await waitForIdle();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`);
    if (target) await target.screenshot({ path: file });
    else await page.screenshot({ path: file });
    return file;
  };

  return {
    clickActivityBarItem,
    openSweciView: () => clickActivityBarItem('SWE-CI'),
    waitForTreeRow,
    hoverTreeRow,
    waitForWelcomeView,
    widenSideBar,
    foldViews,
    runCommand,
    runCommandAndPick,
    waitForIdle,
    reloadWindow,
    screenshot,
  };
}

function cssString(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}
