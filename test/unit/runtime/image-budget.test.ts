// The image budget on a real Docker engine of its own (a spare dockerd whose storage is a small
// tmpfs, so a full disk is real and nothing of the shared engine is touched): task images SWE-CI
// loads are labelled, the least recently used ones go when the budget is passed, one in use by a
// running container and one SWE-CI did not load stay; a load that does not fit is refused with
// both numbers; `sweci images list/prune`; and `sweci run --evict-images`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import * as tar from 'tar-stream';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { ensureImage } from '../../../src/core/runtime/docker/ensure-image';
import { listTaskImages } from '../../../src/core/runtime/docker/task-images';
import { DEFAULT_RUNTIME_SETTINGS, type RuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { openTaskEnvironment } from '../../../src/core/runtime/task-environment';
import { batchFixture, cli, type BatchFixture } from '../cli/batch-fixture';
import { demoImageArchive } from '../../../scripts/demo-image';
import { buildImage } from '../helpers/build-image';
import { SpareEngine } from '../helpers/spare-engine';
import { runCli, type CliResult } from '../helpers/cli-process';
import { PYTHON } from '../loop/demo-fixture';

// Read before this file points the user cache at its own folder (the demo archive lives there).
const DEMO_ARCHIVE = demoImageArchive();
const PREFIX = `sweci-i45-budget-${process.pid}`;

let engine: SpareEngine;
let conn: DockerConnection;
let tmp: string;
let idle: string;
/** Bytes one tiny image takes in the engine. */
let tinySize = 0;
const running: string[] = [];

/** A tiny image of our own (a static idle program and a file that makes it distinct), as the engine sees it. */
async function tinyImage(tag: string): Promise<string> {
  const context = path.join(tmp, 'ctx', tag.replace(/\W/g, '_'));
  await fs.mkdir(context, { recursive: true });
  await fs.writeFile(path.join(context, 'mark'), `${tag}\n`);
  return buildImage(conn, tag, 'FROM scratch\nCOPY idle /idle\nCOPY mark /mark\nCMD ["/idle"]\n', { idle, mark: path.join(context, 'mark') });
}

/** A task's data/<task>/image.tar.gz holding a tiny image, which the engine then forgets (as a downloaded task's). */
async function taskArchive(task: string): Promise<{ archive: string; tag: string }> {
  const tag = `${PREFIX}/${task}:v1`;
  await tinyImage(tag);
  const archive = path.join(tmp, 'data', task, 'image.tar.gz');
  await fs.mkdir(path.dirname(archive), { recursive: true });
  await pipeline(await conn.docker.getImage(tag).get(), createGzip(), createWriteStream(archive));
  await conn.docker.getImage(tag).remove();
  return { archive, tag };
}

const settings = (budgetGb: number): RuntimeSettings => ({
  ...DEFAULT_RUNTIME_SETTINGS,
  runtime: 'docker',
  docker: { ...DEFAULT_RUNTIME_SETTINGS.docker, socketPath: engine.socket, imageBudgetGb: budgetGb },
});

/** Opens the task in Docker as a run does, and closes it again: one use of its image. */
async function use(archive: string, budgetGb: number): Promise<string[]> {
  const said: string[] = [];
  const env = await openTaskEnvironment(settings(budgetGb), { imageArchive: archive }, { hostPython: PYTHON, onProgress: (m) => said.push(m) });
  await env.dispose();
  return said;
}

const present = async (tag: string): Promise<boolean> =>
  conn.docker
    .getImage(tag)
    .inspect()
    .then(
      () => true,
      () => false,
    );

const ours = async (): Promise<string[]> => (await listTaskImages(conn)).flatMap((i) => i.tags).sort();

const sweci = (...args: string[]): Promise<CliResult> => runCli(cli, tmp, ...args);

describe('image budget (a Docker engine of its own)', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-image-budget-')));
    // The record of last use goes to this user's cache: this test's own.
    process.env.XDG_CACHE_HOME = path.join(tmp, 'cache');
    await fs.writeFile(path.join(tmp, 'idle.c'), '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n');
    idle = path.join(tmp, 'idle');
    const cc = spawnSync('cc', ['-static', '-Os', '-o', idle, path.join(tmp, 'idle.c')], { encoding: 'utf8' });
    assert.equal(cc.status, 0, `this test builds a static idle program with cc: ${cc.stderr}`);
    engine = await SpareEngine.create({ dataTmpfsMb: 800 });
    conn = engine.connection;
    await tinyImage(`${PREFIX}/probe:v1`);
    tinySize = (await conn.docker.getImage(`${PREFIX}/probe:v1`).inspect()).Size;
    await conn.docker.getImage(`${PREFIX}/probe:v1`).remove();
  });

  after(async () => {
    for (const id of running)
      await conn.docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => undefined);
    await engine?.dispose();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('a loaded image is labelled as ours; one built FROM it (an agent image) and one already in the engine are not', async () => {
    const a = await taskArchive('label-a');
    const first = await ensureImage(conn, { archive: a.archive });
    assert.equal(first.loaded, true);
    assert.equal(first.owned, true);
    assert.deepEqual(await ours(), [a.tag]);
    const again = await ensureImage(conn, { archive: a.archive });
    assert.deepEqual([again.loaded, again.owned, again.id], [false, true, first.id], 'the labelled image is the archive’s: not loaded again');

    const child = `${PREFIX}/agent-image:v1`;
    await buildImage(conn, child, `FROM ${a.tag}\nLABEL purpose=agent\n`, {});
    const foreign = await tinyImage(`${PREFIX}/foreign:v1`);
    assert.deepEqual(await ours(), [a.tag], 'the inherited label does not make an image ours');
    const named = await ensureImage(conn, { image: foreign });
    assert.equal(named.owned, false);
    await conn.docker.getImage(child).remove();
    await conn.docker.getImage(a.tag).remove();
  });

  test('a budget smaller than two images removes the older one before the next loads; least recently used, not first loaded', async () => {
    const budget = (n: number) => (n * tinySize) / 1e9;
    const [a, b, c] = [await taskArchive('lru-a'), await taskArchive('lru-b'), await taskArchive('lru-c')];
    await use(a.archive, budget(1.5));
    const said = await use(b.archive, budget(1.5));
    assert.ok(
      said.some((m) => /^Removed 1 least recently used task image/.test(m)),
      said.join('\n'),
    );
    assert.deepEqual([await present(a.tag), await present(b.tag)], [false, true], 'the older one went, the new one is there');

    await conn.docker.getImage(b.tag).remove();

    // With room for two: a loaded, then b, then a used again: c's load removes b, used longest ago, though a was loaded first.
    await use(a.archive, budget(2.5));
    await use(b.archive, budget(2.5));
    await use(a.archive, budget(2.5));
    const images = await listTaskImages(conn);
    const at = (tag: string) => images.find((i) => i.tags.includes(tag)) ?? assert.fail(`${tag} is not listed`);
    assert.ok(at(a.tag).lastUsed > at(b.tag).lastUsed, JSON.stringify(images));
    await use(c.archive, budget(2.5));
    assert.deepEqual(await ours(), [a.tag, c.tag].sort());
    for (const tag of [a.tag, c.tag]) await conn.docker.getImage(tag).remove();
  });

  test('an image a running container uses, and one SWE-CI did not load, stay however small the budget', async () => {
    const [busy, next] = [await taskArchive('busy'), await taskArchive('next')];
    await use(busy.archive, 0);
    const container = await conn.docker.createContainer({ Image: busy.tag, Cmd: ['/idle'], name: `${PREFIX}-busy` });
    running.push(container.id);
    await container.start();
    // A second tag: the engine would let one of two tags go from an image in use; the budget does not try.
    const alias = `${PREFIX}/busy-alias:v1`;
    await conn.docker.getImage(busy.tag).tag({ repo: `${PREFIX}/busy-alias`, tag: 'v1' });
    const foreign = await tinyImage(`${PREFIX}/foreign-small:v1`);

    await use(next.archive, 1e-9);
    assert.equal(await present(busy.tag), true, 'in use: kept');
    assert.equal(await present(alias), true, 'in use: kept under every tag');
    assert.equal(await present(foreign), true, 'not ours: kept');
    assert.equal(await present(next.tag), true, 'the task just opened keeps its image');
    const listed = await listTaskImages(conn);
    assert.equal(listed.find((i) => i.tags.includes(busy.tag))?.containers, 1);

    // The task open elsewhere holds its image too: nothing runs in it, yet another run's budget leaves it.
    const open = await openTaskEnvironment(settings(0), { imageArchive: next.archive }, { hostPython: PYTHON });
    try {
      await use((await taskArchive('third')).archive, 1e-9);
      assert.equal(await present(next.tag), true, 'held by the open task');
    } finally {
      await open.dispose();
    }
    await container.remove({ force: true });
    running.splice(running.indexOf(container.id), 1);
    for (const tag of [alias, busy.tag, next.tag, foreign, `${PREFIX}/third:v1`])
      await conn.docker
        .getImage(tag)
        .remove()
        .catch(() => undefined);
  });

  test("a load that does not fit the engine's disk is refused with both numbers, before anything is sent", async () => {
    // A docker-save-shaped archive whose layer is 600 MB of zeros: tiny gzipped, twice over the tmpfs unpacked.
    const archive = path.join(tmp, 'data', 'too-big', 'image.tar.gz');
    await fs.mkdir(path.dirname(archive), { recursive: true });
    const hex = 'ab'.repeat(32);
    const layer = 600 * 1000 * 1000;
    const pack = tar.pack();
    const done = pipeline(pack, createGzip({ level: 1 }), createWriteStream(archive));
    pack.entry({ name: 'manifest.json' }, JSON.stringify([{ Config: `${hex}.json`, RepoTags: [`${PREFIX}/too-big:v1`], Layers: ['l/layer.tar'] }]));
    pack.entry({ name: `${hex}.json` }, '{}');
    const entry = pack.entry({ name: 'l/layer.tar', size: layer });
    const chunk = Buffer.alloc(1 << 20);
    for (let sent = 0; sent < layer; sent += chunk.length) {
      if (!entry.write(chunk.subarray(0, Math.min(chunk.length, layer - sent)))) await new Promise((r) => entry.once('drain', r));
    }
    entry.end();
    pack.finalize();
    await done;

    const err = await ensureImage(conn, { archive }).then(
      () => assert.fail('loaded'),
      (e: Error) => e,
    );
    const m = /needs [\d.]+ [kMG]?B \((\d+) bytes\) and (\S+) has [\d.]+ [kMG]?B \((\d+) bytes\) free/.exec(err.message);
    assert.ok(m, err.message);
    // Twice the tar's size: the layer, three headers, two small files and the end, padded to a record.
    assert.ok(Number(m[1]) >= 2 * layer && Number(m[1]) <= 2 * (layer + 20_480), m[1]);
    assert.equal(m[2], engine.dataRoot);
    assert.ok(Number(m[3]) > 0 && Number(m[3]) < Number(m[1]));
    assert.match(err.message, /Nothing was loaded\. .*sweci images prune.*sweci\.docker\.imageBudgetGb/);
    assert.equal(await present(`${PREFIX}/too-big:v1`), false);
  });

  test('sweci images list and prune: ours with task, size, last use and use; prune to the budget, or --all but what is in use', async () => {
    const [x, y, z] = [await taskArchive('cli-x'), await taskArchive('cli-y'), await taskArchive('cli-z')];
    for (const t of [x, y, z]) await use(t.archive, 0);
    const foreign = await tinyImage(`${PREFIX}/cli-foreign:v1`);
    const container = await conn.docker.createContainer({ Image: z.tag, Cmd: ['/idle'], name: `${PREFIX}-cli-busy` });
    running.push(container.id);
    await container.start();

    const list = await sweci('images', 'list', '--socket', engine.socket, '--image-budget-gb', String((1.5 * tinySize) / 1e9));
    assert.equal(list.code, 0, list.err);
    const lines = list.out.trim().split('\n');
    assert.match(lines[0], /^IMAGE\s+TASK\s+SIZE\s+LAST USED\s+IN USE$/);
    // Most recently used first.
    assert.deepEqual(
      lines.slice(1, 4).map((l) => l.split(/\s+/)[0]),
      [z.tag, y.tag, x.tag],
    );
    assert.match(lines[1], new RegExp(`^${z.tag}\\s+cli-z\\s+[\\d.]+ kB\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\s+yes \\(1 container\\)$`));
    assert.match(lines[3], /cli-x .* no$/);
    assert.ok(!list.out.includes(foreign), 'an image SWE-CI did not load is not listed');
    assert.match(lines.at(-1) ?? '', /^3 task images SWE-CI loaded, [\d.]+ MB; budget [\d.]+ MB\.$/);

    const refused = await sweci('images', 'prune', '--socket', engine.socket);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /needs a budget.*--image-budget-gb.*--all/);

    const pruned = await sweci('images', 'prune', '--socket', engine.socket, '--image-budget-gb', String((2.5 * tinySize) / 1e9));
    assert.equal(pruned.code, 0, pruned.err);
    assert.match(pruned.out, new RegExp(`^removed ${x.tag} `, 'm'));
    assert.match(pruned.out, /Removed 1 task image \([\d.]+ kB\); 2 task images left/);
    assert.deepEqual([await present(x.tag), await present(y.tag), await present(z.tag)], [false, true, true]);

    const all = await sweci('images', 'prune', '--socket', engine.socket, '--all', '--json');
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
    assert.equal(await present(foreign), true);
    await container.remove({ force: true });
    running.splice(running.indexOf(container.id), 1);
    for (const tag of [z.tag, foreign]) await conn.docker.getImage(tag).remove();
  });

  describe('sweci run --evict-images', () => {
    let batch: BatchFixture;
    before(async () => {
      batch = await batchFixture();
    });
    after(async () => {
      await batch?.dispose();
    });

    test("a finished task's image is removed; without the flag it stays", async () => {
      const task = batch.demo.tasks[0].taskId;
      const shipped = path.join(batch.demo.datasetDir, 'data', task, 'image.tar.gz');
      await fs.link(DEMO_ARCHIVE, shipped).catch(() => fs.copyFile(DEMO_ARCHIVE, shipped));
      const run = (experiment: string, ...more: string[]) =>
        sweci(
          ...batch
            .runArgs(
              path.join(batch.tmp, experiment),
              '--tasks',
              task,
              '--max-iterations',
              '1',
              '--runtime',
              'docker',
              '--socket',
              engine.socket,
              '--json',
              ...more,
            )
            .slice(1),
        );
      const kept = await run('kept');
      assert.equal(kept.code, 0, kept.err);
      const images = await listTaskImages(conn);
      assert.equal(images.length, 1, 'the demo image was loaded and labelled');
      assert.deepEqual(images[0].tasks, [task]);

      const evicted = await run('evicted', '--evict-images');
      assert.equal(evicted.code, 0, evicted.err);
      assert.match(evicted.out, /removed its image .* \(--evict-images\)/);
      assert.deepEqual(await listTaskImages(conn), []);
    });
  });
});
