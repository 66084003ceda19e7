// cl-results.json: what its entries hold is recorded, checked, and read back the same way.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { clResultsFile, emptyClResults, readClResults, writeClResults } from '../../../src/core/sequence/cl-results';

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-clresults-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('a new matrix holds success rates; one written before the field existed reads as resolved', async () => {
  const dir = path.join(tmp, 'new');
  await writeClResults(dir, { ...emptyClResults('s', ['a', 'b'], false), matrix: [[0.5, null], null] });
  assert.equal((await readClResults(dir))?.cells, 'fraction');
  assert.deepEqual((await readClResults(dir))?.matrix, [[0.5, null], null]);

  const old = path.join(tmp, 'old');
  await fs.mkdir(old);
  await fs.writeFile(clResultsFile(old), JSON.stringify({ schema: 1, sequence: 's', tasks: ['a'], memory: true, matrix: [[1]], runs: [null] }));
  assert.equal((await readClResults(old))?.cells, 'resolved');
});

test('a resolved matrix holding anything but 0, 1 or null, and a rate outside 0..1, are refused with what to do', async () => {
  const dir = path.join(tmp, 'bad');
  await fs.mkdir(dir);
  const write = (cells: string, value: number) =>
    fs.writeFile(clResultsFile(dir), JSON.stringify({ schema: 1, sequence: 's', tasks: ['a'], memory: false, cells, matrix: [[value]], runs: [null] }));
  await write('resolved', 0.5);
  await assert.rejects(readClResults(dir), /cl-results\.json is corrupt \(holds resolved cells other than 0, 1 or null\)\. Move it away/);
  await write('fraction', 1.5);
  await assert.rejects(readClResults(dir), /cl-results\.json is corrupt \("matrix\.0\.0"/);
  await write('fraction', 0.25);
  assert.deepEqual((await readClResults(dir))?.matrix, [[0.25]]);
});
