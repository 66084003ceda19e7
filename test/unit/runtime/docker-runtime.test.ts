// DockerRuntime against the real engine and the demo task's image.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { SpawnError } from '../../../src/core/runtime/spawn-error';
import { DEFAULT_STEP_LIMITS } from '../../../src/core/runtime/step-limits';
import {
  MANAGED_LABEL,
  OWNER_LABEL,
  ROLE_LABEL,
  SESSION_ENV,
  SESSION_LABEL,
  managedLabels,
  ownerLabel,
  processStartTime,
  removeSessionContainers,
  removeStaleContainers,
} from '../../../src/core/runtime/docker/container-owner';
import { DEMO_IMAGE, dockerForTests, listManagedContainers, ourContainers } from '../helpers/docker';

let conn: DockerConnection;
let dir: string;
const runtimes: DockerRuntime[] = [];

function runtime(extra: Partial<ConstructorParameters<typeof DockerRuntime>[0]> = {}): DockerRuntime {
  const rt = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'test', ...extra });
  runtimes.push(rt);
  return rt;
}

const py = (code: string) => ({ command: 'python', args: ['-c', code] });

describe('DockerRuntime (real engine)', () => {
  before(async () => {
    conn = await dockerForTests();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-docker-rt-'));
    await fs.mkdir(path.join(dir, 'code'));
    await fs.writeFile(path.join(dir, 'code', 'hello.txt'), 'hello from the host\n');
    await fs.mkdir(path.join(dir, 'out'));
    await fs.writeFile(path.join(dir, 'secret.txt'), 'not for the container\n');
  });

  after(async () => {
    for (const rt of runtimes) await rt.dispose();
    await fs.rm(dir, { recursive: true, force: true });
    assert.deepEqual(await ourContainers(conn), [], 'no container of ours may remain');
  });

  const mounts = () => [
    { source: path.join(dir, 'code'), target: '/app/code' },
    { source: path.join(dir, 'out'), target: '/sweci/out' },
  ];

  test('runs a command: exit code, separate streams, cwd, env from the request only', async () => {
    process.env.SWECI_TEST_HOST_ONLY = 'leak';
    const rt = runtime();
    const r = await rt.run({
      ...py(
        'import os,sys; print(open("hello.txt").read().strip()); print(os.getcwd()); print(os.environ.get("SWECI_TEST_HOST_ONLY")); print(os.environ["GIVEN"]); print("err", file=sys.stderr); sys.exit(3)',
      ),
      cwd: '/app/code',
      env: { GIVEN: 'yes' },
      mounts: mounts(),
    });
    delete process.env.SWECI_TEST_HOST_ONLY;
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, 'hello from the host\n/app/code\nNone\nyes\n');
    assert.equal(r.stderr, 'err\n');
    assert.equal(r.timedOut, false);
    assert.equal(r.cancelled, false);
  });

  test('maps host paths to where the container sees them', () => {
    const rt = runtime();
    assert.equal(rt.pathIn(mounts(), path.join(dir, 'code', 'tests', 'a.py')), '/app/code/tests/a.py');
    assert.equal(rt.pathIn(mounts(), path.join(dir, 'out')), '/sweci/out');
    assert.throws(() => rt.pathIn(mounts(), path.join(dir, 'secret.txt')), /outside every mount/);
  });

  test('sees only its mounts; a read-only mount cannot be written; no network but loopback', async () => {
    const rt = runtime();
    const r = await rt.run({
      ...py(
        [
          'import os',
          `print(os.path.exists(${JSON.stringify(path.join(dir, 'secret.txt'))}))`,
          `print(os.path.exists(${JSON.stringify(dir)}))`,
          'print(sorted(os.listdir("/sys/class/net")))',
          'try:\n  open("/app/code/x", "w")\n  print("wrote")\nexcept OSError as e:\n  print("refused", e.errno)',
        ].join('\n'),
      ),
      cwd: '/',
      mounts: [{ source: path.join(dir, 'code'), target: '/app/code', readOnly: true }],
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, "False\nFalse\n['lo']\nrefused 30\n");
  });

  test('files written through a mount belong to the configured user, not root', async () => {
    // The host user owns the folders it mounts; here that user is uid 4321.
    const own = path.join(dir, 'owned');
    await fs.mkdir(own);
    await fs.chown(own, 4321, 4321);
    const rt = runtime({ user: '4321:4321' });
    const r = await rt.run({
      ...py('import os; open("/o/made.txt","w").write(str(os.getuid())); print(os.environ["HOME"])'),
      cwd: '/',
      mounts: [{ source: own, target: '/o' }],
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, '/tmp\n');
    const st = await fs.stat(path.join(own, 'made.txt'));
    assert.equal(st.uid, 4321);
    assert.equal(st.gid, 4321);
    assert.equal(await fs.readFile(path.join(own, 'made.txt'), 'utf8'), '4321');
  });

  test('stdin reaches the command and is closed', async () => {
    const rt = runtime();
    const text = 'line ü\n'.repeat(5000);
    const r = await rt.run({ ...py('import sys; d = sys.stdin.read(); print(len(d), d[:6])'), cwd: '/', stdin: text, mounts: mounts() });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, `${text.length} line ü\n`);
  });

  test('live output arrives in order while the command runs', async () => {
    const rt = runtime();
    const chunks: string[] = [];
    const r = await rt.run({
      ...py('import sys,time\nfor i in range(3):\n  print(i, flush=True); time.sleep(0.2)'),
      cwd: '/',
      mounts: mounts(),
      onOutput: (c) => chunks.push(c),
    });
    assert.equal(r.exitCode, 0);
    assert.equal(chunks.join(''), '0\n1\n2\n');
    assert.ok(chunks.length >= 2, `expected output in pieces, got ${JSON.stringify(chunks)}`);
  });

  test('a timeout kills the command and its container', async () => {
    const rt = runtime({ prestart: false, purpose: 'timeout-test' });
    const started = Date.now();
    const r = await rt.run({ command: 'sleep', args: ['100'], cwd: '/', timeoutMs: 1000, mounts: mounts() });
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, null);
    // Well under the command's 100 s, however slow the engine: killed, not waited for.
    assert.ok(Date.now() - started < 60_000);
    await rt.dispose();
    assert.deepEqual(
      (await ourContainers(conn)).filter((c) => c.includes('timeout-test')),
      [],
    );
  });

  test('cancelling kills the command', async () => {
    const rt = runtime();
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const r = await rt.run({ command: 'sleep', args: ['100'], cwd: '/', signal: abort.signal, mounts: mounts() });
    assert.equal(r.cancelled, true);
    assert.equal(r.exitCode, null);
  });

  test('a process left behind by the command does not outlive the run', async () => {
    const rt = runtime({ orphanGraceMs: 500 });
    const marker = path.join(dir, 'out', 'daemon.txt');
    const started = Date.now();
    // The daemon keeps stdout open and would keep writing into the mount.
    const r = await rt.run({
      command: 'sh',
      args: ['-c', '(while :; do date +%s%N >> /sweci/out/daemon.txt; sleep 0.1; done) & echo started'],
      cwd: '/',
      mounts: mounts(),
    });
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, 'started\n');
    // The daemon never ends by itself: the run ending at all is the grace period at work.
    assert.ok(Date.now() - started < 120_000, 'the run must end after the grace period');
    const size = (await fs.stat(marker)).size;
    await new Promise((res) => setTimeout(res, 600));
    assert.equal((await fs.stat(marker)).size, size, 'the daemon kept writing after the run');
  });

  test('reaching the memory limit is reported', async () => {
    const rt = runtime({ limits: { ...DEFAULT_STEP_LIMITS, memoryMb: 64, processes: 256 } });
    const r = await rt.run({ ...py('x = []\nwhile True: x.append(bytearray(10**7))'), cwd: '/', mounts: mounts() });
    assert.equal(r.exitCode, 137);
    assert.equal(r.limitReached, 'memory limit 64 MiB reached (sweci.limits.memoryMb)');
  });

  test('a missing executable is a SpawnError naming it', async () => {
    const rt = runtime();
    await assert.rejects(rt.run({ command: 'no-such-agent', args: [], cwd: '/', mounts: mounts() }), (err: unknown) => {
      assert.ok(err instanceof SpawnError);
      assert.equal(err.code, 'ENOENT');
      assert.match(err.message, /no-such-agent/);
      return true;
    });
  });

  test('a mount whose folder was replaced is seen as it is now (no stale started container)', async () => {
    const rt = runtime();
    const folder = path.join(dir, 'replaced');
    await fs.mkdir(folder);
    await fs.writeFile(path.join(folder, 'v.txt'), 'one');
    const m = [{ source: folder, target: '/w' }];
    const first = await rt.run({ command: 'cat', args: ['/w/v.txt'], cwd: '/', mounts: m });
    assert.equal(first.stdout, 'one');
    await fs.rm(folder, { recursive: true });
    await fs.mkdir(folder);
    await fs.writeFile(path.join(folder, 'v.txt'), 'two');
    const second = await rt.run({ command: 'cat', args: ['/w/v.txt'], cwd: '/', mounts: m });
    assert.equal(second.stdout, 'two');
  });

  test('a read-only mount inside a mounted folder is seen after that folder was emptied between runs (the bytecode seed in the report folder)', async () => {
    // As runPytest does before each run: the report folder is emptied and the seed's mount point made again.
    const rt = runtime({ purpose: 'nested-test' });
    const out = path.join(dir, 'nested-out');
    const seed = path.join(dir, 'nested-seed');
    await fs.mkdir(seed);
    await fs.writeFile(path.join(seed, 'marker'), 'seeded');
    const point = path.join(out, 'pycache', 'usr', 'lib');
    const m = [
      { source: out, target: '/sweci/out' },
      { source: seed, target: '/sweci/out/pycache/usr/lib', readOnly: true, at: point },
    ];
    const read = { command: 'cat', args: ['/sweci/out/pycache/usr/lib/marker'], cwd: '/', mounts: m };
    await fs.mkdir(point, { recursive: true });
    assert.equal((await rt.run(read)).stdout, 'seeded');
    // The folder changes once a container started ahead for these mounts would run (~0.1 s after).
    const mine = ownerLabel();
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline) {
      const ahead = (await listManagedContainers(conn.docker)).some((c) => c.owner === mine && c.role === 'nested-test' && c.state === 'running');
      if (ahead) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    for (const name of await fs.readdir(out)) await fs.rm(path.join(out, name), { recursive: true });
    await fs.mkdir(point, { recursive: true });
    const second = await rt.run(read);
    assert.equal(second.stdout, 'seeded', `the read-only mount was gone: ${second.stderr}`);
  });

  test('every run gets a container nothing ran in before', async () => {
    const rt = runtime();
    const m = mounts();
    const a = await rt.run({ command: 'sh', args: ['-c', 'ls /tmp; touch /tmp/left-over; cat /proc/sys/kernel/hostname'], cwd: '/', mounts: m });
    const b = await rt.run({ command: 'sh', args: ['-c', 'ls /tmp; cat /proc/sys/kernel/hostname'], cwd: '/', mounts: m });
    assert.equal(a.exitCode, 0);
    assert.doesNotMatch(b.stdout, /left-over/);
    assert.notEqual(a.stdout.trim().split('\n').pop(), b.stdout.trim().split('\n').pop(), 'two runs shared a container');
  });

  test('dispose removes the containers started ahead', async () => {
    const rt = runtime();
    await rt.run({ command: 'true', args: [], cwd: '/', mounts: mounts() });
    await new Promise((res) => setTimeout(res, 300));
    await rt.dispose();
    for (const other of runtimes) await other.dispose();
    assert.deepEqual(await ourContainers(conn), []);
  });
});

describe('containers left behind (real engine)', () => {
  test("the next start removes containers of a process that died and its own stopped ones; a live owner's stay, stopped or not", async () => {
    const conn = await dockerForTests();
    const make = async (owner: string, start: boolean): Promise<string> => {
      const c = await conn.docker.createContainer({
        Image: DEMO_IMAGE,
        Cmd: ['sleep', 'infinity'],
        Labels: { [MANAGED_LABEL]: '1', [OWNER_LABEL]: owner, [ROLE_LABEL]: 'left-behind' },
        HostConfig: { Init: true, NetworkMode: 'none' },
      });
      if (start) await c.start();
      return c.id;
    };
    // A pid far above pid_max's default stands for a window that crashed.
    const dead = await make(`${os.hostname()}|4194999|1`, true);
    const reused = await make(`${os.hostname()}|${process.pid}|1`, true);
    const mine = await make(ownerLabel(), true);
    const stopped = await make(ownerLabel(), true);
    await conn.docker.getContainer(stopped).kill();
    // Created but not started yet: a live owner may be starting it this very moment.
    const starting = await make(ownerLabel(), false);
    const otherHost = await make(`another-host|4194999|1`, true);
    // Another live process (a second window, say) whose container has just ended: it is that process's to read and remove.
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    const othersStopped = await make(`${os.hostname()}|${other.pid}|${processStartTime(other.pid!)}`, true);
    await conn.docker.getContainer(othersStopped).kill();
    try {
      const removed = await removeStaleContainers(conn.docker);
      const left = new Set((await listManagedContainers(conn.docker)).map((c) => c.id));
      assert.equal(left.has(dead), false, "a dead owner's container is removed");
      assert.equal(left.has(reused), false, 'a reused pid is not taken for the owner');
      assert.equal(left.has(stopped), false, "this process's own stopped container is litter");
      assert.equal(left.has(othersStopped), true, "another live process's stopped container stays: it may not have read why it ended");
      assert.equal(left.has(starting), true, "a live owner's container that is being started stays");
      assert.equal(left.has(mine), true, "a live owner's running container stays");
      assert.equal(left.has(otherHost), true, "another host's containers are not judged");
      assert.ok(removed >= 3);
    } finally {
      other.kill();
      for (const id of [dead, reused, mine, stopped, starting, otherHost, othersStopped])
        await conn.docker
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined);
    }
  });
});

describe("a session's containers (the demo's editor, real engine)", () => {
  test('each container made under SWECI_CONTAINER_SESSION names it; a bad name is ignored', () => {
    const saved = process.env[SESSION_ENV];
    try {
      process.env[SESSION_ENV] = 'demo-1-abc';
      assert.equal(managedLabels('pytest')[SESSION_LABEL], 'demo-1-abc');
      process.env[SESSION_ENV] = 'no spaces; or=signs';
      assert.equal(SESSION_LABEL in managedLabels('pytest'), false);
    } finally {
      if (saved === undefined) delete process.env[SESSION_ENV];
      else process.env[SESSION_ENV] = saved;
    }
  });

  test("removed once their owners are gone (a zombie is gone); a live owner's are waited for, another session's stay", async () => {
    const conn = await dockerForTests();
    const session = `test-${process.pid}-${Date.now().toString(36)}`;
    const make = async (owner: string, inSession: string): Promise<string> => {
      const c = await conn.docker.createContainer({
        Image: DEMO_IMAGE,
        Cmd: ['sleep', 'infinity'],
        // Without the managed label, which the session's containers carry: any SWE-CI process
        // starting a run on this shared engine (another tier's, under npm test) removes managed
        // containers whose owner is gone, and once took this test's two before it could (removed
        // 0). The removal under test looks for the session's label alone.
        Labels: { [OWNER_LABEL]: owner, [ROLE_LABEL]: 'editor', [SESSION_LABEL]: inSession },
        HostConfig: { Init: true, NetworkMode: 'none' },
      });
      await c.start();
      return c.id;
    };
    // A live owner, and a zombie: a child that exited and that its parent (exec'd into sleep) never reaps.
    const owner = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const zombie = Number((await once(owner.stdout, 'data'))[0]);
    for (let i = 0; i < 50 && !/\) Z /.test(await fs.readFile(`/proc/${zombie}/stat`, 'utf8').catch(() => '')); i++)
      await new Promise((r) => setTimeout(r, 100));
    const host = os.hostname();
    const ids: string[] = [];
    try {
      ids.push(await make(`${host}|4194999|1`, session));
      ids.push(await make(`${host}|${zombie}|`, session));
      const live = await make(`${host}|${owner.pid}|${processStartTime(owner.pid!)}`, session);
      ids.push(live);
      const other = await make(`${host}|4194999|1`, `${session}-other`);
      ids.push(other);

      assert.deepEqual(await removeSessionContainers(conn.docker, session), { removed: 2, left: 1 });
      const left = new Set((await conn.docker.listContainers({ all: true, filters: { label: [SESSION_LABEL] } })).map((c) => c.Id));
      assert.equal(left.has(live), true, "a live owner's container stays");
      assert.equal(left.has(other), true, "another session's container stays");

      // The owner dies while the removal waits for it (an editor shutting down).
      setTimeout(() => owner.kill('SIGKILL'), 1000);
      assert.deepEqual(await removeSessionContainers(conn.docker, session, 15_000), { removed: 1, left: 0 });
    } finally {
      owner.kill('SIGKILL');
      for (const id of ids)
        await conn.docker
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined);
    }
  });
});
