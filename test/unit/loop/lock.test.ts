// The task lock with real processes: a child node process holds it; a second taker is refused
// while the child lives and takes it over once the child is killed. A waiter (waitForLock, the
// image load's lock) waits instead, and takes it then.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { acquireLock, waitForLock, type LockInfo } from '../../../src/core/records/process-lock';
import { withTaskLock } from '../../../src/core/workspace/lock';
import { UserError } from '../../../src/core/util/errors';

/** The lock file as written on disk. */
const readLock = async (file: string): Promise<LockInfo> => JSON.parse(await fs.readFile(file, 'utf8')) as LockInfo;

let tmp: string;
let n = 0;
const lockModule = require.resolve('../../../src/core/records/process-lock');

async function taskDir(): Promise<string> {
  const dir = path.join(tmp, `task-${++n}`);
  await fs.mkdir(path.join(dir, '.sweci'), { recursive: true });
  return dir;
}

/** A node process that takes the lock, prints "locked", and waits to be killed. */
async function holder(file: string, purpose = 'the loop', detail = 'run "r1"'): Promise<ChildProcess> {
  const code = `
    const { acquireLock } = require(${JSON.stringify(lockModule)});
    acquireLock(${JSON.stringify(file)}, ${JSON.stringify(purpose)}, ${JSON.stringify(detail)})
      .then(() => { process.stdout.write('locked\\n'); setInterval(() => {}, 1000); })
      .catch((e) => { process.stdout.write('refused ' + e.message + '\\n'); process.exit(3); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('error', reject);
  });
  assert.equal(first, 'locked', first);
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('task lock', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-lock-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('a live holder in another process refuses with its pid; once it is killed the lock is taken over', async () => {
    const dir = await taskDir();
    const file = taskFolder(dir).lockFile;
    const child = await holder(file);
    try {
      const info = await readLock(file);
      assert.equal(info?.pid, child.pid);
      assert.equal(info?.hostname, os.hostname());
      assert.equal(info?.purpose, 'the loop');
      const err = await acquireLock(file, 'the loop').catch((e: unknown) => e);
      assert.ok(err instanceof UserError);
      assert.match(err.message, new RegExp(`another window or process is running the loop on this task \\(pid ${child.pid}, run "r1", since `, 'i'));
    } finally {
      await kill(child);
    }
    const lock = await acquireLock(file, 'pytest');
    assert.equal((await readLock(file))?.pid, process.pid);
    await lock.release();
    assert.equal(
      await fs.access(file).then(
        () => true,
        () => false,
      ),
      false,
      'released: file removed',
    );
  });

  test('while this process holds it, another process is refused; after release it gets it', async () => {
    const dir = await taskDir();
    const file = taskFolder(dir).lockFile;
    await withTaskLock(taskFolder(dir), 'the loop', 'run "mine"', async () => {
      const code = `
        require(${JSON.stringify(lockModule)}).acquireLock(${JSON.stringify(file)}, 'pytest')
          .then(() => process.exit(0), (e) => { process.stdout.write(e.message); process.exit(3); });`;
      const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const status = await new Promise((r) => child.on('exit', r));
      assert.equal(status, 3);
      assert.match(out, new RegExp(`running the loop on this task \\(pid ${process.pid}, run "mine"`));
    });
    const child = await holder(file, 'pytest', '');
    await kill(child);
  });

  test('a second taker in the same process is refused; release is idempotent and only removes its own lock', async () => {
    const dir = await taskDir();
    const file = taskFolder(dir).lockFile;
    const first = await acquireLock(file, 'the loop');
    await assert.rejects(acquireLock(file, 'the loop'), /running the loop on this task \(pid \d+/);
    await first.release();
    const second = await acquireLock(file, 'the loop');
    await first.release(); // a stale handle must not remove the new holder's lock
    assert.equal((await readLock(file))?.token, second.info.token);
    await second.release();
  });

  test('stale locks: a dead pid, our own pid from an earlier process, an old unreadable file', async () => {
    const dir = await taskDir();
    const file = taskFolder(dir).lockFile;
    const write = (info: Partial<LockInfo>) =>
      fs.writeFile(file, JSON.stringify({ pid: 1, hostname: os.hostname(), started: 'then', purpose: 'the loop', token: 'old', ...info }));

    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    await write({ pid: dead.pid });
    await (await acquireLock(file, 'the loop')).release();

    await write({ pid: process.pid, token: 'from-a-previous-life' });
    const again = await acquireLock(file, 'the loop');
    await again.release();

    await fs.writeFile(file, '{"pid": 12');
    await assert.rejects(acquireLock(file, 'the loop'), /being written/);
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(file, old, old);
    await (await acquireLock(file, 'the loop')).release();
  });

  test("a live process that only reuses a dead holder's pid does not hold the lock (its start time differs)", async (t) => {
    if (process.platform !== 'linux') return t.skip('start times come from /proc');
    const dir = await taskDir();
    const file = taskFolder(dir).lockFile;
    const child = await holder(file);
    try {
      const real = await readLock(file);
      assert.match(real.pidStart ?? '', /^\d+$/, 'the holder recorded its start time');
      // The same live pid with the recorded start time: refused.
      await assert.rejects(acquireLock(file, 'pytest'), UserError);
      // The same live pid, but the lock was written by an earlier process with that pid.
      await fs.writeFile(file, JSON.stringify({ ...real, pidStart: String(Number(real.pidStart) - 1), token: 'earlier' }));
      const lock = await acquireLock(file, 'pytest');
      assert.equal((await readLock(file))?.pid, process.pid, 'taken over');
      await lock.release();
    } finally {
      await kill(child);
    }
  });

  test('a lock from another host is never taken over', async () => {
    const dir = await taskDir();
    const file = taskFolder(dir).lockFile;
    await fs.writeFile(file, JSON.stringify({ pid: 999999, hostname: 'elsewhere', started: 'then', purpose: 'the loop', token: 't' }));
    await assert.rejects(acquireLock(file, 'the loop'), /running the loop on this task \(pid 999999 on elsewhere/);
  });

  test('waitForLock waits while another process holds the lock (told once who), takes it when that process dies, and stops when aborted', async () => {
    const file = path.join(await taskDir(), 'load.lock');
    const child = await holder(file, 'an image load', 'sweci/demo-env:bookworm');
    const told: (LockInfo | undefined)[] = [];
    let got = false;
    const waiting = waitForLock(file, 'an image load', { onWait: (h) => told.push(h) }).then((lock) => {
      got = true;
      return lock;
    });
    // Told once, while the holder lives: the wait has begun and is still waiting.
    while (told.length === 0) await new Promise((r) => setTimeout(r, 20));
    assert.equal(got, false);
    assert.equal(told[0]?.pid, child.pid);
    await kill(child);
    const lock = await waiting;
    assert.equal(told.length, 1);
    assert.equal((await readLock(file)).pid, process.pid);

    const abort = new AbortController();
    const second = waitForLock(file, 'an image load', { signal: abort.signal, onWait: () => abort.abort() });
    await assert.rejects(second, /cancelled/);
    await lock.release();
  });
});
