// The batched writer of a partial file: chunks land in order after what the file held, the caller
// is asked to pause while much waits and to resume after, `written` reports sizes that are on disk,
// and a disk that refuses bytes (/dev/full) or a file that cannot be opened fails the writer with its error.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fs, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BatchedAppend } from '../../../src/core/download/batched-append';

let tmp: string;
/** More than one batch, so a write is attempted before end(). */
const APPEND_CHUNKS = 2 * 1024 * 1024;

describe('the batched writer of a partial file', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-batched-append-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('appends every chunk in order, pauses while much waits, reports only sizes on disk', async () => {
    const file = path.join(tmp, 'a.part');
    const head = randomBytes(1000);
    await fs.writeFile(file, head);
    const chunks = Array.from({ length: 400 }, (_, i) => randomBytes(65536 + (i % 7)));
    const reported: number[] = [];
    let resumed = 0;
    const out = BatchedAppend.open(file, head.length, {
      written: (n) => {
        // Each size reported is on disk already.
        assert.ok(statSync(file).size >= n, `${n} reported, the file holds ${statSync(file).size}`);
        reported.push(n);
      },
      failed: (err) => assert.fail(err),
      resume: () => resumed++,
    });
    // Written all at once without waiting (as a burst from the socket), so the writer fills up.
    let paused = 0;
    for (const c of chunks) if (!out.write(c)) paused++;
    await out.end();
    const want = Buffer.concat([head, ...chunks]);
    assert.ok((await fs.readFile(file)).equals(want), 'the file is what it held, then the chunks in order');
    assert.ok(paused > 0, 'the source was asked to pause');
    assert.ok(resumed > 0, 'and to resume');
    assert.deepEqual(
      reported,
      [...reported].sort((a, b) => a - b),
      'sizes only grow',
    );
    assert.equal(reported.at(-1), want.length, 'the last size reported is the whole file');
    assert.ok(reported.length < chunks.length / 4, `chunks go out in batches (${reported.length} writes for ${chunks.length} chunks)`);
  });

  test('a disk that refuses bytes fails the writer with its error', { skip: process.platform !== 'linux' && 'needs /dev/full' }, async () => {
    const failed: Error[] = [];
    const out = BatchedAppend.open('/dev/full', 0, {
      written: () => assert.fail('nothing is written'),
      failed: (err) => failed.push(err),
      resume: () => undefined,
    });
    for (let i = 0; i < 40; i++) out.write(randomBytes(65536));
    await assert.rejects(out.end(), (err: NodeJS.ErrnoException) => err.code === 'ENOSPC');
    assert.deepEqual(
      failed.map((e) => (e as NodeJS.ErrnoException).code),
      ['ENOSPC'],
      'failed() was told once',
    );
    assert.equal(out.write(randomBytes(10)), false, 'a failed writer takes nothing more');
  });

  test('a file that cannot be opened fails the writer, also with nothing written', async () => {
    const missing = path.join(tmp, 'no-such-folder', 'x.part');
    const failed: Error[] = [];
    const out = BatchedAppend.open(missing, 0, {
      written: () => assert.fail('nothing is written'),
      failed: (err) => failed.push(err),
      resume: () => undefined,
    });
    out.write(randomBytes(APPEND_CHUNKS));
    await assert.rejects(out.end(), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
    assert.equal(failed.length, 1, 'failed() was told');
    const empty = BatchedAppend.open(missing, 0, { written: () => assert.fail('nothing is written'), failed: () => undefined, resume: () => undefined });
    await assert.rejects(empty.end(), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
  });
});
