// The process launcher: real programs started by the real Python launcher (and by node when
// there is none), their output byte for byte, cancellation, a launcher that dies, a process that
// ends while the launcher idles.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { isAbortError } from '../../../src/core/util/errors';
import { launch } from '../../../src/core/util/process-launcher';

type LaunchRequest = Parameters<typeof launch>[0];
/** The launcher's first line, which `ps` shows (process-launcher.ts). */
const LAUNCHER_MARK = 'sweci-process-launcher';

const MODULE = path.join(__dirname, '..', '..', '..', 'src', 'core', 'util', 'process-launcher.js');
const env = (): Record<string, string> => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
const sh = (script: string, more: Partial<LaunchRequest> = {}): LaunchRequest => ({ file: '/bin/sh', args: ['-c', script], cwd: '/', env: env(), ...more });
/** The command line of the process that started the program: its parent. */
const PARENT_CMDLINE = 'tr "\\0" " " < /proc/$PPID/cmdline';

async function waitFor(file: string): Promise<string> {
  for (;;) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text.trim();
    await new Promise((r) => setTimeout(r, 20));
  }
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Runs `code` in a new node process that can load the launcher; its stdout, once it has ended. */
function nodeScript(code: string, extraEnv: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', `const { launch } = require(${JSON.stringify(MODULE)});\n${code}`], {
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('process launcher', () => {
  test('a program runs in its cwd with its environment and input, started by the launcher; its exit code and output come back', async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-launcher-')));
    try {
      const r = await launch(
        sh(`pwd; printf '%s\\n' "$SWECI_LAUNCHER_TEST"; cat; echo oops >&2; ${PARENT_CMDLINE} >&2; exit 3`, {
          cwd: dir,
          env: { ...env(), SWECI_LAUNCHER_TEST: 'é = "x"' },
          input: 'line one\nline two\n',
        }),
      );
      assert.equal(r.code, 3);
      assert.equal(r.signal, null);
      assert.equal(r.stdout.toString(), `${dir}\né = "x"\nline one\nline two\n`);
      const [oops, parent] = r.stderr.toString().split('\n');
      assert.equal(oops, 'oops');
      assert.match(parent, new RegExp(`python.* -I -S -c # ${LAUNCHER_MARK}`), `started by the launcher, not by node: ${parent}`);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('output comes back byte for byte, binary and large', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const r = await launch(sh(`printf '${[...bytes].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')}'; head -c 3000000 /dev/zero`));
    assert.equal(r.code, 0);
    assert.equal(r.stdout.length, 256 + 3_000_000);
    assert.deepEqual(r.stdout.subarray(0, 256), bytes);
    assert.ok(r.stdout.subarray(256).every((b) => b === 0));
  });

  // The timeouts only bound a failure (a launcher that runs one program at a time, or never ends).
  test('programs run side by side: one waits for a file the next one writes', { timeout: 120_000 }, async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-launcher-'));
    try {
      const flag = path.join(dir, 'flag');
      const waiting = launch(sh(`while [ ! -e '${flag}' ]; do sleep 0.01; done; echo saw it`));
      const writing = launch(sh(`touch '${flag}'; echo wrote it`));
      const [a, b] = await Promise.all([waiting, writing]);
      assert.equal(a.stdout.toString(), 'saw it\n');
      assert.equal(b.stdout.toString(), 'wrote it\n');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('a signal that ends a program is reported by name; a program or cwd that is missing fails as a spawn does', async () => {
    const r = await launch(sh('kill -TERM $$'));
    assert.equal(r.code, null);
    assert.equal(r.signal, 'SIGTERM');
    await assert.rejects(launch({ file: '/no/such/program', args: [], cwd: '/', env: env() }), (e: NodeJS.ErrnoException) => {
      assert.equal(e.code, 'ENOENT');
      assert.match(e.message, /spawn \/no\/such\/program ENOENT/);
      return true;
    });
    await assert.rejects(launch(sh('true', { cwd: '/no/such/folder' })), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
  });

  test('a cancelled program is killed: the call rejects with an AbortError once the program is gone', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-launcher-'));
    try {
      const pidFile = path.join(dir, 'pid');
      const ac = new AbortController();
      const running = launch(sh(`echo $$ > '${pidFile}'; exec sleep 600`, { signal: ac.signal }));
      const pid = Number(await waitFor(pidFile));
      ac.abort();
      await assert.rejects(running, (e) => isAbortError(e));
      assert.ok(gone(pid), `the program (pid ${pid}) was killed`);
      const already = new AbortController();
      already.abort();
      await assert.rejects(launch(sh(`touch '${path.join(dir, 'ran')}'`, { signal: already.signal })), (e) => isAbortError(e));
      assert.equal(existsSync(path.join(dir, 'ran')), false, 'a call cancelled before it started runs nothing');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('a process that used the launcher ends when its work does, and the launcher ends with it', { timeout: 120_000 }, async () => {
    const r = await nodeScript(
      `launch({ file: '/bin/sh', args: ['-c', 'echo $PPID'], cwd: '/', env: process.env }).then((r) => console.log(r.stdout.toString().trim()));`,
    );
    assert.equal(r.status, 0, r.stderr);
    const launcherPid = Number(r.stdout.trim());
    assert.ok(launcherPid > 0, r.stdout);
    // Its input closed with the process: it ends at once (waited for as a state, not timed).
    while (!gone(launcherPid) && !(await fs.readFile(`/proc/${launcherPid}/stat`, 'utf8').catch(() => '')).includes(') Z')) {
      await new Promise((res) => setTimeout(res, 20));
    }
  });

  test('without a trusted python3 the program is started by node itself, with the same result', async () => {
    const r = await nodeScript(
      `launch({ file: '/bin/sh', args: ['-c', ${JSON.stringify(`${PARENT_CMDLINE}; echo; exit 4`)}], cwd: '/', env: { ...process.env, PATH: '/usr/bin:/bin' } }).then((r) => console.log(JSON.stringify([r.code, r.stdout.toString()])));`,
      { PATH: '/no/such/bin' },
    );
    assert.equal(r.status, 0, r.stderr);
    const [code, out] = JSON.parse(r.stdout) as [number, string];
    assert.equal(code, 4);
    assert.ok(out.startsWith(process.execPath), `started by node: ${out}`);
    assert.ok(!out.includes(LAUNCHER_MARK));
  });

  test('a launcher killed while a program runs fails that call with a message that says so; the next call still runs', async () => {
    const r = await nodeScript(`
      (async () => {
        const fs = require('node:fs');
        const dir = fs.mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'sweci-launcher-'));
        const pidFile = dir + '/pid';
        const running = launch({ file: '/bin/sh', args: ['-c', 'echo $PPID $$ > ' + pidFile + '; exec sleep 600'], cwd: '/', env: process.env });
        while (!fs.existsSync(pidFile) || !fs.readFileSync(pidFile, 'utf8').endsWith('\\n')) await new Promise((r) => setTimeout(r, 20));
        const [launcher, program] = fs.readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
        process.kill(launcher, 'SIGKILL');
        const lost = await running.then(() => 'resolved', (e) => e.message);
        process.kill(program, 'SIGKILL');
        const next = await launch({ file: '/bin/sh', args: ['-c', 'echo again'], cwd: '/', env: process.env });
        fs.rmSync(dir, { recursive: true, force: true });
        console.log(JSON.stringify([lost, next.stdout.toString()]));
      })();
    `);
    assert.equal(r.status, 0, r.stderr);
    const [lost, next] = JSON.parse(r.stdout) as [string, string];
    assert.match(lost, /process launcher stopped while it ran \/bin\/sh .*Run the step again/);
    assert.equal(next, 'again\n');
  });
});
