// The dataset folder's lock on its own (records/process-lock.ts, worded for a dataset): one holder
// at a time, a dead holder's lock taken over (a process that exited, a pid that now names another
// process), one from another host refused with what to do, an unreadable one refused while it may
// still be being written. Two real `sweci dataset download` processes are in
// dataset-download.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { acquireFolderLock } from '../../../src/core/download/folder-lock';

import type { LockInfo } from '../../../src/core/records/process-lock';

type LockHolder = LockInfo;
const lockPath = (dir: string) => path.join(dir, '.sweci-download', 'lock.json');
/** Field 22 of /proc/<pid>/stat, as the lock records it. */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

let tmp: string;
let n = 0;
const folder = async () => {
  const dir = path.join(tmp, `f${n++}`);
  await fs.mkdir(path.join(dir, '.sweci-download'), { recursive: true });
  return dir;
};
const writeHolder = (dir: string, h: Partial<LockHolder>) =>
  fs.writeFile(
    lockPath(dir),
    JSON.stringify({ hostname: os.hostname(), started: '2026-01-01T00:00:00.000Z', purpose: 'sweci dataset download --into x', token: 'n1', ...h }),
  );

/** The pid of a process that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

describe('dataset folder lock', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-folder-lock-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('one holder at a time; a second is refused naming the first; released, the folder can be taken again', async () => {
    const dir = await folder();
    const a = await acquireFolderLock(dir, 'sweci dataset download --into A');
    await assert.rejects(acquireFolderLock(dir, 'second'), (err: Error) => {
      assert.match(err.message, new RegExp(`in use by process ${process.pid} \\(sweci dataset download --into A\\), started `));
      assert.match(err.message, new RegExp(`kill ${process.pid}`));
      return true;
    });
    await a.release();
    assert.deepEqual(await fs.readdir(path.join(dir, '.sweci-download')), [], 'no lock and no temporary file left');
    const b = await acquireFolderLock(dir, 'again');
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).purpose, 'again');
    await b.release();
  });

  test('a lock whose process is gone is taken over; releasing a lock another process took does not remove theirs', async () => {
    const dir = await folder();
    await writeHolder(dir, { pid: await deadPid() });
    const lock = await acquireFolderLock(dir, 'after a kill -9');
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).pid, process.pid);
    // Someone broke and replaced our lock (say, we were thought dead): our release leaves theirs.
    await writeHolder(dir, { pid: process.pid, token: 'theirs' });
    await lock.release();
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).token, 'theirs');
  });

  test('a pid that now names another process (its start time differs) does not keep the lock; the process itself does', async (t) => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
    try {
      const ticks = processStartTicks(child.pid!);
      if (ticks === undefined) return t.skip('no /proc on this system');
      const dir = await folder();
      await writeHolder(dir, { pid: child.pid!, pidStart: ticks });
      await assert.rejects(acquireFolderLock(dir, 'x'), new RegExp(`in use by process ${child.pid}`));
      await writeHolder(dir, { pid: child.pid!, pidStart: String(Number(ticks) + 1) });
      const lock = await acquireFolderLock(dir, 'reused pid');
      await lock.release();
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('a lock from another host is refused, saying it cannot be checked from here and which file to remove', async () => {
    const dir = await folder();
    await writeHolder(dir, { pid: await deadPid(), hostname: 'other-host.example' });
    await assert.rejects(acquireFolderLock(dir, 'x'), (err: Error) => {
      assert.match(err.message, /on host other-host\.example/);
      assert.ok(err.message.includes(`remove ${lockPath(dir)}`), err.message);
      return true;
    });
  });

  test('a lock file that cannot be read is refused while it may be half-written, and taken over once it is older than that', async () => {
    const dir = await folder();
    await fs.writeFile(lockPath(dir), 'garbage');
    await assert.rejects(acquireFolderLock(dir, 'x'), (err: Error) => {
      assert.ok(err.message.includes(`${lockPath(dir)} is being written`), err.message);
      return true;
    });
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(lockPath(dir), old, old);
    const lock = await acquireFolderLock(dir, 'after a failed write');
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).purpose, 'after a failed write');
    await lock.release();
  });
});
