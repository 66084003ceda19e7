// In the real extension host: SWE-CI: Download Dataset… against a Hub of our own on loopback
// (sweci.dataset.endpoint points at it). The chosen tasks land in the folder as a dataset the
// Check Out picker reads; a gated repository is refused until a token is in secret storage;
// a bad setting names itself.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DownloadResult } from '../../src/core/download/download-dataset';
import { readDatasetTasks } from '../../src/core/task/dataset';
import { tinyHubRepository, type TinyHubRepository } from '../harness/hub-dataset-fixture';
import { startHubServer, type HubServer } from '../harness/hub-server';
import { api } from './helpers';

const IMAGE_BYTES = 32 * 1024;

suite('Download Dataset', function () {
  this.timeout(120_000);
  let tmp: string;
  let hub: HubServer;
  let repo: TinyHubRepository;
  const settings = () => vscode.workspace.getConfiguration('sweci');

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-download-'));
    repo = await tinyHubRepository(path.join(tmp, 'hub'), IMAGE_BYTES);
    hub = await startHubServer(repo.root);
    await settings().update('dataset.endpoint', hub.endpoint, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await settings().update('dataset.endpoint', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('dataset.repo', undefined, vscode.ConfigurationTarget.Global);
    await (await api()).clearHubToken();
    await hub?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const download = (args: object) => Promise.resolve(vscode.commands.executeCommand<DownloadResult | undefined>('sweci.downloadDataset', args));

  test('the chosen tasks, without images, become a dataset folder the Check Out picker reads', async () => {
    const into = path.join(tmp, 'two-tasks');
    const chosen = repo.taskIds.slice(1);
    const result = await download({ into, split: 'default', tasks: chosen, images: false });
    assert.ok(result, 'the command returns what it downloaded');
    assert.deepEqual(result.tasks, chosen);
    assert.equal(result.received, 1001 + 1002, 'the two code.zip, no image (the CSV is not counted)');
    const tasks = await readDatasetTasks(into, 'default');
    assert.deepEqual(
      tasks.map((t) => t.id),
      chosen,
      'the folder lists exactly the downloaded tasks',
    );
    for (const id of chosen) assert.ok(!fs.existsSync(path.join(into, 'data', id, 'image.tar.gz')), `${id}: no image fetched`);

    // Again: everything is verified already, nothing is fetched.
    hub.bytesSent.clear();
    const again = await download({ into, split: 'default', tasks: chosen, images: false });
    assert.equal(again?.received, 0);
    assert.equal([...hub.bytesSent.values()].reduce((n, b) => n + b, 0) <= 2, true, 'at most the 1-byte probes');
  });

  test('a gated repository is refused with the way to give a token, and downloads once one is stored', async () => {
    const sweci = await api();
    hub.faults.token = 'hf_itgatedtoken';
    try {
      const into = path.join(tmp, 'gated');
      await assert.rejects(download({ into, tasks: [repo.taskIds[0]], images: false }), /refused access \(401.*Set Hugging Face Token/s);
      const shown = sweci.lastMessages().at(-1);
      assert.equal(shown?.level, 'error');
      assert.match(shown?.text ?? '', /^Download failed: .*refused access/);
      assert.doesNotMatch(shown?.text ?? '', /--token-env/, 'no CLI flag in the editor');

      await sweci.setHubToken('hf_itgatedtoken');
      const result = await download({ into, tasks: [repo.taskIds[0]], images: true });
      assert.deepEqual(result?.tasks, [repo.taskIds[0]]);
      assert.equal(fs.statSync(path.join(into, 'data', repo.taskIds[0], 'image.tar.gz')).size, IMAGE_BYTES);
    } finally {
      delete hub.faults.token;
      await sweci.clearHubToken();
    }
  });

  test('a bad sweci.dataset.repo names the setting, and nothing is written', async () => {
    await settings().update('dataset.repo', 'not a dataset id', vscode.ConfigurationTarget.Global);
    try {
      const into = path.join(tmp, 'bad-setting');
      await assert.rejects(download({ into }), /sweci\.dataset\.repo/);
      assert.ok(!fs.existsSync(into), 'no folder was made');
    } finally {
      await settings().update('dataset.repo', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
