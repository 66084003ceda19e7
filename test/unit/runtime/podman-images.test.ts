// The task images and the image budget on Podman (issue 48): a real Podman store of this file's
// own (a temp folder, as a cluster's node-local store), reached through the product's API service
// and loaded into by the product's `podman load` processes.
// Tasks opened with `--runtime podman` load their image.tar.gz into the store labelled as
// SWE-CI's; the budget removes the least recently used ones; `sweci images list/prune
// --runtime podman --podman-root … --podman-runroot …` list and prune that store (never an image a
// container uses, never one SWE-CI did not load); `sweci run --evict-images` removes a finished
// task's image from it. The task archives are tiny `docker save` archives built here by code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import * as tar from 'tar-stream';
import Docker from 'dockerode';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { assertRoomToLoad } from '../../../src/core/runtime/docker/engine-room';
import { ensureImage } from '../../../src/core/runtime/docker/ensure-image';
import { ARCHIVE_LABEL, listTaskImages } from '../../../src/core/runtime/docker/task-images';
import { checkPodmanHost } from '../../../src/core/runtime/podman/podman-preflight';
import { acquirePodman } from '../../../src/core/runtime/podman/podman-service';
import { DEFAULT_RUNTIME_SETTINGS, type PodmanSettings, type RuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { openTaskEnvironment } from '../../../src/core/runtime/task-environment';
import { batchFixture, cli, type BatchFixture } from '../cli/batch-fixture';
import { demoImageArchive } from '../../../scripts/demo-image';
import { runCli, type CliResult } from '../helpers/cli-process';
import { PYTHON } from '../loop/demo-fixture';
import { isAbortError, UserError } from '../../../src/core/util/errors';
import { processesMatching } from './process-helpers';
import { emptyPodmanStore } from '../helpers/podman-store';

// Read before this file points the user cache at its own folder (the demo archive lives there).
const DEMO_ARCHIVE = demoImageArchive();
const PREFIX = `localhost/sweci-podman-images-${process.pid}`;

let tmp: string;
let store: PodmanSettings;
let conn: DockerConnection;
let releaseService: () => Promise<void>;
const made: string[] = [];

/** `podman` on this file's store; `input`: its standard input. */
function podmanWith(input: Buffer | undefined, ...args: string[]): string {
  const r = spawnSync('podman', ['--root', store.root, '--runroot', store.runroot, '--storage-driver', 'overlay', ...args], { encoding: 'utf8', input });
  assert.equal(r.status, 0, `podman ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const podman = (...args: string[]): string => podmanWith(undefined, ...args);

function tarOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, body] of Object.entries(files)) pack.entry({ name, mtime: new Date(0) }, body);
  pack.finalize();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    pack.on('data', (c: Buffer) => chunks.push(c));
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
}

const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/**
 * A task's data/<task>/image.tar.gz: a `docker save` of a one-layer image whose single file
 * names the task (so each is a distinct image), `filler` bytes making it that much larger (given
 * as bytes: that much larger gzipped too).
 */
async function taskArchive(task: string, filler: number | Buffer = 0): Promise<{ archive: string; tag: string }> {
  const tag = `${PREFIX}/${task}:v1`;
  const layer = await tarOf({ mark: `${tag}\n`, filler: typeof filler === 'number' ? Buffer.alloc(filler, task.charCodeAt(0)) : filler });
  const diffId = sha256(layer);
  const config = JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    created: '2026-01-01T00:00:00Z',
    config: { Cmd: ['/mark'] },
    rootfs: { type: 'layers', diff_ids: [`sha256:${diffId}`] },
    history: [{ created: '2026-01-01T00:00:00Z', created_by: 'podman-images.test.ts' }],
  });
  const configName = `${sha256(config)}.json`;
  const manifest = JSON.stringify([{ Config: configName, RepoTags: [tag], Layers: [`${diffId}/layer.tar`] }]);
  const archive = path.join(tmp, 'data', task, 'image.tar.gz');
  await fs.mkdir(path.dirname(archive), { recursive: true });
  await fs.writeFile(archive, gzipSync(await tarOf({ [`${diffId}/layer.tar`]: layer, [configName]: config, 'manifest.json': manifest })));
  return { archive, tag };
}

const settings = (budgetGb: number): RuntimeSettings => ({
  ...DEFAULT_RUNTIME_SETTINGS,
  runtime: 'podman',
  podman: store,
  docker: { ...DEFAULT_RUNTIME_SETTINGS.docker, imageBudgetGb: budgetGb },
});

/** Opens the task in Podman as a run does, and closes it again: one use of its image. */
async function use(archive: string, budgetGb: number): Promise<string[]> {
  const said: string[] = [];
  const env = await openTaskEnvironment(settings(budgetGb), { imageArchive: archive }, { hostPython: PYTHON, onProgress: (m) => said.push(m) });
  assert.equal(env.record.runtime, 'podman');
  await env.dispose();
  return said;
}

const present = (tag: string): boolean => podman('images', '--format', '{{.Repository}}:{{.Tag}}').split('\n').includes(tag);
const ours = async (): Promise<string[]> => (await listTaskImages(conn)).flatMap((i) => i.tags).sort();
const storeFlags = (): string[] => ['--runtime', 'podman', '--podman-root', store.root, '--podman-runroot', store.runroot];

/** The `podman load` processes on this file's store (the service's command line says `system service` there). */
const loadsRunning = (): number[] => processesMatching(`--runroot ${store.runroot} load`);
/** What loads left in the store's temporary folder (a folder of its own per load). */
const spoolsLeft = async (): Promise<string[]> => (await fs.readdir(path.join(store.root, 'sweci-tmp'))).filter((n) => n.startsWith('sweci-load-'));

const sweci = (...args: string[]): Promise<CliResult> => runCli(cli, tmp, ...args);

/**
 * Bytes this process's threads have read through read(2) and its kind so far (Linux's
 * /proc/self/task/<tid>/io). Thread by thread: /proc/self/io also counts what every child this
 * process reaped read, and the `podman load` a load runs reads its own spool of the archive.
 */
const bytesRead = (): number =>
  readdirSync('/proc/self/task').reduce((sum, tid) => {
    const io = ((): string => {
      try {
        return readFileSync(`/proc/self/task/${tid}/io`, 'utf8');
      } catch {
        return ''; // a thread that ended meanwhile
      }
    })();
    return sum + Number(/^rchar: (\d+)$/m.exec(io)?.[1] ?? 0);
  }, 0);

describe('task images and the image budget on a Podman store of its own', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-podman-images-')));
    // Short: Podman's run folder holds sockets (paths under 108 characters).
    store = { root: path.join(tmp, 'podman'), runroot: path.join(tmp, 'pr') };
    // The record of last use goes to this user's cache: this test's own.
    process.env.XDG_CACHE_HOME = path.join(tmp, 'cache');
    const s = DEFAULT_RUNTIME_SETTINGS;
    const service = await acquirePodman(store, checkPodmanHost({ limits: s.limits, cpus: s.docker.cpus })).catch((err: Error) => {
      throw new Error(`This test needs Podman: run "bash scripts/setup.sh". ${err.message}`);
    });
    conn = service.connection;
    releaseService = () => service.release();
  });

  after(async () => {
    for (const id of made)
      await conn?.docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => undefined);
    await releaseService?.();
    if (store && tmp) await emptyPodmanStore(store, tmp);
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  test('a first load into a store with no task image of ours reads the archive once: its digest is hashed on the way', async () => {
    assert.deepEqual(await ours(), []);
    // Incompressible: the archive is as large as what it holds, and its reads dwarf the API's answers.
    const t = await taskArchive('one-pass', randomBytes(8 << 20));
    const size = (await fs.stat(t.archive)).size;
    const before = bytesRead();
    const loaded = await ensureImage(conn, { archive: t.archive });
    const read = bytesRead() - before;
    assert.equal(loaded.loaded, true);
    assert.ok(read < 1.5 * size, `${read} bytes read for a ${size}-byte archive: one pass, not a digest pass and then the load`);
    const labelled = await conn.docker.listImages({ filters: { label: [`${ARCHIVE_LABEL}=${sha256(await fs.readFile(t.archive))}`] } });
    assert.deepEqual(
      labelled.flatMap((i) => i.RepoTags ?? []),
      [t.tag],
      'labelled with the archive’s sha256',
    );
    const again = await ensureImage(conn, { archive: t.archive });
    assert.deepEqual([again.loaded, again.id], [false, loaded.id], 'found by the digest remembered from the load');
    podman('rmi', t.tag);
  });

  test('the archive goes to a `podman load` of its own on the store; cancelled while it is sent, that process is killed and leaves no image and no spool', async () => {
    const t = await taskArchive('cancelled', randomBytes(8 << 20));
    const controller = new AbortController();
    let seen: number[] | undefined;
    const loading = ensureImage(conn, {
      archive: t.archive,
      signal: controller.signal,
      onProgress: (_message, fraction) => {
        // Half the archive read: its tar is going into podman's standard input, which cannot have ended.
        if (fraction === undefined || fraction < 0.5 || seen) return;
        seen = loadsRunning();
        controller.abort();
      },
    });
    await assert.rejects(loading, (e: unknown) => isAbortError(e));
    assert.equal(seen?.length, 1, `one podman load on the store while the archive was sent: ${JSON.stringify(seen)}`);
    assert.deepEqual(loadsRunning(), [], 'cancelled: the podman load is gone by the time ensureImage settles');
    assert.equal(podman('images', '-a', '-q'), '', 'nothing loaded');
    assert.deepEqual(await spoolsLeft(), [], 'its spool folder removed');
  });

  test("a load that cannot fit the named store's disk is refused naming its folder, with nothing asked of Podman first", async () => {
    // The store SWE-CI named is its own folder: Podman's info (about a second: its service asks
    // conmon, the OCI runtime and the network tools their versions) is not needed to find it.
    // This service's traits, with a socket nothing listens on: a question to Podman finds no answer.
    const silent = (engine = conn.engine): DockerConnection => ({ ...conn, docker: new Docker({ socketPath: path.join(tmp, 'nobody-listens.sock') }), engine });
    const archive = path.join(tmp, 'room', 'image.tar.gz');
    await assert.rejects(assertRoomToLoad(silent(), archive, 1e15), (e: Error) => {
      assert.match(e.message, /needs [\d.]+ [kMGTP]?B \(3000000000000000 bytes\) and (\S+) has /);
      assert.equal(/and (\S+) has /.exec(e.message)?.[1], store.root);
      assert.match(e.message, /Nothing was loaded\./);
      return true;
    });
    // Podman's default store: only Podman knows its folder, so it is asked; silent, no room is claimed.
    const { storageRoot: _named, ...unnamed } = conn.engine!;
    await assertRoomToLoad(silent(unnamed), archive, 1e15);
  });

  test('a disk that fills under the load: refused saying to free space or use a larger disk, and nothing is loaded', async () => {
    const t = await taskArchive('full-disk', randomBytes(8 << 20));
    // Podman spools the archive in the store's sweci-tmp: there, a disk smaller than the archive.
    // The store's own disk has room, so the check before the load lets it go.
    const spool = path.join(store.root, 'sweci-tmp');
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', spool], { encoding: 'utf8' });
    assert.equal(mounted.status, 0, `cannot mount a tmpfs: ${mounted.stderr}`);
    try {
      await assert.rejects(ensureImage(conn, { archive: t.archive }), (e: unknown) => {
        assert.ok(e instanceof UserError, String(e));
        assert.match(e.message, /^Podman ran out of disk space loading .*full-disk\/image\.tar\.gz into Podman's store /);
        assert.match(e.message, /no space left on device\. Nothing was loaded\. Free space on that disk \(sweci images prune --runtime podman/);
        assert.match(e.message, /--podman-root \(sweci\.podman\.root\) at a larger disk/);
        return true;
      });
      assert.equal(podman('images', '-a', '-q'), '', 'nothing loaded');
      assert.deepEqual(await spoolsLeft(), [], 'its spool folder removed');
    } finally {
      spawnSync('umount', ['-l', spool], { stdio: 'ignore' });
    }
  });

  test('a task opened in Podman loads its image labelled as ours; the budget removes the least recently used', async () => {
    const [a, b, c] = [await taskArchive('lru-a', 200_000), await taskArchive('lru-b', 200_000), await taskArchive('lru-c', 200_000)];
    await use(a.archive, 0);
    assert.deepEqual(await ours(), [a.tag]);
    const size = (await listTaskImages(conn))[0].size;
    assert.ok(size >= 200_000, `the image's size is counted (${size})`);
    const budget = (n: number) => (n * size) / 1e9;

    // Room for two: a, then b, then a again; c's load removes b, used longest ago, though a was loaded first.
    await use(b.archive, budget(2.5));
    await use(a.archive, budget(2.5));
    const said = await use(c.archive, budget(2.5));
    assert.ok(
      said.some((m) => /^Removed 1 least recently used task image/.test(m)),
      said.join('\n'),
    );
    assert.deepEqual(await ours(), [a.tag, c.tag].sort());
    assert.equal(present(b.tag), false);
    // Removing ours by its tag took the loaded image under it too: nothing of b is left in the store.
    assert.doesNotMatch(podman('images', '-a', '--format', '{{.ID}} {{.Repository}}'), /lru-b/);
    const ids = podman('images', '-a', '-q', '--no-trunc').trim().split('\n').filter(Boolean);
    assert.equal(ids.length, 4, `a and c, each loaded and labelled:\n${podman('images', '-a')}`);
    for (const t of [a.tag, c.tag]) podman('rmi', t);
    assert.equal(podman('images', '-a', '-q').trim(), '', 'the labelled image and the loaded one under it both went');
  });

  test('sweci images list and prune --runtime podman: the store named, ours only, never one a container uses', async () => {
    const [x, y, z] = [await taskArchive('cli-x'), await taskArchive('cli-y'), await taskArchive('cli-z')];
    for (const t of [x, y, z]) await use(t.archive, 0);
    // One SWE-CI did not load (loaded by hand), and a container (never started) holding z.
    const foreign = await taskArchive('cli-foreign');
    // As a person loads one by hand: Podman 4.3 reads no gzipped docker save.
    podmanWith(gunzipSync(await fs.readFile(foreign.archive)), 'load');
    const container = await conn.docker.createContainer({ Image: z.tag, Cmd: ['/mark'], name: `sweci-podman-images-${process.pid}-busy` });
    made.push(container.id);
    const tiny = (await listTaskImages(conn)).find((i) => i.tags.includes(x.tag))?.size ?? assert.fail('x is not listed');

    const list = await sweci('images', 'list', ...storeFlags(), '--image-budget-gb', String((1.5 * tiny) / 1e9));
    assert.equal(list.code, 0, list.err);
    const lines = list.out.trim().split('\n');
    assert.match(lines[0], /^IMAGE\s+TASK\s+SIZE\s+LAST USED\s+IN USE$/);
    assert.deepEqual(
      lines.slice(1, 4).map((l) => l.split(/\s+/)[0]),
      [z.tag, y.tag, x.tag],
      'most recently used first',
    );
    assert.match(lines[1], new RegExp(`^${z.tag}\\s+cli-z\\s+[\\d.]+ kB\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\s+yes \\(1 container\\)$`));
    assert.match(lines[3], /cli-x .* no$/);
    assert.ok(!list.out.includes(foreign.tag), 'an image SWE-CI did not load is not listed');
    assert.match(lines.at(-1) ?? '', /^3 task images SWE-CI loaded, [\d.]+ kB; budget [\d.]+ kB\.$/);

    const json = await sweci('images', 'list', ...storeFlags(), '--json');
    assert.equal(json.code, 0, json.err);
    const listed = JSON.parse(json.out) as { runtime: string; images: Array<{ tags: string[]; tasks: string[]; containers: number }> };
    assert.equal(listed.runtime, 'podman');
    assert.deepEqual(listed.images.map((i) => [i.tags[0], i.tasks, i.containers]).sort(), [
      [x.tag, ['cli-x'], 0],
      [y.tag, ['cli-y'], 0],
      [z.tag, ['cli-z'], 1],
    ]);

    // Docker's engine (the default) has none of them: the flags chose the store.
    const viaDocker = await sweci('images', 'list', '--json');
    assert.equal(viaDocker.code, 0, viaDocker.err);
    assert.ok(!viaDocker.out.includes(PREFIX), 'listed from Docker: only Podman has them');

    const pruned = await sweci('images', 'prune', ...storeFlags(), '--image-budget-gb', String((2.5 * tiny) / 1e9));
    assert.equal(pruned.code, 0, pruned.err);
    assert.match(pruned.out, new RegExp(`^removed ${x.tag} `, 'm'));
    assert.match(pruned.out, /Removed 1 task image \([\d.]+ kB\); 2 task images left/);
    assert.deepEqual([present(x.tag), present(y.tag), present(z.tag)], [false, true, true]);

    const all = await sweci('images', 'prune', ...storeFlags(), '--all', '--json');
    assert.equal(all.code, 0, all.err);
    const result = JSON.parse(all.out) as { removed: Array<{ tags: string[] }>; left: Array<{ tags: string[]; containers: number }> };
    assert.deepEqual(
      result.removed.map((i) => i.tags[0]),
      [y.tag],
    );
    assert.deepEqual(
      result.left.map((i) => [i.tags[0], i.containers]),
      [[z.tag, 1]],
    );
    assert.equal(present(z.tag), true, 'in use: kept');
    assert.equal(present(foreign.tag), true, 'not ours: kept');
    assert.match(
      (await sweci('images', 'prune', ...storeFlags(), '--all')).out,
      /Nothing to remove; 1 task image left .*\n1 image in use by containers stayed: prune again once their tasks are closed\./,
    );

    await container.remove({ force: true });
    made.splice(made.indexOf(container.id), 1);
    for (const tag of [z.tag, foreign.tag]) podman('rmi', tag);
    const empty = await sweci('images', 'list', ...storeFlags());
    assert.equal(empty.code, 0, empty.err);
    assert.equal(empty.out, `No task images SWE-CI loaded are in Podman's store ${store.root}.\n`);
  });

  test('sweci images --runtime local is refused with what to name instead', async () => {
    const r = await sweci('images', 'list', '--runtime', 'local');
    assert.equal(r.code, 1);
    assert.match(r.err, /local runtime has no image store.*--runtime docker.*--runtime podman/);
  });

  describe('sweci run --runtime podman --evict-images', () => {
    let batch: BatchFixture;
    before(async () => {
      batch = await batchFixture();
    });
    after(async () => {
      await batch?.dispose();
    });

    test("a finished task's image is removed from the store; without the flag it stays", async () => {
      const task = batch.demo.tasks[0].taskId;
      const shipped = path.join(batch.demo.datasetDir, 'data', task, 'image.tar.gz');
      await fs.link(DEMO_ARCHIVE, shipped).catch(() => fs.copyFile(DEMO_ARCHIVE, shipped));
      const run = (experiment: string, ...more: string[]) =>
        sweci(...batch.runArgs(path.join(batch.tmp, experiment), '--tasks', task, '--max-iterations', '1', ...storeFlags(), '--json', ...more).slice(1));
      const kept = await run('kept');
      assert.equal(kept.code, 0, kept.err);
      const images = await listTaskImages(conn);
      assert.equal(images.length, 1, 'the demo image was loaded into the store and labelled');
      assert.deepEqual(images[0].tasks, [task]);

      const evicted = await run('evicted', '--evict-images');
      assert.equal(evicted.code, 0, evicted.err);
      assert.match(evicted.out, /removed its image .* \(--evict-images\)/);
      assert.deepEqual(await listTaskImages(conn), []);
    });
  });
});
