// iteration.jsonl: whole lines only; a crash's partial last line is ignored, then cut off by the next append.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appendIterationRecord, readIterationRecords, type IterationRecord } from '../../../src/core/loop/iteration-record';
import { UserError } from '../../../src/core/util/errors';

let tmp: string;
let written = 0;

/** The line appendIterationRecord writes for `record`, newline included. */
async function formatIterationLine(record: IterationRecord): Promise<string> {
  const file = path.join(tmp, 'lines', `${written++}.jsonl`);
  await appendIterationRecord(file, record);
  return fs.readFile(file, 'utf8');
}

/** The records of iteration.jsonl text, read back from a file of that name. */
async function parseIterationLines(text: string, name: string): Promise<IterationRecord[]> {
  const file = path.join(tmp, 'parsed', `${written++}`, name);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return readIterationRecords(file);
}

const line = (iteration: number, gap: number): IterationRecord => ({
  gap,
  pytest: gap < 0 ? {} : { passed: 10 - gap, failed: gap, total: 10, collected: 10 },
  iteration,
  run: 'r',
  started_at: '2024-01-01T00:00:00.000Z',
  finished_at: '2024-01-01T00:00:01.000Z',
  commit: 'c'.repeat(40),
  passed: gap < 0 ? null : 10 - gap,
  target_passed: 10,
  regressions: [],
  tampered: [],
  outside_changes: [],
});

describe('iteration.jsonl', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-iter-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('appends whole lines and reads them back; a missing file is no lines', async () => {
    const file = path.join(tmp, 'a', 'iteration.jsonl');
    assert.deepEqual(await readIterationRecords(file), []);
    await appendIterationRecord(file, line(0, 5));
    await appendIterationRecord(file, line(1, -1));
    const text = await fs.readFile(file, 'utf8');
    assert.equal(text, (await formatIterationLine(line(0, 5))) + (await formatIterationLine(line(1, -1))));
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(await readIterationRecords(file), [line(0, 5), line(1, -1)]);
  });

  test('the reference fields come first: gap, pytest, then ours', async () => {
    const keys = Object.keys(JSON.parse(await formatIterationLine(line(0, 1))) as object);
    assert.deepEqual(keys.slice(0, 2), ['gap', 'pytest']);
  });

  test('a partial last line (a crash mid-write) is ignored, and cut off by the next append', async () => {
    const file = path.join(tmp, 'partial.jsonl');
    await fs.writeFile(file, (await formatIterationLine(line(0, 5))) + '{"gap": 3, "pyt');
    assert.deepEqual(await readIterationRecords(file), [line(0, 5)]);
    await appendIterationRecord(file, line(1, 3));
    assert.deepEqual(await readIterationRecords(file), [line(0, 5), line(1, 3)]);
    assert.equal(await fs.readFile(file, 'utf8'), (await formatIterationLine(line(0, 5))) + (await formatIterationLine(line(1, 3))));
    // A file holding only a partial line.
    const only = path.join(tmp, 'only.jsonl');
    await fs.writeFile(only, '{"gap"');
    assert.deepEqual(await readIterationRecords(only), []);
    await appendIterationRecord(only, line(0, 2));
    assert.deepEqual(await readIterationRecords(only), [line(0, 2)]);
  });

  test('a corrupt complete line is a UserError naming the line', async () => {
    const text = (await formatIterationLine(line(0, 5))) + 'not json\n';
    await assert.rejects(
      () => parseIterationLines(text, 'x.jsonl'),
      (e: unknown) => e instanceof UserError && /x\.jsonl line 2 is corrupt/.test(e.message),
    );
    await assert.rejects(() => parseIterationLines('{"pytest": {}}\n', 'y'), /"gap" is missing/);
  });

  test('concurrent appends never interleave within a line', async () => {
    const file = path.join(tmp, 'many.jsonl');
    await Promise.all(Array.from({ length: 30 }, (_, i) => appendIterationRecord(file, line(i, i % 7))));
    const records = await readIterationRecords(file);
    assert.equal(records.length, 30);
    assert.deepEqual(
      records.map((r) => r.iteration).sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, i) => i),
    );
  });
});
