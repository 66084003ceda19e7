// The dataset folder's lock on its own: one holder at a time, a dead holder's lock taken over (a
// process that exited, a pid that now names another process), one from another host or one sweci
// did not write refused with what to do. Two real `sweci dataset download` processes are in
// dataset-download.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { acquireFolderLock } from '../../../src/core/download/folder-lock';

interface LockHolder {
  pid: number;
  host: string;
  startTicks?: number;
  startedAt: string;
  command: string;
  nonce: string;
}
const lockPath = (dir: string) => path.join(dir, '.sweci-download', 'lock.json');
/** Field 22 of /proc/<pid>/stat, as the lock records it. */
function processStartTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
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
    JSON.stringify({ host: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'sweci dataset download --into x', nonce: 'n1', ...h }),
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
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).command, 'again');
    await b.release();
  });

  test('a lock whose process is gone is taken over; releasing a lock another process took does not remove theirs', async () => {
    const dir = await folder();
    await writeHolder(dir, { pid: await deadPid() });
    const lock = await acquireFolderLock(dir, 'after a kill -9');
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).pid, process.pid);
    // Someone broke and replaced our lock (say, we were thought dead): our release leaves theirs.
    await writeHolder(dir, { pid: process.pid, nonce: 'theirs' });
    await lock.release();
    assert.equal((JSON.parse(await fs.readFile(lockPath(dir), 'utf8')) as LockHolder).nonce, 'theirs');
  });

  test('a pid that now names another process (its start time differs) does not keep the lock', async (t) => {
    const ticks = processStartTicks(process.pid);
    if (ticks === undefined) return t.skip('no /proc on this system');
    const dir = await folder();
    await writeHolder(dir, { pid: process.pid, startTicks: ticks + 1 });
    const lock = await acquireFolderLock(dir, 'reused pid');
    await lock.release();
    // The same pid with its own start time is alive: refused.
    await writeHolder(dir, { pid: process.pid, startTicks: ticks });
    await assert.rejects(acquireFolderLock(dir, 'x'), /in use by process/);
  });

  test('a lock from another host is refused, saying it cannot be checked from here and which file to remove', async () => {
    const dir = await folder();
    await writeHolder(dir, { pid: await deadPid(), host: 'other-host.example' });
    await assert.rejects(acquireFolderLock(dir, 'x'), (err: Error) => {
      assert.match(err.message, /on host other-host\.example/);
      assert.ok(err.message.includes(`remove ${lockPath(dir)}`), err.message);
      return true;
    });
  });

  test('a lock file sweci did not write is refused, naming it', async () => {
    const dir = await folder();
    await fs.writeFile(lockPath(dir), 'garbage');
    await assert.rejects(acquireFolderLock(dir, 'x'), (err: Error) => {
      assert.ok(err.message.startsWith(`${lockPath(dir)} is not a lock sweci wrote`), err.message);
      return true;
    });
  });
});
