// Bad input on the Podman route (issue 48), each refused with its fix before anything runs: no
// podman, no subordinate ids, rootless limits Podman would ignore, an archive that is not a
// `docker save`; and the service's own rlimits, which the containers are given.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import * as tar from 'tar-stream';
import { checkPodmanHost } from '../../../src/core/runtime/podman/podman-preflight';
import { serviceUlimits } from '../../../src/core/runtime/podman/service-ulimits';
import { DEFAULT_STEP_LIMITS } from '../../../src/core/runtime/step-limits';
import { openTaskEnvironment } from '../../../src/core/runtime/task-environment';
import { UserError } from '../../../src/core/util/errors';
import { podmanSettings } from '../helpers/podman';

let tmp: string;
const NO_LIMITS = { ...DEFAULT_STEP_LIMITS, memoryMb: 0, processes: 0 };
const USER = { uid: 4321, names: ['alice', '4321'] };

before(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-podman-pre-')));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('no podman on PATH: refused, saying how to install it', () => {
  assert.throws(
    () => checkPodmanHost({ limits: DEFAULT_STEP_LIMITS, cpus: 0, env: { PATH: tmp } }),
    (e: unknown) => e instanceof UserError && /no podman on PATH/.test(e.message) && /apt-get install podman uidmap/.test(e.message),
  );
});

test('a user without subordinate ids: refused with the usermod line for that user', () => {
  for (const subuid of ['', 'bob:100000:65536\n', 'alice:100000:1000\n']) {
    assert.throws(
      () => checkPodmanHost({ limits: NO_LIMITS, cpus: 0, user: USER, subuid, subgid: 'alice:100000:65536\n', cgroupV2: true }),
      (e: unknown) => e instanceof UserError && /usermod --add-subuids 100000-165535 --add-subgids 100000-165535 alice/.test(e.message),
      JSON.stringify(subuid),
    );
  }
  const ok = checkPodmanHost({ limits: NO_LIMITS, cpus: 0, user: USER, subuid: 'alice:100000:65536\n', subgid: '4321:100000:65536\n', cgroupV2: true });
  assert.equal(ok.rootless, true);
});

test('rootless on cgroup v1 with limits: refused (Podman would ignore them), unless they are 0 or cgroup v2', () => {
  const ids = { user: USER, subuid: 'alice:100000:65536', subgid: 'alice:100000:65536' };
  for (const [limits, cpus] of [
    [DEFAULT_STEP_LIMITS, 0],
    [{ ...NO_LIMITS, processes: 64 }, 0],
    [NO_LIMITS, 1.5],
  ] as const) {
    assert.throws(
      () => checkPodmanHost({ limits, cpus, ...ids, cgroupV2: false }),
      (e: unknown) => e instanceof UserError && /cgroup v1/.test(e.message) && /--max-memory-mb 0 --max-processes 0 --cpus 0/.test(e.message),
    );
  }
  assert.equal(checkPodmanHost({ limits: NO_LIMITS, cpus: 0, ...ids, cgroupV2: false }).rootless, true);
  assert.equal(checkPodmanHost({ limits: DEFAULT_STEP_LIMITS, cpus: 2, ...ids, cgroupV2: true }).rootless, true);
  assert.equal(checkPodmanHost({ limits: DEFAULT_STEP_LIMITS, cpus: 2 }).rootless, process.getuid?.() !== 0, 'this machine, as whoever runs the tests');
});

test('a hybrid cgroup host: Podman is given runc (crun refuses there), or refused with how to install it', () => {
  const root = { user: { uid: 0, names: ['root', '0'] } };
  assert.equal(checkPodmanHost({ limits: NO_LIMITS, cpus: 0, ...root, hybridCgroups: false }).ociRuntime, undefined);
  const runc = checkPodmanHost({ limits: NO_LIMITS, cpus: 0, ...root, hybridCgroups: true }).ociRuntime;
  assert.ok(runc && path.basename(runc) === 'runc', `runc found in PATH or the sbin folders: ${runc}`);
  const ids = { user: USER, subuid: 'alice:100000:65536', subgid: 'alice:100000:65536', cgroupV2: false };
  assert.equal(checkPodmanHost({ limits: NO_LIMITS, cpus: 0, ...ids, hybridCgroups: true }).ociRuntime, runc, 'rootless too');
  assert.throws(
    () => checkPodmanHost({ limits: NO_LIMITS, cpus: 0, ...root, hybridCgroups: true, runcSearchPath: tmp }),
    (e: unknown) => e instanceof UserError && /hybrid cgroups/.test(e.message) && /apt-get install runc/.test(e.message),
  );
});

test("the containers get the service's own open-files and process limits (Podman's defaults would be raised past them)", () => {
  const limits = [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max processes             32768                32768                processes ',
    'Max open files            1024                 20000                files     ',
  ].join('\n');
  assert.deepEqual(
    serviceUlimits(7, () => limits),
    [
      { Name: 'nofile', Soft: 1024, Hard: 20000 },
      { Name: 'nproc', Soft: 32768, Hard: 32768 },
    ],
  );
  assert.deepEqual(
    serviceUlimits(7, () => 'Max open files            unlimited            unlimited            files'),
    [],
    'unlimited: nothing to give',
  );
  assert.deepEqual(serviceUlimits(undefined), []);
  const own = serviceUlimits(process.pid);
  assert.deepEqual(
    own?.map((u) => u.Name),
    ['nofile', 'nproc'],
    'read from /proc',
  );
});

test('an image archive that is not a `docker save`: refused before Podman loads anything, saying what to do', async () => {
  const archive = path.join(tmp, 'image.tar.gz');
  const pack = tar.pack();
  pack.entry({ name: 'rootfs/etc/hostname' }, 'not an image\n');
  pack.finalize();
  await pipeline(pack as unknown as Readable, createGzip(), (await fs.open(archive, 'w')).createWriteStream());
  await assert.rejects(
    openTaskEnvironment(podmanSettings(), { imageArchive: archive }, { hostPython: 'python3' }),
    (e: unknown) =>
      e instanceof UserError && /no manifest\.json \(it is not the output of `docker save`\)/.test(e.message) && /Download the task again/.test(e.message),
  );
});
