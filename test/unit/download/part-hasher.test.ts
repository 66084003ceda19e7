// The hashing thread of a download: it reads a partial file back as it grows and gives the digest
// of exactly what is on disk. Against the loopback Hub: files fetched at once on one thread, one
// with a corrupted byte (caught, fetched again); Ctrl-C while a finished file is being verified
// (its whole partial file stays, and the next run verifies it without fetching it; a byte changed
// on disk meanwhile is caught).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fetchFile } from '../../../src/core/download/fetch-file';
import { HubClient, type RemoteFile } from '../../../src/core/download/hub-client';
import { HashThread } from '../../../src/core/download/part-hasher';
import { tinyHubRepository } from '../../harness/hub-dataset-fixture';
import { startHubServer, type HubServer } from '../../harness/hub-server';

const IMAGE_BYTES = 2 * 1024 * 1024 + 777;
let tmp: string;
let hub: HubServer;
let client: HubClient;
let remote: RemoteFile[];

const sha = (algorithm: string, ...parts: Array<Buffer | string>) => {
  const h = createHash(algorithm);
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

/** A hash thread whose digest requests are seen (the test acts while one is pending). */
class WatchedThread extends HashThread {
  onAsk?: () => void;
  override ask(file: number, signal?: AbortSignal): ReturnType<HashThread['ask']> {
    const answer = super.ask(file, signal);
    this.onAsk?.();
    return answer;
  }
}

describe('the hashing thread of a download', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-part-hasher-')));
    const repo = await tinyHubRepository(path.join(tmp, 'hub'), IMAGE_BYTES);
    hub = await startHubServer(repo.root, { pageSize: 4 });
    client = new HubClient({ repo: hub.repo, revision: 'main', endpoint: hub.endpoint }, { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
    remote = await client.list('data');
  });
  after(async () => {
    await hub?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test("the digest is of the bytes on disk as the file grows, a git blob's header first; a file shorter than told has none", async () => {
    const thread = new HashThread();
    try {
      const file = path.join(tmp, 'grow.part');
      const a = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
      const b = Buffer.from('the rest');
      await fs.writeFile(file, a);
      const h = thread.hasher();
      h.begin(file, 'sha256');
      h.advance(a.length);
      assert.deepEqual(await h.digest(), { hashed: a.length, hex: sha('sha256', a), error: undefined });
      await fs.appendFile(file, b);
      h.advance(a.length + b.length);
      assert.equal((await h.digest()).hex, sha('sha256', a, b), 'the hash continues where it stopped');

      const blob = thread.hasher();
      blob.begin(file, 'sha1', `blob ${a.length + b.length}\0`);
      blob.advance(a.length + b.length);
      assert.equal((await blob.digest()).hex, sha('sha1', `blob ${a.length + b.length}\0`, a, b));

      h.begin(file, 'sha256');
      h.advance(a.length + b.length + 1);
      const short = await h.digest();
      assert.equal(short.hex, undefined);
      assert.equal(short.hashed, a.length + b.length);
      assert.match(short.error ?? '', /holds \d+ bytes, not \d+/);
      h.end();
      blob.end();
    } finally {
      await thread.close();
    }
  });

  test('files fetched at once on one thread: the one with a corrupted byte is caught and fetched again, the others pass', async () => {
    const thread = new HashThread();
    const bad = remote.find((f) => f.path.endsWith('image.tar.gz'))!;
    hub.faults.corruptOnce = { path: bad.path, offset: IMAGE_BYTES - 100 };
    const mismatched: string[] = [];
    try {
      await Promise.all(
        remote.map((file) =>
          fetchFile({
            client,
            file,
            dest: path.join(tmp, 'batch', file.path),
            partial: path.join(tmp, 'batch-partial', `${file.path}.part`),
            hashThread: thread,
            onMismatch: () => mismatched.push(file.path),
          }),
        ),
      );
    } finally {
      await thread.close();
    }
    assert.deepEqual(mismatched, [bad.path]);
    for (const file of remote) assert.equal(sha('sha256', await fs.readFile(path.join(tmp, 'batch', file.path))), file.sha256, file.path);
  });

  test('Ctrl-C while a finished file is verified: its whole partial file stays; the next run verifies it without fetching, or catches a byte changed on disk', async () => {
    const images = remote.filter((f) => f.path.endsWith('image.tar.gz'));
    const partial = (f: RemoteFile) => path.join(tmp, 'cut-partial', `${f.path}.part`);
    const dest = (f: RemoteFile) => path.join(tmp, 'cut', f.path);
    for (const file of images.slice(0, 2)) {
      const thread = new WatchedThread();
      const stop = new AbortController();
      thread.onAsk = () => stop.abort();
      try {
        await assert.rejects(fetchFile({ client, file, dest: dest(file), partial: partial(file), signal: stop.signal, hashThread: thread }), {
          name: 'AbortError',
        });
      } finally {
        await thread.close();
      }
      assert.equal((await fs.stat(partial(file))).size, file.size, 'every byte stays in the partial file');
      await assert.rejects(fs.stat(dest(file)), { code: 'ENOENT' }, 'nothing unverified is in place');
    }

    const [clean, changed] = images;
    hub.bytesSent.clear();
    const kept = await fetchFile({ client, file: clean, dest: dest(clean), partial: partial(clean) });
    assert.deepEqual(kept, { received: 0, resumedFrom: clean.size });
    assert.equal(hub.bytesSent.get(clean.path) ?? 0, 0, 'nothing fetched again');
    assert.equal(sha('sha256', await fs.readFile(dest(clean))), clean.sha256);
    await assert.rejects(fs.stat(partial(clean)), { code: 'ENOENT' });

    const handle = await fs.open(partial(changed), 'r+');
    await handle.write(Buffer.from([0x55]), 0, 1, 1000);
    await handle.close();
    const mismatched: string[] = [];
    const again = await fetchFile({ client, file: changed, dest: dest(changed), partial: partial(changed), onMismatch: (got) => mismatched.push(got) });
    assert.equal(mismatched.length, 1, 'the changed byte failed the hash');
    assert.equal(again.received, changed.size, 'and the file came again');
    assert.equal(sha('sha256', await fs.readFile(dest(changed))), changed.sha256);
  });
});
