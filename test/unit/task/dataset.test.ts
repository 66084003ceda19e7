import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listSplits, readDatasetTasks } from '../../../src/core/task/dataset';
import { UserError } from '../../../src/core/util/errors';

let tmp: string;

async function makeDataset(name: string, csvs: Record<string, string>, zips: string[], images: string[] = []): Promise<string> {
  const dir = path.join(tmp, name);
  await fs.mkdir(path.join(dir, 'metadata'), { recursive: true });
  for (const [split, text] of Object.entries(csvs)) await fs.writeFile(path.join(dir, 'metadata', `${split}.csv`), text);
  for (const id of zips) {
    await fs.mkdir(path.join(dir, 'data', id), { recursive: true });
    await fs.writeFile(path.join(dir, 'data', id, 'code.zip'), 'zip');
  }
  for (const id of images) await fs.writeFile(path.join(dir, 'data', id, 'image.tar.gz'), 'img');
  return dir;
}

describe('dataset', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-dataset-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('lists splits and reads tasks with repo, dates, gap, image and the raw row', async () => {
    const dir = await makeDataset(
      'ok',
      {
        default:
          'task_id,repo,current_sha,target_sha,current_date,target_date,test_gap,extra\n' +
          'o__r-1,owner/r,aaaaaaa,bbbbbbb,2024-01-01,2024-02-01,7,e1\n' +
          'o__r-2,,ccccccc,ddddddd,,,,\n',
        lite: 'task_id,repo_name,current_sha,target_sha\no__r-1,other/name,aaaaaaa,bbbbbbb\n',
      },
      ['o__r-1', 'o__r-2'],
      ['o__r-1'],
    );
    assert.deepEqual(await listSplits(dir), ['default', 'lite']);
    const tasks = await readDatasetTasks(dir, 'default');
    assert.equal(tasks.length, 2);
    const [t1, t2] = tasks;
    assert.equal(t1.id, 'o__r-1');
    assert.equal(t1.repo, 'owner/r');
    assert.equal(t1.baseSha, 'aaaaaaa');
    assert.equal(t1.targetSha, 'bbbbbbb');
    assert.equal(t1.baseDate, '2024-01-01');
    assert.equal(t1.targetDate, '2024-02-01');
    assert.equal(t1.expectedGap, 7);
    assert.equal(t1.source.kind, 'dataset');
    if (t1.source.kind !== 'dataset') return;
    assert.equal(t1.source.zipPath, path.join(dir, 'data', 'o__r-1', 'code.zip'));
    assert.equal(t1.source.imagePath, path.join(dir, 'data', 'o__r-1', 'image.tar.gz'));
    assert.equal(t1.source.row.extra, 'e1');
    assert.equal(t1.source.split, 'default');
    assert.equal(t2.repo, undefined);
    assert.equal(t2.expectedGap, undefined);
    assert.ok(t2.source.kind === 'dataset' && t2.source.imagePath === undefined);
    const lite = await readDatasetTasks(dir, 'lite');
    assert.equal(lite[0].repo, 'other/name');
  });

  test('a folder that is not a dataset', async () => {
    const plain = path.join(tmp, 'plain');
    await fs.mkdir(plain);
    await assert.rejects(listSplits(plain), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /is not a SWE-CI dataset: it has no metadata\/ folder\. Choose the folder/);
      return true;
    });
    await fs.mkdir(path.join(plain, 'metadata'));
    await fs.writeFile(path.join(plain, 'metadata', 'readme.txt'), 'x');
    await assert.rejects(readDatasetTasks(plain, 'default'), /metadata\/ holds no \.csv file/);
    await assert.rejects(listSplits(path.join(tmp, 'missing')), /not a SWE-CI dataset/);
  });

  test('unknown split lists the available ones', async () => {
    const dir = await makeDataset('split', { default: 'task_id,current_sha,target_sha\n' }, []);
    await assert.rejects(readDatasetTasks(dir, 'full'), /no split "full"\. Available: default/);
  });

  test('missing code.zip names the task and line', async () => {
    const dir = await makeDataset('nozip', { default: 'task_id,current_sha,target_sha\nhas,aaaaaaa,bbbbbbb\nlacks,aaaaaaa,bbbbbbb\n' }, ['has']);
    await assert.rejects(readDatasetTasks(dir, 'default'), /code\.zip is missing for 1 task of split "default": lacks \(line 3\)/);
  });

  test('unsafe and duplicate task ids', async () => {
    for (const bad of ['../up', 'a/b', '..', 'a\\b']) {
      const dir = await makeDataset(`bad${Math.random().toString(36).slice(2)}`, { default: `task_id,current_sha,target_sha\n"${bad}",aaaaaaa,bbbbbbb\n` }, []);
      await assert.rejects(readDatasetTasks(dir, 'default'), /line 2: task_id ".*" cannot be used as a folder name/);
    }
    const dir = await makeDataset('dup', { default: 'task_id,current_sha,target_sha\nx,aaaaaaa,bbbbbbb\nx,aaaaaaa,bbbbbbb\n' }, ['x']);
    await assert.rejects(readDatasetTasks(dir, 'default'), /line 3: task_id "x" already appears on line 2/);
  });

  test('CSV errors name the metadata file', async () => {
    const dir = await makeDataset('badcsv', { default: 'task_id,current_sha,target_sha\nx,nothex!,bbbbbbb\n' }, ['x']);
    await assert.rejects(readDatasetTasks(dir, 'default'), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.ok(err.message.includes(path.join(dir, 'metadata', 'default.csv') + ' line 2'));
      return true;
    });
  });
});
