// Behaves like the VS Code executable for @vscode/test-electron's
// runTests({ vscodeExecutablePath: 'scripts/vscode-shim' }): it reads
// --extensionDevelopmentPath=…, --extensionTestsPath=… and a folder argument
// (other flags are ignored), runs the tests in code-server's real extension
// host through the smoke-test `payload` URL, prints the test output and exits
// with the tests' exit code.
//
// Environment:
//   SWECI_TEST_TIMEOUT_MS  bound on the whole run (default 2400000 = 40 min: it is there to end a
//                          hang, not to time the tier, which takes 8 min quiet and over 10 beside other work)
//   SWECI_SHIM_VERBOSE=1   also print code-server output and browser console errors
//   everything else is passed to code-server and so reaches the extension host.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import { CodeServer, launchChromium, startCodeServer } from './code-server';

interface ShimArgs {
  extensionDevelopmentPaths: string[];
  extensionTestsPath?: string;
  folder?: string;
}

// Flags of the VS Code CLI that take their value as the next argument.
const FLAGS_WITH_VALUE = new Set([
  '--extensions-dir',
  '--user-data-dir',
  '--extensionDevelopmentPath',
  '--extensionTestsPath',
  '--locale',
  '--profile',
  '--log',
  '--inspect-extensions',
  '--inspect-brk-extensions',
  '--crash-reporter-directory',
]);

export function parseArgs(argv: string[]): ShimArgs {
  const out: ShimArgs = { extensionDevelopmentPaths: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let name = a;
    let value: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) {
        name = a.slice(0, eq);
        value = a.slice(eq + 1);
      } else if (FLAGS_WITH_VALUE.has(a)) {
        value = argv[++i];
      }
      if (name === '--extensionDevelopmentPath' && value) out.extensionDevelopmentPaths.push(path.resolve(value));
      else if (name === '--extensionTestsPath' && value) out.extensionTestsPath = path.resolve(value);
      continue; // any other flag: ignored
    }
    if (a.startsWith('-')) continue;
    out.folder = path.resolve(a); // last positional wins, like a single-folder window
  }
  return out;
}

// The workbench's own start-up and offline-gallery messages, which arrive on the same
// channel as the tests' console output. Shown with SWECI_SHIM_VERBOSE=1.
const CHATTER = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket \(/,
  /^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^\[AgentHost/,
  /^\[AccountPolicyGate\]/,
  /ENOTFOUND open-vsx\.org/,
];

function isWorkbenchChatter(text: string): boolean {
  return CHATTER.some((re) => re.test(text));
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args.extensionTestsPath) {
    console.error('vscode-shim: --extensionTestsPath=… is required (this shim only runs extension tests)');
    return 2;
  }
  if (args.extensionDevelopmentPaths.length === 0) {
    console.error('vscode-shim: --extensionDevelopmentPath=… is required');
    return 2;
  }
  for (const p of [...args.extensionDevelopmentPaths, args.extensionTestsPath]) {
    if (!fs.existsSync(p) && !fs.existsSync(`${p}.js`)) {
      console.error(`vscode-shim: ${p} does not exist (did you compile with \`npx tsc -p .\`?)`);
      return 2;
    }
  }
  if (args.folder && !fs.existsSync(args.folder)) {
    console.error(`vscode-shim: folder ${args.folder} does not exist`);
    return 2;
  }

  const timeoutMs = Number(process.env.SWECI_TEST_TIMEOUT_MS ?? 2_400_000);
  const verbose = process.env.SWECI_SHIM_VERBOSE === '1';
  const started = Date.now();
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let finished = false;

  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
  };
  // runTests forwards Ctrl-C as SIGINT; never leave code-server behind.
  let interrupted = false;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`vscode-shim: ${sig}, stopping code-server`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    server = await startCodeServer({
      // The built-in Git extension shares the extension host with the tests. Its background
      // `git check-ignore` on the task folders the tests make and delete can die with EPIPE,
      // which mocha reports as a failure of whichever test is running. No test needs it.
      settings: { 'git.enabled': false },
      onOutput: verbose ? (l) => process.stderr.write(`[code-server] ${l}\n`) : undefined,
    });
    const s = server;
    const payload: Array<[string, string]> = [['skipWelcome', 'true']];
    for (const p of args.extensionDevelopmentPaths) payload.push(['extensionDevelopmentPath', s.remoteUri(p)]);
    payload.push(['extensionTestsPath', s.remoteUri(args.extensionTestsPath)]);
    const url = s.workbenchUrl({ folder: args.folder, payload });
    console.log(`vscode-shim: code-server ${s.url} (pid ${s.pid}), folder ${args.folder ?? '(none)'}`);

    browser = await launchChromium({ handleSignals: false });
    const page = await browser.newPage();
    let testsDone = false;
    let resolveExit: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => (resolveExit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      testsDone = true;
      resolveExit(typeof code === 'number' ? code : Number(code) || 0);
    });
    await page.exposeFunction('codeAutomationLog', (_level: unknown, logArgs: unknown) => {
      const parts: unknown[] = Array.isArray(logArgs) ? logArgs : [logArgs];
      const text = format(...parts);
      // After the exit code only the workbench's own teardown noise follows.
      if (!verbose && (testsDone || isWorkbenchChatter(text))) return;
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });
    page.on('pageerror', (err) => {
      if (verbose) console.error(`[page error] ${err.message}`);
    });
    page.on('console', (msg) => {
      if (verbose && msg.type() === 'error') console.error(`[browser] ${msg.text()}`);
    });
    page.on('crash', () => console.error('vscode-shim: the workbench page crashed'));

    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((resolve) => {
      timer = setTimeout(
        () => {
          console.error(
            `vscode-shim: the tests did not finish within ${timeoutMs} ms (SWECI_TEST_TIMEOUT_MS); giving up.\n` +
              `Last code-server output:\n${s.output().slice(-15).join('\n')}`,
          );
          resolve(1);
        },
        Math.max(0, timeoutMs - (Date.now() - started)),
      );
    });
    const code = await Promise.race([exitCode, timeout]);
    clearTimeout(timer);
    finished = true;
    if (code !== 0 && !verbose) {
      const tail = s
        .output()
        .filter((l) => /error|fail|exception/i.test(l) && !isWorkbenchChatter(l) && !/open-vsx\.org/.test(l))
        .slice(-20);
      if (tail.length) console.error(`vscode-shim: code-server errors:\n${tail.join('\n')}`);
    }
    console.log(`vscode-shim: tests exited with ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return code;
  } catch (err) {
    console.error(`vscode-shim: ${err instanceof Error ? err.message : String(err)}`);
    if (server && !finished) console.error(`Last code-server output:\n${server.output().slice(-30).join('\n')}`);
    return 1;
  } finally {
    await cleanup();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
