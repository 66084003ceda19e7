// What the editor's Download Dataset… shows before it fetches anything, read from a Hub of our
// own on loopback: the splits, a split's tasks with each one's repository and file sizes (the
// CSV read into memory, nothing written), and a gated repository refused with the editor's way
// to give a token. The sweci.dataset.* settings go through the CLI's checks and name the setting.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HubAccessError, HubClient, DEFAULT_REPO } from '../../../src/core/download/hub-client';
import { readHubSettings } from '../../../src/core/download/hub-settings';
import { listRemoteSplits, readRemoteSplit } from '../../../src/core/download/remote-split';
import { UserError } from '../../../src/core/util/errors';
import { tinyHubRepository, type TinyHubRepository } from '../../harness/hub-dataset-fixture';
import { startHubServer, type HubServer } from '../../harness/hub-server';

const IMAGE_BYTES = 64 * 1024;
let tmp: string;
let hub: HubServer;
let ds: TinyHubRepository;

const client = (token?: string) =>
  new HubClient({
    repo: hub.repo,
    revision: 'main',
    endpoint: hub.endpoint,
    ...(token ? { token } : {}),
    tokenHelp: 'store it with SWE-CI: Set Hugging Face Token…',
  });

describe('a dataset repository before it is downloaded', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-remote-split-')));
    ds = await tinyHubRepository(path.join(tmp, 'hub'), IMAGE_BYTES);
    // A second split, so the listing has more than one.
    const csv = await fs.readFile(path.join(ds.root, 'metadata', 'default.csv'), 'utf8');
    const [header, first] = csv.split('\n');
    await fs.writeFile(path.join(ds.root, 'metadata', 'mini.csv'), `${header}\n${first}\n`);
    hub = await startHubServer(ds.root, { pageSize: 3 });
  });
  after(async () => {
    await hub?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the splits are the metadata/<split>.csv files, every page of the listing read', async () => {
    assert.deepEqual((await listRemoteSplits(client())).sort(), ['default', 'mini']);
  });

  test("a split's tasks come with their repository and the exact sizes of code.zip and image.tar.gz, and nothing is written", async () => {
    const before = hub.requests.length;
    const steps: string[] = [];
    const split = await readRemoteSplit(client(), 'default', (s) => steps.push(s));
    assert.deepEqual(
      steps,
      ['its task list (metadata/default.csv)', `the sizes of ${ds.taskIds.length} tasks\u2019 files`],
      'what a progress notification shows',
    );
    assert.deepEqual(
      split.tasks.map((t) => t.row.taskId),
      ds.taskIds,
      'the CSV order',
    );
    for (const t of split.tasks) {
      const dir = path.join(ds.root, 'data', t.row.taskId);
      assert.equal(t.codeBytes, (await fs.stat(path.join(dir, 'code.zip'))).size, `${t.row.taskId} code.zip`);
      assert.equal(t.imageBytes, IMAGE_BYTES, `${t.row.taskId} image.tar.gz`);
      assert.equal(t.repo, ds.repos[t.row.taskId], `${t.row.taskId}: the repo_name column`);
    }
    assert.ok(
      hub.requests.slice(before).some((r) => r.includes('metadata/default.csv')),
      'the CSV was read from the Hub',
    );
  });

  test('a task without an image says so (imageBytes undefined)', async () => {
    const id = ds.taskIds[0];
    const image = path.join(ds.root, 'data', id, 'image.tar.gz');
    const kept = await fs.readFile(image);
    await fs.rm(image);
    await hub.rescan();
    try {
      const split = await readRemoteSplit(client(), 'default');
      assert.equal(split.tasks.find((t) => t.row.taskId === id)?.imageBytes, undefined);
      assert.equal(split.tasks.filter((t) => t.imageBytes === IMAGE_BYTES).length, ds.taskIds.length - 1);
    } finally {
      await fs.writeFile(image, kept);
      await hub.rescan();
    }
  });

  test('a gated repository is a HubAccessError that says how the editor takes a token', async () => {
    hub.faults.token = 'hf_right';
    try {
      await assert.rejects(listRemoteSplits(client()), (err: unknown) => {
        assert.ok(err instanceof HubAccessError, `a HubAccessError, not ${String(err)}`);
        assert.match(err.message, /refused access \(401/);
        assert.match(err.message, /store it with SWE-CI: Set Hugging Face Token…/);
        assert.doesNotMatch(err.message, /--token-env/, 'no CLI flag in the editor\u2019s message');
        return true;
      });
      await assert.rejects(readRemoteSplit(client('hf_wrong'), 'default'), /refused access \(403/);
      assert.deepEqual(await listRemoteSplits(client('hf_right')).then((s) => s.sort()), ['default', 'mini']);
    } finally {
      delete hub.faults.token;
    }
  });
});

describe('sweci.dataset.* settings', () => {
  const read = (values: Record<string, unknown>) => (key: string) => values[key];

  test('defaults: the SWE-CI dataset at main on the public Hub; HF_ENDPOINT when the setting is empty', () => {
    assert.deepEqual(readHubSettings(read({}), {}), { repo: DEFAULT_REPO, revision: 'main', endpoint: 'https://huggingface.co' });
    assert.equal(readHubSettings(read({ 'dataset.endpoint': '' }), { HF_ENDPOINT: 'http://mirror.example:8080/' }).endpoint, 'http://mirror.example:8080');
    assert.equal(
      readHubSettings(read({ 'dataset.endpoint': 'https://hf-mirror.example/' }), { HF_ENDPOINT: 'http://mirror.example:8080' }).endpoint,
      'https://hf-mirror.example',
      'the setting wins over HF_ENDPOINT',
    );
  });

  test('a bad repository or endpoint names the setting to fix (not a CLI flag) and points at it', () => {
    for (const [values, key] of [
      [{ 'dataset.repo': 'not a repo' }, 'dataset.repo'],
      [{ 'dataset.endpoint': 'ftp://hub.example' }, 'dataset.endpoint'],
    ] as const) {
      assert.throws(
        () => readHubSettings(read(values), {}),
        (err: unknown) => {
          assert.ok(err instanceof UserError);
          assert.equal(err.setting, key);
          assert.match(err.message, new RegExp(`sweci\\.${key.replace('.', '\\.')}`));
          assert.doesNotMatch(err.message, /--repo|--endpoint/);
          return true;
        },
      );
    }
    assert.throws(() => readHubSettings(read({ 'dataset.repo': 42 }), {}), /sweci\.dataset\.repo must be text/);
  });
});
