// The bubblewrap sandbox, for real: what a confined process can read, write and reach, and that
// nothing it starts outlives it. Skipped (with the reason) where bubblewrap cannot run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { describeEnvironment, openHostRuntime } from '../../../src/core/runtime/task-environment';

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

  test('an honest command reads and writes its folder, runs git and python, and reaches a loopback server; hidden paths look empty; nothing else is writable', async (t) => {
    if (!bwrap) return t.skip('bubblewrap cannot run here');
    const p = await layout('honest');
    const server = http.createServer((_req, res) => res.end('pong'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const script = [
      'import os, subprocess, urllib.request',
      `work, secret_dir, secret_file, elsewhere = ${JSON.stringify([p.work, p.secretDir, p.secretFile, p.elsewhere])}`,
      "open(os.path.join(work, 'made.txt'), 'w').write('hello')",
      "subprocess.run(['git', 'init', '-q', work], check=True)",
      "print('listing', sorted(os.listdir(secret_dir)))",
      "print('file', repr(open(secret_file).read()))",
      'try:',
      "    open(os.path.join(elsewhere, 'x'), 'w').write('x')",
      "    print('elsewhere writable')",
      'except OSError as e:',
      "    print('elsewhere refused', e.errno)",
      `print('server', urllib.request.urlopen('http://127.0.0.1:${port}/').read().decode())`,
    ].join('\n');
    const rt = new LocalRuntime({ bwrap });
    try {
      const r = await rt.run({
        command: PYTHON,
        args: ['-c', script],
        cwd: p.work,
        mounts: [{ source: p.work, target: '/app' }],
        confine: { hide: [p.secretDir, p.secretFile], writable: [] },
        timeoutMs: 30_000,
      });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, /^listing \[\]$/m, 'a hidden folder is empty');
      assert.match(r.stdout, /^file ''$/m, 'a hidden file is empty');
      assert.match(r.stdout, /^elsewhere refused 30$/m, 'EROFS outside the mounts');
      assert.match(r.stdout, /^server pong$/m);
      assert.equal(await fs.readFile(path.join(p.work, 'made.txt'), 'utf8'), 'hello');
      assert.ok(await fs.stat(path.join(p.work, '.git', 'HEAD')));
      assert.equal(await fs.readFile(path.join(p.secretDir, 'target.report.json'), 'utf8'), 'the answers', 'the host copy is untouched');
    } finally {
      server.close();
      await rt.dispose();
    }
  });

  test('a double-forked daemon dies with the command; without the sandbox it would not', async (t) => {
    if (!bwrap) return t.skip('bubblewrap cannot run here');
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
        confine: { hide: [], writable: [] },
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
    await new Promise((r) => setTimeout(r, 500));
    assert.ok((await lines()) > plainAfter, 'the unconfined daemon still writes');
    await fs.rm(p.work, { recursive: true, force: true }); // the heartbeat stops with its folder's writes failing
  });

  test('sweci.sandbox: auto confines where bubblewrap works, off never does, and the environment says which', async (t) => {
    const auto = await openHostRuntime('auto');
    assert.equal(auto.isolation, bwrap ? 'sandbox' : 'none');
    assert.equal((await openHostRuntime('off')).isolation, 'none');
    const local = { schema: 1 as const, runtime: 'local' as const, python: 'python3', recordedAt: '' };
    assert.equal(describeEnvironment({ ...local, isolation: 'sandbox' }), 'local · sandboxed');
    assert.equal(describeEnvironment({ ...local, isolation: 'none' }), 'local · not isolated');
    assert.equal(describeEnvironment(local), 'local', 'a record from before the sandbox says nothing it does not know');
    if (!bwrap) {
      await assert.rejects(openHostRuntime('bubblewrap'), /apt-get install bubblewrap/);
      return t.skip('bubblewrap cannot run here');
    }
    assert.equal((await openHostRuntime('bubblewrap')).description, 'local · sandboxed');
  });

  test('killing the process that started a sandboxed command (kill -9) kills the command and what it started', async (t) => {
    if (!bwrap) return t.skip('bubblewrap cannot run here');
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
      `  mounts: [{ source: ${JSON.stringify(p.work)}, target: '/app' }], confine: { hide: [], writable: [] } });`,
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
