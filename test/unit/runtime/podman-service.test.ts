// No process of Podman's API service outlives its run (issue 48). A rootless podman re-executes
// itself inside a user namespace; when only the outer podman was killed, that child was left
// running with parent 1. Here the service is the product's own, held by a process running as a
// user with subordinate ids (scripts/podman-setup.sh makes it), and its processes are found by
// the socket on their command lines.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { after, before, test } from 'node:test';
import { ROOTLESS_USER } from '../helpers/podman';
import { processesMatching, waitNoneMatching } from './process-helpers';

const helper = path.join(__dirname, 'hold-podman-service.js');
let tmp: string;
let home: string;
const held: ChildProcess[] = [];
const sockets: string[] = [];

before(async () => {
  const who = spawnSync('id', ['-u', ROOTLESS_USER], { encoding: 'utf8' });
  assert.equal(who.status, 0, `no user ${ROOTLESS_USER}: run "bash scripts/setup.sh" (scripts/podman-setup.sh makes it)`);
  const uid = Number(who.stdout.trim());
  home = spawnSync('sh', ['-c', `getent passwd ${ROOTLESS_USER} | cut -d: -f6`], { encoding: 'utf8' }).stdout.trim();
  // The user's own store and run folder (short: unix socket paths), node-local as on a cluster.
  tmp = await fs.mkdtemp('/var/tmp/sweci-svc-');
  await fs.mkdir(path.join(tmp, 'run'), { mode: 0o700 });
  for (const p of [tmp, path.join(tmp, 'run')]) await fs.chown(p, uid, uid);
});

after(async () => {
  for (const child of held) child.kill('SIGKILL');
  // A test that failed leaves the processes it found: they are not to outlive the test either.
  for (const socket of sockets) for (const pid of processesMatching(socket)) process.kill(pid, 'SIGKILL');
  // Rootless Podman's pause process (catatonit) holds the user namespace for every podman of the
  // store's temp folder, and is meant to outlive them: this test's store goes, so does its own.
  for (const pid of processesMatching('catatonit')) {
    const environ = ((): string => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8');
      } catch {
        return '';
      }
    })();
    if (environ.split('\0').some((v) => v.startsWith(`TMPDIR=${tmp}/`))) process.kill(pid, 'SIGKILL');
  }
  await fs.rm(tmp, { recursive: true, force: true });
  // The crashed holder could not remove its service's socket folder.
  for (const socket of sockets) await fs.rm(path.dirname(socket), { recursive: true, force: true });
});

interface Holder {
  child: ChildProcess;
  pid: number;
  socket: string;
  lines: AsyncIterator<string>;
}

/** Starts a process of the rootless user holding the service; resolves once the service answers. */
async function holdService(): Promise<Holder> {
  const child = spawn(
    'runuser',
    ['-u', ROOTLESS_USER, '--', 'env', `HOME=${home}`, 'XDG_RUNTIME_DIR=', process.execPath, helper, path.join(tmp, 'root'), path.join(tmp, 'run')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  held.push(child);
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  assert.ok(!first.done, 'the holder exited before the service answered (its error is above)');
  const { pid, socket } = JSON.parse(first.value) as { pid: number; socket: string };
  sockets.push(socket);
  return { child, pid, socket, lines };
}

const parentOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

/** The service's outer podman (the one whose parent is not a podman of the service) and the rest. */
function serviceProcesses(socket: string): { outer: number[]; inner: number[] } {
  const pids = processesMatching(socket);
  const outer = pids.filter((p) => !pids.includes(parentOf(p)));
  return { outer, inner: pids.filter((p) => !outer.includes(p)) };
}

// The waits end on a state; this cap only ends a test that fails (a service start takes seconds under load).
const CAP = { timeout: 180_000 };

async function until(state: () => boolean): Promise<void> {
  while (!state()) await new Promise((r) => setTimeout(r, 50));
}

test('rootless: the outer podman killed while held, then released: no process of either service is left', CAP, async () => {
  const h = await holdService();
  const first = serviceProcesses(h.socket);
  assert.equal(first.outer.length, 1, `one outer podman: ${JSON.stringify(first)}`);
  assert.ok(first.inner.length >= 1, `rootless podman runs the service in a user-namespace child: ${JSON.stringify(first)}`);
  process.kill(first.outer[0], 'SIGKILL');
  // The holder starts the service again on the same socket (an exit it did not ask for).
  await until(() => serviceProcesses(h.socket).outer.some((p) => p !== first.outer[0] && !first.inner.includes(p)));
  h.child.stdin!.write('release\n');
  assert.deepEqual(await h.lines.next(), { done: false, value: 'released' });
  assert.deepEqual(processesMatching(h.socket), [], 'released: every process of the service has gone (the first one’s user-namespace child too)');
});

test('rootless: many containers created at once on one service all are made (keep-id reads the subordinate ids)', CAP, async () => {
  const h = await holdService();
  h.child.stdin!.write('creates 16\n');
  const line = await h.lines.next();
  assert.ok(!line.done, 'the holder exited while creating (its error is above)');
  const result = JSON.parse(line.value) as { usernsMode?: string; made: number; failed: string[] };
  assert.equal(result.usernsMode, 'keep-id', 'rootless: the user’s own uid inside');
  // Two creates at once in Podman 4.3's service once failed one of them about /etc/subuid.
  assert.deepEqual(result.failed, []);
  assert.equal(result.made, 16 * 20);
  h.child.stdin!.write('release\n');
  assert.deepEqual(await h.lines.next(), { done: false, value: 'released' });
});

test('rootless: the holder killed (a crash): its service goes with it', CAP, async () => {
  const h = await holdService();
  assert.ok(processesMatching(h.socket).length >= 2);
  process.kill(h.pid, 'SIGKILL');
  assert.deepEqual(await waitNoneMatching(h.socket), [], 'setpriv’s parent-death signal reaches the outer podman, which passes it on');
});
