// sweci dataset download as a user runs it (a real process) against a Hub of our own on loopback
// serving the demo batch dataset: a whole split; a kill and a resume that fetches only what was
// missing; a dropped connection, a 429 and a corrupted byte; --tasks; a gated repository; too
// little space on a small real filesystem; bad input; and sweci run on what was downloaded.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { startHubServer, type HubServer } from '../../harness/hub-server';
import { writeScriptedSettings } from '../helpers/scripted-settings';
import { hubDatasetFixture, type HubDataset } from '../../harness/hub-dataset-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
const IMAGE_BYTES = 3 * 1024 * 1024;
let tmp: string;
let hub: HubServer;
let ds: HubDataset;

/** The environment of a run: no token or endpoint from the machine, retries quick. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HF_')) e[k] = v;
  return { ...e, HF_ENDPOINT: hub.endpoint, ...extra };
}

/** sweci as a child process, waited for without blocking this process (the Hub answers from here). */
function sweci(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [cli, ...args], { env: env(extra), cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child);
}

function collect(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

function events(out: string): Array<Record<string, unknown>> {
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');
}

function sent(): Map<string, number> {
  const copy = new Map(hub.bytesSent);
  hub.bytesSent.clear();
  return copy;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

describe('sweci dataset download', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-download-')));
    ds = await hubDatasetFixture(path.join(tmp, 'hub'), IMAGE_BYTES);
    hub = await startHubServer(ds.root, { pageSize: 4 });
  });
  after(async () => {
    await hub?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('a whole split: every file verified in place, the CSV as the Hub has it, one 429 waited out, nothing fetched twice', async () => {
    const into = path.join(tmp, 'full');
    hub.faults.tooManyOnce = '/tree/';
    sent();
    const r = await sweci(['dataset', 'download', '--into', into, '--jobs', '2', '--json']);
    assert.equal(r.code, 0, r.err + r.out);
    const ev = events(r.out);
    assert.ok(
      ev.some((e) => e.type === 'retry' && e.reason === '429' && String(e.path).includes('/tree/')),
      'the 429 was waited out',
    );
    assert.deepEqual(
      ev
        .filter((e) => e.type === 'task-ready')
        .map((e) => e.taskId)
        .sort(),
      [...ds.taskIds].sort(),
    );
    for (const f of hub.files()) {
      const local = f.path.startsWith('metadata/') ? path.join(into, f.path) : path.join(into, f.path);
      assert.equal(await sha256(local), f.sha256, f.path);
    }
    assert.equal(
      await fs.readFile(path.join(into, 'metadata', 'default.csv'), 'utf8'),
      await fs.readFile(path.join(ds.root, 'metadata', 'default.csv'), 'utf8'),
    );
    const tasks = await readDatasetTasks(into, 'default');
    assert.deepEqual(
      tasks.map((t) => t.id),
      ds.taskIds,
    );
    assert.ok(
      tasks.every((t) => t.source.kind === 'dataset' && t.source.imagePath),
      'every task has its image',
    );
    // Each data file once, plus the client's 1-byte probe.
    const counted = sent();
    for (const f of hub.files().filter((f) => f.path.startsWith('data/'))) assert.equal(counted.get(f.path), f.size + 1, f.path);
    // No partial file is left.
    const left = await fs.readdir(path.join(into, '.sweci-download', 'partial'), { recursive: true, withFileTypes: true });
    assert.deepEqual(
      left.filter((e) => e.isFile()).map((e) => e.name),
      [],
    );

    // A second run fetches nothing.
    const again = await sweci(['dataset', 'download', '--into', into, '--json']);
    assert.equal(again.code, 0, again.err);
    assert.equal(sent().size, 0, 'nothing is fetched again');
    const plan = events(again.out).find((e) => e.type === 'plan');
    assert.equal(plan?.needBytes, 0);
  });

  test('--tasks and --no-images: only those tasks, only their code; the CSV lists only them', async () => {
    const into = path.join(tmp, 'some');
    const chosen = [ds.taskIds[2], ds.taskIds[1]];
    sent();
    const r = await sweci(['dataset', 'download', '--into', into, '--tasks', chosen.join(','), '--no-images']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /2 tasks of split default/);
    const tasks = await readDatasetTasks(into, 'default');
    assert.deepEqual(
      tasks.map((t) => t.id),
      [ds.taskIds[1], ds.taskIds[2]],
      'in CSV order',
    );
    assert.ok(tasks.every((t) => t.source.kind === 'dataset' && !t.source.imagePath));
    const counted = sent();
    assert.deepEqual([...counted.keys()].filter((k) => k.startsWith('data/')).sort(), chosen.map((id) => `data/${id}/code.zip`).sort());
    // The Hub's CSV is kept whole beside it.
    assert.equal(
      await fs.readFile(path.join(into, '.sweci-download', 'metadata', 'default.csv'), 'utf8'),
      await fs.readFile(path.join(ds.root, 'metadata', 'default.csv'), 'utf8'),
    );
  });

  test('killed mid-file, then run again: the verified files and the bytes on disk are not fetched again, and the half task is never listed', async () => {
    const into = path.join(tmp, 'killed');
    const first = ds.taskIds[0];
    const image = `data/${first}/image.tar.gz`;
    const part = path.join(into, '.sweci-download', 'partial', `${image}.part`);
    let stalled!: () => void;
    const atStall = new Promise<void>((resolve) => (stalled = resolve));
    hub.faults.stallAfter = { path: image, bytes: 2 * 1024 * 1024, onStall: () => stalled() };
    sent();
    const child = spawn(process.execPath, [cli, 'dataset', 'download', '--into', into, '--jobs', '1', '--json'], {
      env: env(),
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = collect(child);
    await atStall;
    // Wait until at least 1 MiB is on disk, then kill it as a reboot would.
    while (((await fs.stat(part).catch(() => undefined))?.size ?? 0) < 1024 * 1024) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await done;
    const kept = (await fs.stat(part)).size;
    assert.ok(kept >= 1024 * 1024 && kept < IMAGE_BYTES, `kept ${kept}`);
    assert.equal(await exists(path.join(into, 'data', first, 'image.tar.gz')), false, 'the partial file is not in data/');
    const listed = await fs.readFile(path.join(into, 'metadata', 'default.csv'), 'utf8').catch(() => '');
    assert.doesNotMatch(listed, new RegExp(first), 'a task missing a file is not in metadata/');
    assert.deepEqual(
      (await readDatasetTasks(into, 'default').catch(() => [])).map((t) => t.id),
      [],
    );
    sent();

    const r = await sweci(['dataset', 'download', '--into', into, '--jobs', '1', '--json']);
    assert.equal(r.code, 0, r.err);
    const counted = sent();
    const files = hub.files().filter((f) => f.path.startsWith('data/'));
    assert.equal(counted.get(`data/${first}/code.zip`), undefined, 'the verified code.zip is not fetched again');
    // The rest of the image from where the disk stopped, plus the client's 1-byte probe.
    assert.equal(counted.get(image), IMAGE_BYTES - kept + 1);
    let missing = 0;
    for (const f of files) if (f.path !== image && f.path !== `data/${first}/code.zip`) missing += f.size + 1;
    const total = [...counted.values()].reduce((a, b) => a + b, 0);
    assert.equal(total, missing + IMAGE_BYTES - kept + 1, 'exactly the missing bytes (and one probe byte a file)');
    const resumed = events(r.out).find((e) => e.type === 'file-start' && e.path === image);
    assert.equal(resumed?.resumeFrom, kept);
    assert.equal(await sha256(path.join(into, image)), hub.files().find((f) => f.path === image)?.sha256);
    assert.deepEqual(
      (await readDatasetTasks(into, 'default')).map((t) => t.id),
      ds.taskIds,
    );
  });

  test('two downloads into one folder: the second is refused naming the first (so is verify --fix); once the first is killed (-9) its lock does not block', async () => {
    const into = path.join(tmp, 'two');
    const image = `data/${ds.taskIds[1]}/image.tar.gz`;
    const lock = path.join(into, '.sweci-download', 'lock.json');
    let stalled!: () => void;
    const atStall = new Promise<void>((resolve) => (stalled = resolve));
    hub.faults.stallAfter = { path: image, bytes: 1024 * 1024, onStall: () => stalled() };
    const first = spawn(process.execPath, [cli, 'dataset', 'download', '--into', into, '--jobs', '1', '--json'], {
      env: env(),
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const firstDone = collect(first);
    await atStall;
    // The first download books a finished file (its manifest, then the CSV of complete tasks)
    // while it fetches the next: before the snapshot, its CSV must say the first task is complete,
    // which it does once the bookkeeping of the files before the stalled one is done.
    for (let i = 0; !(await readDatasetTasks(into, 'default').catch(() => [])).some((t) => t.id === ds.taskIds[0]); i++) {
      assert.ok(i < 600, 'the first download never listed its first complete task');
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = new Map<string, string>();
    for (const f of hub.files()) {
      const at = path.join(into, f.path);
      if (await exists(at)) before.set(f.path, await sha256(at));
    }
    const partBefore = await fs.readFile(path.join(into, '.sweci-download', 'partial', `${image}.part`)).catch(() => Buffer.alloc(0));

    const second = await sweci(['dataset', 'download', '--into', into, '--jobs', '1']);
    assert.notEqual(second.code, 0, 'the second download is refused');
    assert.match(second.err, new RegExp(`in use by process ${first.pid} \\(sweci dataset download --into `), second.err);
    assert.match(second.err, /Wait for it to finish/);
    const fix = await sweci(['dataset', 'verify', into, '--fix']);
    assert.notEqual(fix.code, 0);
    assert.match(fix.err, new RegExp(`in use by process ${first.pid}`), fix.err);
    // The refused runs wrote nothing: the files and the partial file are as the first left them.
    for (const [p, hash] of before) assert.equal(await sha256(path.join(into, p)), hash, p);
    const partNow = await fs.readFile(path.join(into, '.sweci-download', 'partial', `${image}.part`)).catch(() => Buffer.alloc(0));
    assert.ok(partNow.subarray(0, partBefore.length).equals(partBefore), 'the partial file only grew');
    assert.equal((JSON.parse(await fs.readFile(lock, 'utf8')) as { pid: number }).pid, first.pid, "the lock is still the first one's");

    first.kill('SIGKILL');
    await firstDone;
    assert.equal(await exists(lock), true, 'a killed process leaves its lock behind');
    const third = await sweci(['dataset', 'download', '--into', into, '--jobs', '1', '--json']);
    assert.equal(third.code, 0, third.err);
    for (const f of hub.files().filter((x) => x.path.startsWith('data/'))) assert.equal(await sha256(path.join(into, f.path)), f.sha256, f.path);
    assert.equal(await exists(lock), false, 'the lock goes when the download ends');
    assert.deepEqual(
      (await readDatasetTasks(into, 'default')).map((t) => t.id),
      ds.taskIds,
    );
  });

  test('a dropped connection is continued with a range; a corrupted byte fails the hash and the file is fetched again', async () => {
    const into = path.join(tmp, 'faults');
    const id = ds.taskIds[3];
    const code = hub.files().find((f) => f.path === `data/${id}/code.zip`)!;
    const image = hub.files().find((f) => f.path === `data/${id}/image.tar.gz`)!;
    const cut = Math.floor(image.size * 0.8);
    hub.faults.dropAfter = { path: image.path, bytes: cut };
    hub.faults.corruptOnce = { path: code.path, offset: 12345 };
    hub.requests.length = 0;
    sent();
    const r = await sweci(['dataset', 'download', '--into', into, '--tasks', id, '--json']);
    assert.equal(r.code, 0, r.err);
    const ev = events(r.out);
    assert.ok(
      ev.some((e) => e.type === 'retry' && e.path === image.path),
      'the drop was retried',
    );
    const ranges = hub.requests.filter((q) => q.startsWith('CDN GET') && q.includes(image.sha256)).map((q) => /bytes=(\d+)-$/.exec(q)?.[1]);
    const from = Number(ranges.find((x) => x !== undefined && Number(x) > 0));
    assert.ok(from > 0, `a range request continued it: ${hub.requests.join('\n')}`);
    assert.ok(ev.some((e) => e.type === 'mismatch' && e.path === code.path && e.expected === code.sha256));
    const counted = sent();
    assert.equal(counted.get(code.path), 2 * code.size + 1, 'the corrupted file came twice');
    assert.equal(counted.get(image.path), cut + (image.size - from) + 1, 'the dropped file continued where the disk stopped');
    assert.equal(await sha256(path.join(into, code.path)), code.sha256);
    assert.equal(await sha256(path.join(into, image.path)), image.sha256);
  });

  test('a gated dataset: without a token, or with one that may not read it, the message says what to do; --token-env works; the token never leaves the Hub', async () => {
    hub.faults.token = 'hf_secret';
    try {
      const into = path.join(tmp, 'gated');
      const none = await sweci(['dataset', 'download', '--into', into, '--no-images']);
      assert.equal(none.code, 1);
      assert.match(none.err, /refused access \(401/);
      assert.match(none.err, new RegExp(`accept its terms at ${hub.endpoint}/datasets/skylenage-ai/SWE-CI`));
      assert.match(none.err, /HF_TOKEN/);
      const wrong = await sweci(['dataset', 'download', '--into', into, '--no-images'], { HF_TOKEN: 'hf_other' });
      assert.equal(wrong.code, 1);
      assert.match(wrong.err, /refused access \(403.*the token in HF_TOKEN/);
      const notToken = await sweci(['dataset', 'download', '--into', into], { HF_TOKEN: 'secret' });
      assert.match(notToken.err, /HF_TOKEN does not hold a Hugging Face access token/);
      hub.requests.length = 0;
      const ok = await sweci(['dataset', 'download', '--into', into, '--token-env', 'MY_TOKEN', '--tasks', ds.taskIds[1]], { MY_TOKEN: 'hf_secret' });
      assert.equal(ok.code, 0, ok.err);
      assert.ok(hub.requests.some((q) => q.startsWith('CDN')));
      assert.ok(!hub.requests.some((q) => q.startsWith('CDN') && q.includes('with token')), 'the redirect to another host drops the token');
    } finally {
      delete hub.faults.token;
    }
  });

  test('not enough space on a small filesystem: refused before anything is fetched, with both numbers', async (t) => {
    const small = path.join(tmp, 'small');
    await fs.mkdir(small);
    const mount = await new Promise<number | null>((resolve) =>
      spawn('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', small], { stdio: 'ignore' })
        .on('close', resolve)
        .on('error', () => resolve(-1)),
    );
    if (mount !== 0) return t.skip('mounting a tmpfs needs root');
    try {
      sent();
      const r = await sweci(['dataset', 'download', '--into', path.join(small, 'ds')]);
      assert.equal(r.code, 1);
      const m = /needs [\d.]+ MB \((\d+) bytes\) and .* has [\d.]+ MB \((\d+) bytes\) free/.exec(r.err);
      assert.ok(m, r.err);
      const need = hub
        .files()
        .filter((f) => f.path.startsWith('data/'))
        .reduce((n, f) => n + f.size, 0);
      assert.equal(Number(m[1]), need);
      assert.ok(Number(m[2]) < need && Number(m[2]) > 0);
      assert.match(r.err, /--no-images/);
      assert.deepEqual(
        [...sent().keys()].filter((k) => k.startsWith('data/')),
        [],
        'no task file was fetched',
      );
      // Without the images it fits.
      const fits = await sweci(['dataset', 'download', '--into', path.join(small, 'ds'), '--no-images']);
      assert.equal(fits.code, 0, fits.err);
    } finally {
      await new Promise((resolve) => spawn('umount', [small], { stdio: 'ignore' }).on('close', resolve));
    }
  });

  test('bad input: unknown repository, revision, split and task, each named with what exists; a folder holding another dataset', async () => {
    const into = path.join(tmp, 'bad');
    const repo = await sweci(['dataset', 'download', '--into', into, '--repo', 'nobody/nothing']);
    assert.equal(repo.code, 1);
    assert.match(repo.err, /no dataset repository nobody\/nothing on http:\/\/127\.0\.0\.1:\d+ .*skylenage-ai\/SWE-CI/);
    const rev = await sweci(['dataset', 'download', '--into', into, '--revision', 'v9']);
    assert.match(rev.err, /has no revision "v9"/);
    const split = await sweci(['dataset', 'download', '--into', into, '--split', 'huge']);
    assert.match(split.err, /has no split "huge"\. Its splits: default\./);
    const task = await sweci(['dataset', 'download', '--into', into, '--tasks', `nope,${ds.taskIds[0]}`]);
    assert.equal(task.code, 1);
    assert.match(task.err, new RegExp(`no task "nope"\\. It has 4 tasks: ${ds.taskIds[0]}`));
    assert.equal(await exists(path.join(into, 'data')), false, 'nothing was fetched');

    const foreign = path.join(tmp, 'foreign');
    await fs.mkdir(path.join(foreign, 'metadata'), { recursive: true });
    await fs.writeFile(path.join(foreign, 'metadata', 'default.csv'), 'task_id,current_sha,target_sha\n');
    const other = await sweci(['dataset', 'download', '--into', foreign]);
    assert.equal(other.code, 1);
    assert.match(other.err, /already holds a dataset that sweci did not download/);
    const otherRepo = await sweci(['dataset', 'download', '--into', path.join(tmp, 'some'), '--repo', 'someone/else']);
    assert.match(otherRepo.err, /holds skylenage-ai\/SWE-CI at revision main, not someone\/else at main/);
  });

  test('sweci run on the downloaded dataset', async () => {
    const config = await writeScriptedSettings(ds.demo, tmp);
    const experiment = path.join(tmp, 'exp');
    const task = ds.taskIds[1];
    const r = await sweci([
      'run',
      '--dataset',
      path.join(tmp, 'full'),
      '--experiment',
      experiment,
      '--run',
      'scripted',
      '--config',
      config,
      '--runtime',
      'local',
      '--tasks',
      task,
      '--json',
    ]);
    assert.equal(r.code, 0, r.err + r.out);
    const lines = (await fs.readFile(path.join(experiment, task, '.sweci', 'runs', 'scripted', 'iteration.jsonl'), 'utf8')).trim().split('\n');
    assert.ok(lines.length >= 2, 'the base line and at least one iteration');
  });

  test('a file that changed on the Hub is refused, named with its new hash; --update fetches it', async () => {
    const into = path.join(tmp, 'full');
    const id = ds.taskIds[3];
    const file = `data/${id}/image.tar.gz`;
    const old = hub.files().find((f) => f.path === file)!.sha256;
    await fs.writeFile(path.join(ds.root, file), Buffer.alloc(4096, 7));
    await hub.rescan();
    const now = hub.files().find((f) => f.path === file)!.sha256;
    const r = await sweci(['dataset', 'download', '--into', into]);
    assert.equal(r.code, 1);
    assert.match(r.err, new RegExp(`changed on the Hub .*${file} \\(had ${old}, the Hub now has ${now}\\).*--update`));
    assert.equal(await sha256(path.join(into, file)), old, 'the old file is kept');
    sent();
    const u = await sweci(['dataset', 'download', '--into', into, '--update', '--json']);
    assert.equal(u.code, 0, u.err);
    assert.deepEqual([...sent().keys()], [file]);
    assert.equal(await sha256(path.join(into, file)), now);
  });

  test('verify finds a changed byte and a missing file, --fix fetches only those again; info says what a folder holds', async () => {
    const into = path.join(tmp, 'full');
    const ok = await sweci(['dataset', 'verify', into]);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /^9 of 9 files match the Hub's hashes/);
    const zip = `data/${ds.taskIds[0]}/code.zip`;
    const image = `data/${ds.taskIds[2]}/image.tar.gz`;
    const bytes = await fs.readFile(path.join(into, zip));
    bytes[100] ^= 1;
    await fs.writeFile(path.join(into, zip), bytes);
    await fs.rm(path.join(into, image));
    const bad = await sweci(['dataset', 'verify', into]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, new RegExp(`bad: ${zip}: SHA-256 [0-9a-f]{64}, the Hub's is ${hub.files().find((f) => f.path === zip)!.sha256}`));
    assert.match(bad.err, new RegExp(`bad: ${image}: .* is missing`));
    assert.match(bad.out, /7 of 9 files.*--fix/s);
    sent();
    const fixed = await sweci(['dataset', 'verify', into, '--fix']);
    assert.equal(fixed.code, 0, fixed.err);
    assert.deepEqual([...sent().keys()].sort(), [zip, image].sort());
    assert.equal((await sweci(['dataset', 'verify', into])).code, 0);
    assert.deepEqual(
      (await readDatasetTasks(into, 'default')).map((t) => t.id),
      ds.taskIds,
    );

    const some = await sweci(['dataset', 'info', path.join(tmp, 'some')]);
    assert.equal(some.code, 0, some.err);
    assert.match(some.out, /skylenage-ai\/SWE-CI at main from http:\/\/127\.0\.0\.1:\d+/);
    assert.match(some.out, /2 code\.zip and 0 image\.tar\.gz/);
    assert.match(some.out, /split default: 2 of its 4 tasks asked for, 2 complete/);
    const killed = JSON.parse((await sweci(['dataset', 'info', path.join(tmp, 'killed'), '--json'])).out) as { splits: Array<{ complete: number }> };
    assert.equal(killed.splits[0].complete, 4);
    const foreign = await sweci(['dataset', 'info', path.join(tmp, 'foreign')]);
    assert.match(foreign.out, /a dataset folder sweci did not download/);
    const notOurs = await sweci(['dataset', 'verify', path.join(tmp, 'foreign')]);
    assert.equal(notOurs.code, 1);
    assert.match(notOurs.err, /was not downloaded by sweci/);
  });
});
