// sweci dataset download with several jobs, killed (SIGKILL) while two files are half-way and the
// others are done or being recorded: no file in data/ is anything but whole and verified, no half
// task is listed, and the next run fetches exactly the bytes that were not on disk (one probe byte
// a file it fetches) and ends with every task complete.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tinyHubRepository, type TinyHubRepository } from '../../harness/hub-dataset-fixture';
import { startHubServer, type HubServer } from '../../harness/hub-server';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
const IMAGE_BYTES = 3 * 1024 * 1024 + 123;
let tmp: string;
let hub: HubServer;
let repo: TinyHubRepository;

function run(into: string): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HF_')) env[k] = v;
  const child = spawn(process.execPath, [cli, 'dataset', 'download', '--into', into, '--jobs', '3', '--json'], {
    env: { ...env, HF_ENDPOINT: hub.endpoint },
    cwd: tmp,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err }))) };
}

async function sizeOf(p: string): Promise<number | undefined> {
  return (await fs.stat(p).catch(() => undefined))?.size;
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');
}

describe('a download with several jobs, killed and run again', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-concurrent-resume-')));
    repo = await tinyHubRepository(path.join(tmp, 'hub'), IMAGE_BYTES);
    hub = await startHubServer(repo.root, { pageSize: 4 });
  });
  after(async () => {
    await hub?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('nothing half-written is in data/ or listed, and the rerun fetches only what was not on disk', async () => {
    const into = path.join(tmp, 'ds');
    const files = hub.files().filter((f) => f.path.startsWith('data/'));
    const stalled = [`data/${repo.taskIds[0]}/image.tar.gz`, `data/${repo.taskIds[1]}/image.tar.gz`];
    const partOf = (p: string) => path.join(into, '.sweci-download', 'partial', `${p}.part`);
    const stalls = stalled.map((p) => {
      let reached!: () => void;
      const at = new Promise<void>((resolve) => (reached = resolve));
      return { spec: { path: p, bytes: 2 * 1024 * 1024, onStall: () => reached() }, at };
    });
    hub.faults.stallEach = stalls.map((s) => s.spec);
    const first = run(into);
    await Promise.all(stalls.map((s) => s.at));
    // Both files half-way on disk (at least 1 MiB each), then a kill as a reboot would.
    for (const p of stalled) while (((await sizeOf(partOf(p))) ?? 0) < 1024 * 1024) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await first.done;
    delete hub.faults.stallEach;

    // What the kill left: every file in data/ whole and right; the two stalled ones only partial.
    let expected = 0;
    for (const f of files) {
      const dest = path.join(into, f.path);
      if ((await sizeOf(dest)) !== undefined) {
        assert.equal(await sha256(dest), f.sha256, `${f.path} is in data/ only whole and right`);
        continue;
      }
      const part = (await sizeOf(partOf(f.path))) ?? 0;
      assert.ok(part <= f.size, f.path);
      // A whole partial file is verified and moved; any other is continued, after one probe byte.
      if (part < f.size) expected += f.size - part + 1;
    }
    for (const p of stalled) assert.equal(await sizeOf(path.join(into, p)), undefined, `${p} was not finished`);
    const listed = await fs.readFile(path.join(into, 'metadata', 'default.csv'), 'utf8').catch(() => '');
    for (const id of repo.taskIds.slice(0, 2)) assert.doesNotMatch(listed, new RegExp(id), `${id} misses a file and is not listed`);

    hub.bytesSent.clear();
    const again = await run(into).done;
    assert.equal(again.code, 0, again.err + again.out);
    const fetched = [...hub.bytesSent.values()].reduce((a, b) => a + b, 0);
    assert.equal(fetched, expected, 'exactly the bytes that were not on disk, and one probe byte a file fetched');
    for (const f of files) assert.equal(await sha256(path.join(into, f.path)), f.sha256, f.path);
    const csv = await fs.readFile(path.join(into, 'metadata', 'default.csv'), 'utf8');
    for (const id of repo.taskIds) assert.match(csv, new RegExp(id), `${id} is listed`);
  });
});
