import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { isAlive, waitDead } from './process-helpers';

const posix = process.platform !== 'win32';
const cwd = os.tmpdir();

/** A tree: sh → (background sleep, foreground sleep). The background pid is printed first. */
const TREE = ['-c', 'sleep 100 & echo "grandchild $!"; sleep 100'];

function grandchildPid(stdout: string): number {
  const m = /grandchild (\d+)/.exec(stdout);
  assert.ok(m, `no grandchild pid in ${JSON.stringify(stdout)}`);
  return Number(m[1]);
}

describe('LocalRuntime', { skip: !posix && 'POSIX shell tests' }, () => {
  const rt = new LocalRuntime();

  test('kind is local', () => {
    assert.equal(rt.kind, 'local');
  });

  test('exit codes and output', async () => {
    const r = await rt.run({ command: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'], cwd });
    assert.equal(r.exitCode, 3);
    assert.equal(r.signal, null);
    assert.equal(r.stdout, 'out\n');
    assert.equal(r.stderr, 'err\n');
    assert.equal(r.timedOut, false);
    assert.equal(r.cancelled, false);
    assert.ok(r.durationMs >= 0);
    const ok = await rt.run({ command: 'true', args: [], cwd });
    assert.equal(ok.exitCode, 0);
  });

  test('arguments are not interpreted by a shell', async () => {
    const r = await rt.run({ command: 'printf', args: ['%s|', '$HOME', '; echo pwned', '`id`'], cwd });
    assert.equal(r.stdout, '$HOME|; echo pwned|`id`|');
  });

  test('env is merged over the inherited environment', async () => {
    const r = await rt.run({
      command: 'sh',
      args: ['-c', 'printf "%s|%s" "$SWECI_TEST_VAR" "$PATH"'],
      cwd,
      env: { SWECI_TEST_VAR: 'hello world' },
    });
    const [mine, inheritedPath] = r.stdout.split('|');
    assert.equal(mine, 'hello world');
    assert.equal(inheritedPath, process.env.PATH);
  });

  test('cwd is honoured', async () => {
    const r = await rt.run({ command: 'pwd', args: [], cwd: '/' });
    assert.equal(r.stdout.trim(), '/');
  });

  test('stdin is written then closed', async () => {
    const r = await rt.run({ command: 'cat', args: [], cwd, stdin: 'line 1\nzweite Zeile ü\n' });
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, 'line 1\nzweite Zeile ü\n');
  });

  test('without stdin the process reads end-of-file instead of hanging', async () => {
    const r = await rt.run({ command: 'cat', args: [], cwd, timeoutMs: 5000 });
    assert.equal(r.timedOut, false);
    assert.equal(r.exitCode, 0);
  });

  test('onOutput streams chunks in order', async () => {
    const seen: string[] = [];
    const r = await rt.run({
      command: 'sh',
      args: ['-c', 'echo a; sleep 0.1; echo b >&2; sleep 0.1; echo c'],
      cwd,
      onOutput: (chunk, stream) => seen.push(`${stream}:${chunk}`),
    });
    assert.deepEqual(seen, ['stdout:a\n', 'stderr:b\n', 'stdout:c\n']);
    assert.equal(r.stdout, 'a\nc\n');
  });

  test('a throwing onOutput listener does not break the run', async () => {
    const r = await rt.run({
      command: 'echo',
      args: ['x'],
      cwd,
      onOutput: () => {
        throw new Error('listener bug');
      },
    });
    assert.equal(r.stdout, 'x\n');
  });

  test('timeout kills the whole tree, grandchild included', async (t) => {
    // The budget runs on a clock the test moves, once the grandchild is known to run: however
    // slowly the shell starts, the timeout comes after it.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let out = '';
    const started = Date.now();
    const running = rt.run({ command: 'sh', args: TREE, cwd, timeoutMs: 400, onOutput: (chunk) => void (out += chunk) });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => /grandchild \d+/.test(out) && resolve(void clearInterval(poll)), 20);
    });
    t.mock.timers.tick(400);
    t.mock.timers.reset();
    const r = await running;
    assert.equal(r.timedOut, true);
    assert.equal(r.cancelled, false);
    assert.equal(r.exitCode, null);
    assert.equal(r.signal, 'SIGKILL');
    // Well under the tree's 100 s sleeps, however slow the machine: not waited for.
    assert.ok(Date.now() - started < 60_000, 'returned promptly');
    const pid = grandchildPid(r.stdout);
    assert.equal(await waitDead(pid), true, `grandchild ${pid} still alive`);
  });

  test('abort kills the whole tree, grandchild included', async () => {
    const ac = new AbortController();
    let pid = 0;
    const r = await rt.run({
      command: 'sh',
      args: TREE,
      cwd,
      signal: ac.signal,
      onOutput: (chunk) => {
        const m = /grandchild (\d+)/.exec(chunk);
        if (m) {
          pid = Number(m[1]);
          assert.equal(isAlive(pid), true);
          ac.abort();
        }
      },
    });
    assert.equal(r.cancelled, true);
    assert.equal(r.timedOut, false);
    assert.ok(pid > 0);
    assert.equal(await waitDead(pid), true, `grandchild ${pid} still alive`);
  });

  test('an already aborted signal runs nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const dir = path.join(os.tmpdir(), `sweci-never-${process.pid}`);
    const r = await rt.run({ command: 'mkdir', args: [dir], cwd, signal: ac.signal });
    assert.equal(r.cancelled, true);
    assert.equal(r.exitCode, null);
    await assert.rejects(import('node:fs/promises').then((f) => f.stat(dir)));
  });

  test('a grandchild left holding the pipes does not hang the run', async () => {
    const quick = new LocalRuntime({ orphanGraceMs: 200 });
    const started = Date.now();
    const r = await quick.run({ command: 'sh', args: ['-c', 'sleep 100 & echo "grandchild $!"; exit 0'], cwd });
    assert.equal(r.exitCode, 0);
    // Well under the grandchild's 100 s sleep, however slow the machine: not waited for.
    assert.ok(Date.now() - started < 60_000, 'returned promptly');
    assert.equal(await waitDead(grandchildPid(r.stdout)), true);
  });

  test('a missing executable is a clear error', async () => {
    await assert.rejects(
      rt.run({ command: 'sweci-no-such-binary', args: [], cwd }),
      (err: Error) => /"sweci-no-such-binary"/.test(err.message) && /PATH/.test(err.message) && /setting/.test(err.message),
    );
  });

  test('a missing working directory is a clear error', async () => {
    await assert.rejects(
      rt.run({ command: 'sh', args: ['-c', 'true'], cwd: path.join(os.tmpdir(), 'sweci-no-such-dir-xyz') }),
      /working directory .*sweci-no-such-dir-xyz does not exist/,
    );
  });

  test('retained output is capped and keeps the tail', async () => {
    const small = new LocalRuntime({ maxOutputChars: 1000 });
    let streamed = 0;
    const r = await small.run({
      command: 'sh',
      args: ['-c', 'i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done'],
      cwd,
      onOutput: (c) => (streamed += c.length),
    });
    const marker = '[... earlier output truncated ...]\n';
    assert.ok(r.stdout.startsWith(marker), 'the kept tail says the output was cut');
    assert.equal(r.stdout.length, marker.length + 1000);
    assert.ok(r.stdout.endsWith('line 1999\n'));
    assert.ok(streamed > 10000, 'everything was streamed');
  });
});
