// `sweci.runtime: auto` on a machine with no Docker engine (issue 48): a task with an image runs
// in Podman when Podman can run here, on a store of this file's own, and the note says why; with
// no Podman either, on this machine, the note naming both reasons. `sweci images` with `auto`
// looks where such a run loaded the image. The task's image.tar.gz is a real `docker save` made
// here by Podman from a one-file image.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RUNTIME_SETTINGS, type PodmanSettings, type RuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { openTaskEnvironment } from '../../../src/core/runtime/task-environment';
import { cli } from '../cli/batch-fixture';
import { runCli } from '../helpers/cli-process';
import { PYTHON } from '../loop/demo-fixture';
import { emptyPodmanStore } from '../helpers/podman-store';

let tmp: string;
let store: PodmanSettings;
let nowhere: string;
let archive: string;
const TAG = `localhost/sweci-auto-runtime-${process.pid}:v1`;

function podman(...args: string[]): string {
  const r = spawnSync('podman', ['--root', store.root, '--runroot', store.runroot, '--storage-driver', 'overlay', ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, `podman ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const settings = (): RuntimeSettings => ({
  ...DEFAULT_RUNTIME_SETTINGS,
  runtime: 'auto',
  sandbox: 'off',
  podman: store,
  docker: { ...DEFAULT_RUNTIME_SETTINGS.docker, socketPath: nowhere },
});

describe('auto with no Docker engine', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-auto-')));
    // Short: Podman's run folder holds sockets (paths under 108 characters).
    store = { root: path.join(tmp, 'podman'), runroot: path.join(tmp, 'pr') };
    nowhere = path.join(tmp, 'no-docker.sock');
    process.env.XDG_CACHE_HOME = path.join(tmp, 'cache');
    // The task's archive: a one-file image, saved as `docker save` does, then removed from the store.
    const rootfs = path.join(tmp, 'rootfs');
    await fs.mkdir(rootfs);
    await fs.writeFile(path.join(rootfs, 'mark'), `${TAG}\n`);
    const tarred = spawnSync('tar', ['-cf', path.join(tmp, 'rootfs.tar'), '-C', rootfs, '.']);
    assert.equal(tarred.status, 0, String(tarred.stderr));
    podman('import', path.join(tmp, 'rootfs.tar'), TAG);
    const saved = path.join(tmp, 'saved.tar');
    podman('save', '--format', 'docker-archive', '-o', saved, TAG);
    podman('rmi', TAG);
    archive = path.join(tmp, 'data', 'task-1', 'image.tar.gz');
    await fs.mkdir(path.dirname(archive), { recursive: true });
    await fs.writeFile(archive, gzipSync(await fs.readFile(saved)));
  });

  after(async () => {
    if (store && tmp) await emptyPodmanStore(store, tmp);
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  test('Podman can run here: the task runs in its image in Podman, and the note says why', async () => {
    const env = await openTaskEnvironment(settings(), { imageArchive: archive }, { hostPython: PYTHON });
    try {
      assert.equal(env.record.runtime, 'podman');
      assert.equal(env.record.image, TAG);
      assert.equal(env.note, `The task has a container image and no Docker engine answered at ${nowhere}: running in Podman (rootful, as root).`);
      assert.ok(env.agents, 'agents with runIn "container" run in Podman too');
    } finally {
      await env.dispose();
    }
    assert.match(podman('images', '--format', '{{.Repository}}:{{.Tag}}'), new RegExp(`^${TAG}$`, 'm'), 'loaded into the store the settings name');
  });

  test('`sweci images` with auto lists the Podman store a run loaded into', async () => {
    const r = await runCli(cli, tmp, 'images', 'list', '--json', '--socket', nowhere, '--podman-root', store.root, '--podman-runroot', store.runroot);
    assert.equal(r.code, 0, r.err);
    const listed = JSON.parse(r.out) as { runtime: string; images: Array<{ tags: string[]; tasks: string[] }> };
    assert.equal(listed.runtime, 'podman');
    assert.deepEqual(
      listed.images.map((i) => [i.tags, i.tasks]),
      [[[TAG], ['task-1']]],
    );
  });

  test('no Podman either: this machine, and the note names both reasons', async () => {
    const saved = process.env.PATH;
    // A PATH where podman is not (nor any other program: the local runtime is not started here).
    process.env.PATH = path.join(tmp, 'no-programs');
    try {
      const env = await openTaskEnvironment(settings(), { imageArchive: archive }, { hostPython: PYTHON });
      assert.equal(env.record.runtime, 'local');
      assert.equal(
        env.note,
        `The task has a container image, but no Docker engine answered at ${nowhere} and Podman cannot run here (Podman is not installed here): running on this machine.`,
      );
      await env.dispose();
    } finally {
      process.env.PATH = saved;
    }
  });
});
