// Record files: missing, unreadable, not JSON and the wrong shape are told apart the same way
// for every record; writes are whole and checked; JSON Lines ignore a crash's partial last line.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { DamagedRecordError, jsonRecordFile, parseJsonLines } from '../../../src/core/records/record-file';
import { UserError } from '../../../src/core/util/errors';

const schema = z.object({
  schema: z.literal(1),
  name: z.string().min(1),
  kind: z.enum(['loop', 'human-history']),
  inner: z.object({ count: z.number() }),
  note: z.string().optional(),
});

const good = { schema: 1 as const, name: 'r', kind: 'loop' as const, inner: { count: 2 } };

let tmp: string;

describe('record files', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-records-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const file = jsonRecordFile({ schema, whenDamaged: 'Delete it to start over.' });

  test('a missing file (or a missing folder on its path) reads as undefined', async () => {
    assert.equal(await file.read(path.join(tmp, 'none.json')), undefined);
    await fs.writeFile(path.join(tmp, 'plain'), 'x');
    assert.equal(await file.read(path.join(tmp, 'plain', 'under-a-file.json')), undefined);
  });

  test('written whole, indented, and read back', async () => {
    const f = path.join(tmp, 'deep', 'r.json');
    await file.write(f, good);
    assert.equal(await fs.readFile(f, 'utf8'), JSON.stringify(good, null, 2) + '\n');
    assert.deepEqual(await file.read(f), good);
  });

  test('damage names the file, what is wrong and what to do', async () => {
    const f = path.join(tmp, 'bad.json');
    const expectDamage = async (text: string, why: RegExp) => {
      await fs.writeFile(f, text);
      await assert.rejects(file.read(f), (err: unknown) => {
        assert.ok(err instanceof DamagedRecordError && err instanceof UserError, String(err));
        assert.match(err.message, new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is corrupt \\(`));
        assert.match(err.message, why);
        assert.match(err.message, /\. Delete it to start over\.$/);
        return true;
      });
    };
    await expectDamage('{ "schema": 1, ', /\(not valid JSON\)/);
    await expectDamage('[1, 2]', /\(not a JSON object\)/);
    await expectDamage(JSON.stringify({ schema: 2 }), /\(unknown schema 2\)/);
    await expectDamage(JSON.stringify({ ...good, inner: {} }), /\("inner\.count" is missing\)/);
    await expectDamage(JSON.stringify({ ...good, name: '' }), /\("name" is missing\)/);
    await expectDamage(JSON.stringify({ ...good, inner: { count: 'two' } }), /\("inner\.count" is not a number\)/);
    await expectDamage(JSON.stringify({ ...good, kind: 'other' }), /\("kind" is not one of "loop", "human-history"\)/);
  });

  test("onDamage 'missing': a file that only saves work reads as absent when damaged", async () => {
    const lenient = jsonRecordFile({ schema, whenDamaged: 'It is rebuilt.', onDamage: 'missing' });
    const f = path.join(tmp, 'lenient.json');
    await fs.writeFile(f, '{"schema": 1}');
    assert.equal(await lenient.read(f), undefined);
  });

  test('an unreadable file is an error that says to check its permissions (not "absent")', async (t) => {
    if (process.getuid?.() === 0) {
      // Root reads a mode-000 file; a folder in place of the file is unreadable for everyone.
      const f = path.join(tmp, 'a-folder.json');
      await fs.mkdir(f);
      await assert.rejects(file.read(f), /Cannot read .*a-folder\.json \(.*\)\. Check its permissions\./);
      return;
    }
    t.diagnostic('not root');
  });

  test('a record that fails its own schema is never written, and the old file stays', async () => {
    const f = path.join(tmp, 'kept.json');
    await file.write(f, good);
    await assert.rejects(file.write(f, { ...good, inner: { count: Number.NaN } }), /refusing to write kept\.json: "inner\.count"/);
    assert.deepEqual(await file.read(f), good);
  });

  test('fields the schema does not name are not carried through a read', async () => {
    const f = path.join(tmp, 'extra.json');
    await fs.writeFile(f, JSON.stringify({ ...good, surprise: true }));
    assert.deepEqual(await file.read(f), good);
  });

  test('JSON Lines: whole lines only; a bad line is named by its number', () => {
    const line = JSON.stringify(good);
    assert.deepEqual(parseJsonLines(`${line}\n${line}\n{"sch`, 'x.jsonl', schema, 'Remove it.'), [good, good]);
    assert.deepEqual(parseJsonLines('', 'x.jsonl', schema, 'Remove it.'), []);
    assert.throws(
      () => parseJsonLines(`${line}\n\n{"schema": 1}\n`, 'x.jsonl', schema, 'Remove it.'),
      /^DamagedRecordError: x\.jsonl line 3 is corrupt \("name" is missing\)\. Remove it\.$/,
    );
    assert.throws(() => parseJsonLines(`nope\n`, 'x.jsonl', schema, 'Remove it.'), /x\.jsonl line 1 is corrupt \(not valid JSON\)/);
  });
});
