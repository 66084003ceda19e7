// The bubblewrap sandbox, for real: what a confined process can read, write and reach (an
// allow-list, as root: no home, no capabilities, no engine socket), and that nothing it starts
// outlives it. Skipped (with the reason) where bubblewrap cannot run.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap, harnessIsRoot } from '../../../src/core/runtime/sandbox';
import { missingSandbox } from '../helpers/require-sandbox';
import { findTrustedProgram } from '../../../src/core/util/trusted-program';
import { describeEnvironment, openHostRuntime } from '../../../src/core/runtime/task-environment';
import { DEFAULT_RUNTIME_SETTINGS } from '../../../src/core/runtime/runtime-settings';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';

let tmp: string;
let bwrap: string | undefined;

describe('the bubblewrap sandbox', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-sandbox-')));
    bwrap = await findBubblewrap();
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const layout = async (name: string) => {
    const root = path.join(tmp, name);
    const work = path.join(root, 'app');
    const secretDir = path.join(root, 'secret');
    const secretFile = path.join(tmp, `${name}-dataset.zip`);
    const elsewhere = path.join(root, 'elsewhere');
    for (const d of [work, secretDir, elsewhere]) await fs.mkdir(d, { recursive: true });
    await fs.writeFile(path.join(secretDir, 'target.report.json'), 'the answers');
    await fs.writeFile(secretFile, 'the whole history');
    return { root, work, secretDir, secretFile, elsewhere };
  };

  test('an honest command reads and writes its folder, runs git and python, and reaches a loopback server; nothing else of this machine is there', async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('honest');
    const server = http.createServer((_req, res) => res.end('pong'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const script = [
      'import os, subprocess, urllib.request',
      `work, secret_dir, secret_file, elsewhere = ${JSON.stringify([p.work, p.secretDir, p.secretFile, p.elsewhere])}`,
      "open(os.path.join(work, 'made.txt'), 'w').write('hello')",
      "subprocess.run(['git', 'init', '-q', work], check=True)",
      "import pytest; print('pytest', pytest.__version__)",
      'for name, p in [("secret dir", secret_dir), ("secret file", secret_file), ("elsewhere", elsewhere)]:',
      '    print(name, "exists" if os.path.exists(p) else "absent")',
      "open('/tmp/scratch', 'w').write('a /tmp of its own')",
      `print('server', urllib.request.urlopen('http://127.0.0.1:${port}/').read().decode())`,
    ].join('\n');
    const rt = new LocalRuntime({ bwrap });
    try {
      const r = await rt.run({
        command: PYTHON,
        args: ['-c', script],
        cwd: p.work,
        mounts: [{ source: p.work, target: '/app' }],
        confine: { hide: [p.secretDir, p.secretFile] },
        timeoutMs: 30_000,
      });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, /^pytest \d/m, "the interpreter's own site-packages are there");
      assert.match(r.stdout, /^secret dir absent$/m);
      assert.match(r.stdout, /^secret file absent$/m);
      assert.match(r.stdout, /^elsewhere absent$/m, 'a folder beside app/ is not there at all');
      assert.match(r.stdout, /^server pong$/m);
      assert.equal(await fs.readFile(path.join(p.work, 'made.txt'), 'utf8'), 'hello');
      assert.ok(await fs.stat(path.join(p.work, '.git', 'HEAD')));
      assert.equal(await fs.readFile(path.join(p.secretDir, 'target.report.json'), 'utf8'), 'the answers', 'the host copy is untouched');
      assert.equal(await fs.stat('/tmp/scratch').catch(() => undefined), undefined, "the sandbox's /tmp is not this machine's");
    } finally {
      server.close();
      await rt.dispose();
    }
  });

  test('root in the sandbox has no capabilities, cannot unmount what hides the task, and sees no home, no engine socket, no other task and nothing writable outside app/', async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('hostile');
    // What a hostile agent goes for: the user's home (a marker put there for this test), every
    // folder on PATH and the interpreter's site-packages (where a planted git, bwrap or .pth
    // would be trusted later), another task beside this one, this machine's /tmp, and the
    // container engines' sockets.
    const marker = path.join(os.homedir(), `.sweci-sandbox-test-${process.pid}`);
    await fs.writeFile(marker, "the user's own file");
    const other = path.join(tmp, 'other-task');
    await fs.mkdir(path.join(other, 'app'), { recursive: true });
    const sitePackages = (
      await new LocalRuntime().run({ command: PYTHON, args: ['-c', 'import site; print(site.getsitepackages()[0])'], cwd: p.work })
    ).stdout.trim();
    const pathDirs = (process.env.PATH ?? '').split(':').filter((d) => d.startsWith('/'));
    const targets = [os.homedir(), ...pathDirs, sitePackages, path.join(other, 'app'), tmp];
    const name = `sweci-planted-${process.pid}`;
    const script = [
      'import os, socket, subprocess',
      `marker, targets, name = ${JSON.stringify([marker, targets, name])}`,
      "print('capeff', [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')][0])",
      "print('umount', subprocess.run(['umount', '-l', '/proc'], capture_output=True).returncode)",
      'try:',
      "    print('marker', open(marker).read())",
      'except OSError as e:',
      "    print('marker unreadable', e.errno)",
      'for t in targets:',
      '    try:',
      "        open(os.path.join(t, name), 'w').write('planted')",
      "        print('planted in', t)",
      '    except OSError as e:',
      '        pass',
      "for sock in ['/var/run/docker.sock', '/run/docker.sock', '/run/containerd/containerd.sock', '/run/podman/podman.sock']:",
      '    s = socket.socket(socket.AF_UNIX)',
      '    try:',
      '        s.connect(sock)',
      "        print('engine reachable', sock)",
      '    except OSError:',
      '        pass',
    ].join('\n');
    const rt = new LocalRuntime({ bwrap });
    try {
      const r = await rt.run({
        command: PYTHON,
        args: ['-c', script],
        cwd: p.work,
        mounts: [{ source: p.work, target: '/app' }],
        confine: { hide: [] },
        timeoutMs: 30_000,
      });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, /^capeff 0000000000000000$/m, 'no capabilities, root or not');
      assert.match(r.stdout, /^umount [1-9]\d*$/m, 'unmounting fails');
      assert.match(r.stdout, /^marker unreadable 2$/m, "the user's home is not there");
      // Nothing reaches this machine's folders. Run by root, the command is the sandbox user, to
      // whom even the folders bubblewrap made leading to app/ are read-only; run by a user, those
      // are its own (in the sandbox's /tmp, gone with it).
      assert.deepEqual(
        r.stdout.split('\n').filter((l) => l.startsWith('planted in')),
        harnessIsRoot() ? [] : [`planted in ${tmp}`],
      );
      assert.doesNotMatch(r.stdout, /^engine reachable/m);
      for (const target of targets) assert.equal(await fs.stat(path.join(target, name)).catch(() => undefined), undefined, `nothing planted in ${target}`);
    } finally {
      await fs.rm(marker, { force: true });
      for (const target of targets) await fs.rm(path.join(target, name), { force: true });
      await rt.dispose();
    }
  });

  test("the harness's working folder is not shown through a relative PYTHONPATH (pytest's src:.)", async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('pythonpath');
    const here = path.join(tmp, 'harness-cwd');
    await fs.mkdir(here);
    const secret = path.join(here, 'secret.txt');
    await fs.writeFile(secret, 'not for the code under test');
    const before = process.cwd();
    process.chdir(here);
    try {
      const r = await new LocalRuntime({ bwrap }).run({
        command: PYTHON,
        args: ['-c', `import os; print('visible' if os.path.exists(${JSON.stringify(secret)}) else 'absent')`],
        cwd: p.work,
        env: { PYTHONPATH: 'src:.' },
        cleanEnv: true,
        mounts: [{ source: p.work, target: '/app' }],
        confine: { hide: [] },
      });
      assert.equal(r.stdout.trim(), 'absent', r.stderr);
    } finally {
      process.chdir(before);
    }
  });

  test('a folder the user put on PYTHONPATH (sweci.pytest.env) is shown read-only', async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('user-pythonpath');
    const extra = path.join(tmp, 'extra-site');
    await fs.mkdir(extra);
    await fs.writeFile(path.join(extra, 'extra_helpers.py'), 'VALUE = 42\n');
    const r = await new LocalRuntime({ bwrap }).run({
      command: PYTHON,
      args: ['-c', `import extra_helpers; print(extra_helpers.VALUE); open(${JSON.stringify(path.join(extra, 'x'))}, 'w')`],
      cwd: p.work,
      env: { PYTHONPATH: `src:.:${extra}:relative/not-shown` },
      cleanEnv: true,
      mounts: [{ source: p.work, target: '/app' }],
      confine: { hide: [] },
    });
    assert.equal(r.stdout.trim(), '42', r.stderr);
    assert.match(r.stderr, /Read-only file system/, 'shown read-only');
  });

  test('an interpreter of a virtual environment outside the system folders runs confined: the environment shown read-only, with the interpreter it links to', async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('venv');
    const venv = path.join(tmp, 'venv');
    const made = spawnSync(PYTHON, ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const r = await new LocalRuntime({ bwrap }).run({
      command: path.join(venv, 'bin', 'python3'),
      args: ['-c', `import sys; print(sys.prefix); open(${JSON.stringify(path.join(venv, 'x'))}, 'w')`],
      cwd: p.work,
      cleanEnv: true,
      mounts: [{ source: p.work, target: '/app' }],
      confine: { hide: [] },
    });
    assert.equal(r.stdout.trim(), venv, r.stderr);
    assert.match(r.stderr, /Read-only file system/, 'shown read-only');
  });

  test("the harness's own tools are never taken from a task folder, even first on PATH, and a confined step's interpreter or program is never one from there", async (t) => {
    // A task folder (it has .sweci) whose app/ holds a planted git and bwrap, first on PATH.
    const task = path.join(tmp, 'planted-task');
    const bin = path.join(task, 'app', 'bin');
    await fs.mkdir(path.join(task, '.sweci'), { recursive: true });
    await fs.mkdir(bin, { recursive: true });
    for (const tool of ['git', 'bwrap']) {
      await fs.writeFile(path.join(bin, tool), '#!/bin/sh\necho forged\n', { mode: 0o755 });
      const found = findTrustedProgram(tool, `${bin}:/usr/bin:/bin`);
      assert.ok(found && !found.startsWith(task), `${tool}: ${found}`);
    }
    const outside = path.join(tmp, 'plain-bin');
    await fs.mkdir(outside, { recursive: true });
    await fs.writeFile(path.join(outside, 'git'), '#!/bin/sh\n', { mode: 0o755 });
    assert.equal(findTrustedProgram('git', `${outside}:/usr/bin`), path.join(outside, 'git'), 'PATH order holds outside task folders');
    // An interpreter or program inside a task folder is refused (by the sandboxed runtime) before anything runs it.
    const python = path.join(bin, 'python3');
    const marker = path.join(tmp, 'planted-python-ran');
    await fs.writeFile(python, `#!/bin/sh\ntouch ${marker}\nexec ${PYTHON} "$@"\n`, { mode: 0o755 });
    if (!bwrap) return missingSandbox(t);
    const rt = new LocalRuntime({ bwrap });
    for (const command of [python, path.join(bin, 'git')]) {
      await assert.rejects(
        rt.run({ command, args: ['-c', 'pass'], cwd: path.join(task, 'app'), confine: { hide: [] } }),
        /inside a task folder, where agents can write: SWE-CI neither trusts nor runs a program from there/,
      );
    }
    assert.equal(await fs.stat(marker).catch(() => undefined), undefined, 'the planted interpreter never ran, not even to be asked where it lives');
  });

  test('a double-forked daemon dies with the command; without the sandbox it would not', async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('daemon');
    const beat = path.join(p.work, 'beat.log');
    // The daemon leaves the process group (setsid) and writes a heartbeat every 50 ms.
    const script = [
      'import os, sys, time',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      '        for _ in range(400):',
      `            open(${JSON.stringify(beat)}, 'a').write('beat\\n')`,
      '            time.sleep(0.05)',
      '        os._exit(0)',
      '    os._exit(0)',
      'time.sleep(0.3)',
    ].join('\n');
    const lines = async () => (await fs.readFile(beat, 'utf8').catch(() => '')).split('\n').length;
    const run = (rt: LocalRuntime) =>
      rt.run({
        command: PYTHON,
        args: ['-c', script],
        cwd: p.work,
        mounts: [{ source: p.work, target: '/app' }],
        confine: { hide: [] },
        timeoutMs: 30_000,
      });

    const sandboxed = new LocalRuntime({ bwrap, orphanGraceMs: 200 });
    assert.equal((await run(sandboxed)).exitCode, 0);
    const after = await lines();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await lines(), after, 'no heartbeat after the sandboxed command returned');

    // The same command outside the sandbox: the daemon survives (what the sandbox is for).
    await fs.rm(beat, { force: true });
    const plain = new LocalRuntime({ orphanGraceMs: 200 });
    assert.equal((await run(plain)).exitCode, 0);
    const plainAfter = await lines();
    // Waited for (it beats every 50 ms, but a loaded machine may not run it for a while).
    for (let waited = 0; (await lines()) <= plainAfter && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.ok((await lines()) > plainAfter, 'the unconfined daemon still writes');
    await fs.rm(p.work, { recursive: true, force: true }); // the heartbeat stops with its folder's writes failing
  });

  test('sweci.sandbox: auto confines where bubblewrap works, off never does, and the environment says which', async (t) => {
    const auto = await openHostRuntime({ ...DEFAULT_RUNTIME_SETTINGS, sandbox: 'auto' });
    assert.equal(auto.isolation, bwrap ? 'sandbox' : 'none');
    assert.equal((await openHostRuntime({ ...DEFAULT_RUNTIME_SETTINGS, sandbox: 'off' })).isolation, 'none');
    const local = { schema: 1 as const, runtime: 'local' as const, python: 'python3', recordedAt: '' };
    assert.equal(describeEnvironment({ ...local, isolation: 'sandbox' }), 'local · sandboxed');
    assert.equal(describeEnvironment({ ...local, isolation: 'none' }), 'local · not isolated');
    assert.equal(describeEnvironment(local), 'local', 'a record from before the sandbox says nothing it does not know');
    if (!bwrap) {
      await assert.rejects(openHostRuntime({ ...DEFAULT_RUNTIME_SETTINGS, sandbox: 'bubblewrap' }), /apt-get install bubblewrap/);
      return missingSandbox(t);
    }
    assert.equal((await openHostRuntime({ ...DEFAULT_RUNTIME_SETTINGS, sandbox: 'bubblewrap' })).description, 'local · sandboxed');
  });

  test('killing the process that started a sandboxed command (kill -9) kills the command and what it started', async (t) => {
    if (!bwrap) return missingSandbox(t);
    const p = await layout('orphan');
    const beat = path.join(p.work, 'beat.log');
    const agent = [
      'import os, time',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    while True:',
      `        open(${JSON.stringify(beat)}, 'a').write('daemon\\n')`,
      '        time.sleep(0.05)',
      'while True:',
      `    open(${JSON.stringify(beat)}, 'a').write('agent\\n')`,
      '    time.sleep(0.05)',
    ].join('\n');
    // A node process standing in for the extension host or the CLI: it starts the command, then dies hard.
    const host = [
      `const { LocalRuntime } = require(${JSON.stringify(require.resolve('../../../src/core/runtime/local-runtime'))});`,
      `new LocalRuntime({ bwrap: ${JSON.stringify(bwrap)} }).run({ command: ${JSON.stringify(PYTHON)}, args: ['-c', ${JSON.stringify(agent)}], cwd: ${JSON.stringify(p.work)},`,
      `  mounts: [{ source: ${JSON.stringify(p.work)}, target: '/app' }], confine: { hide: [] } });`,
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const child = spawn(process.execPath, ['-e', host], { stdio: 'ignore' });
    const size = async () => (await fs.stat(beat).catch(() => undefined))?.size ?? 0;
    const deadline = Date.now() + 10_000;
    while ((await fs.readFile(beat, 'utf8').catch(() => '')).split('\n').filter((l) => l === 'daemon').length < 2) {
      if (Date.now() > deadline) assert.fail('the sandboxed command never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, 500));
    const after = await size();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await size(), after, 'nothing writes once the process that started it is gone');
  });
});
