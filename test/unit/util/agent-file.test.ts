// Reading files an agent wrote: sized, never through a link, whatever the limit.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { readAgentFile } from '../../../src/core/util/agent-file';

describe('readAgentFile', () => {
  test('a file up to the limit is read whole, one byte over is too large, a link or a folder is not read', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-agent-file-'));
    try {
      const f = path.join(root, 'f');
      await fs.writeFile(f, 'x'.repeat(100));
      assert.deepEqual(await readAgentFile(f, 100), { kind: 'ok', data: Buffer.from('x'.repeat(100)) });
      assert.deepEqual(await readAgentFile(f, 99), { kind: 'too-large', size: 100 });
      // A large limit (a report's 256 MiB) still reads a small file exactly.
      assert.equal((await readAgentFile(f, 256 * 2 ** 20)).kind, 'ok');
      await fs.writeFile(path.join(root, 'empty'), '');
      assert.deepEqual(await readAgentFile(path.join(root, 'empty'), 10), { kind: 'ok', data: Buffer.alloc(0) });
      await fs.symlink(f, path.join(root, 'link'));
      assert.deepEqual(await readAgentFile(path.join(root, 'link'), 1000), { kind: 'not-a-file' });
      assert.deepEqual(await readAgentFile(root, 1000), { kind: 'not-a-file' });
      assert.deepEqual(await readAgentFile(path.join(root, 'missing'), 1000), { kind: 'missing' });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  test('a file that grows while it is read is caught at the limit', async () => {
    // A file with more bytes than its stat says: procfs reports size 0. The buffer, sized from the
    // stat, has to grow, and still stops one byte past the limit.
    const status = '/proc/self/status';
    const read = await readAgentFile(status, 10);
    assert.equal(read.kind, 'too-large', 'procfs says 0 bytes, yet the read stops past the limit');
    const whole = await readAgentFile(status, 1 << 20);
    assert.equal(whole.kind, 'ok');
    if (whole.kind === 'ok') assert.match(whole.data.toString('utf8'), /^Name:/);
  });
});
