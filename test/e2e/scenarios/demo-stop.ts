// Ctrl-C on the demo (scripts/demo.ts with code-server) removes the containers its editor had
// started. The demo runs as a person starts it, in a folder of its own (--dir), its URL opened in
// a browser; Run Tests gives the extension host its containers (the one that ran pytest, and the
// spare started for the next run). code-server's process group dies at once on Ctrl-C, its
// extension host with it: the demo itself must remove what the extension host left.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { processStartTime } from '../../../src/core/runtime/docker/container-owner';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { launchChromium, repoRoot, sleep } from '../../harness/code-server';
import { waitForWorkbench, workbenchHelpers } from '../../harness/workbench';
import { dockerForTests, listManagedContainers } from '../../unit/helpers/docker';

/** How long after Ctrl-C no container of the demo's editor may remain. */
const STOP_WITHIN_MS = 20_000;

export async function demoStopScenario(): Promise<string> {
  // Fails with what to run when the engine or the demo image is missing (CI has both).
  const conn = await dockerForTests();
  const script = path.join(repoRoot(), 'out', 'scripts', 'demo.js');
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run "npm run compile"`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-demo-stop-'));
  const demo = spawn(process.execPath, [script, '--code-server', '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [demo.stdout, demo.stderr]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => demo.once('exit', () => resolve()));
  // Every process the demo started (code-server, its extension hosts): pid → start time.
  const processes = new Map<number, string>();
  const note = () => {
    for (const [pid, start] of descendants(demo.pid!)) processes.set(pid, start);
  };
  let browser: Browser | undefined;
  try {
    const url = await waitForUrl(demo, output, exited);
    note();
    browser = await launchChromium({ handleSignals: false });
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await waitForWorkbench(page);
    const wb = { ...workbenchHelpers(page), page };
    await wb.openSweciView();
    await wb.waitForTreeRow(/Runtime.*docker · sweci\/demo-env/, 120_000);
    // Running the tests opens the task's environment in the extension host: containers.
    await wb.runCommand('SWE-CI: Run Tests and Refresh');
    await page.locator('.statusbar-item').filter({ hasText: 'docker' }).first().waitFor({ timeout: 120_000 });
    const before = await until(async () => {
      note();
      const mine = await containersOf(conn, processes);
      return mine.length > 0 ? mine : undefined;
    }, 120_000);
    if (!before) throw new Error(`the demo's editor started no container after Run Tests:\n${output.join('').slice(-2000)}`);
    const shot = await wb.screenshot('demo-stop');
    note();

    demo.kill('SIGINT');
    const stoppedAt = Date.now();
    await Promise.race([exited, sleep(STOP_WITHIN_MS)]);
    let left = await containersOf(conn, processes);
    while (left.length > 0 && Date.now() - stoppedAt < STOP_WITHIN_MS) {
      await sleep(500);
      left = await containersOf(conn, processes);
    }
    if (left.length > 0) {
      throw new Error(
        `${left.length} of the ${before.length} containers the demo's editor had started remain ${STOP_WITHIN_MS / 1000} s after Ctrl-C: ${left.join(', ')}\n` +
          `the demo printed:\n${output.join('').slice(-1500)}`,
      );
    }
    if (demo.exitCode === null && demo.signalCode === null) throw new Error(`the demo did not exit within ${STOP_WITHIN_MS / 1000} s of Ctrl-C`);
    if (!/Removed \d+ containers? the editor had started\./.test(output.join(''))) {
      throw new Error(`the demo did not say what it removed:\n${output.join('').slice(-1500)}`);
    }
    return shot;
  } finally {
    await browser?.close().catch(() => undefined);
    await cleanUp(demo, exited, processes, conn);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** The workbench URL the demo prints once code-server answers (the first run builds the dataset and checks out the task). */
async function waitForUrl(demo: ChildProcess, output: string[], exited: Promise<void>): Promise<string> {
  const url = await until(() => Promise.resolve(/^\s+(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(output.join(''))?.[1]), 600_000, exited);
  if (!url) {
    const why = demo.exitCode !== null || demo.signalCode !== null ? `exited (${demo.signalCode ?? demo.exitCode})` : 'printed no URL in 10 min';
    throw new Error(`the demo ${why}:\n${output.join('').slice(-3000)}`);
  }
  return url;
}

/** Polls `probe` until it gives a value, `timeoutMs` passes, or `stop` settles. */
async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, stop?: Promise<void>): Promise<T | undefined> {
  let stopped = false;
  void stop?.then(() => (stopped = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || stopped || Date.now() > deadline) return value;
    await sleep(300);
  }
}

/** Managed containers whose owner label names one of `processes` (pid and start time). */
async function containersOf(conn: DockerConnection, processes: Map<number, string>): Promise<string[]> {
  const host = os.hostname();
  return (await listManagedContainers(conn.docker))
    .filter((c) => {
      const m = /^(.*)\|(\d+)\|(\d*)$/.exec(c.owner ?? '');
      return m !== null && m[1] === host && processes.get(Number(m[2])) === m[3];
    })
    .map((c) => `${c.id.slice(0, 12)} (${c.role}, ${c.state}, owner ${c.owner})`);
}

/** The processes below `root` now (code-server runs in a process group of its own, still below it). */
function descendants(root: number): Map<number, string> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found = new Map<number, string>();
  const queue = [...(children.get(root) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const start = processStartTime(pid);
    if (start === undefined) continue;
    found.set(pid, start);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Whatever the demo left, whether the scenario passed or not: its processes, then their containers. */
async function cleanUp(demo: ChildProcess, exited: Promise<void>, processes: Map<number, string>, conn: DockerConnection): Promise<void> {
  if (demo.exitCode === null && demo.signalCode === null) {
    demo.kill('SIGINT');
    await Promise.race([exited, sleep(15_000)]);
    if (demo.exitCode === null && demo.signalCode === null) demo.kill('SIGKILL');
  }
  for (const [pid, start] of processes) {
    if (processStartTime(pid) !== start) continue; // gone, or the pid is another process now
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  const host = os.hostname();
  for (const c of await listManagedContainers(conn.docker).catch(() => [])) {
    const m = /^(.*)\|(\d+)\|(\d*)$/.exec(c.owner ?? '');
    if (m && m[1] === host && processes.get(Number(m[2])) === m[3])
      await conn.docker
        .getContainer(c.id)
        .remove({ force: true })
        .catch(() => undefined);
  }
}
