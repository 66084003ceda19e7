// The Inspect logs' zip writer, read back by two independent readers: Python's zipfile (Inspect's
// own, which also checks every CRC) and yauzl. Members of every kind (empty, a UTF-8 name, one
// larger than the writer's block, JSON), in order, deflated, with their time; the Zip64 layout too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import * as yauzl from 'yauzl';
import { DeflatedZipWriter } from '../../../src/core/export/inspect-log/deflated-zip';

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-deflated-zip-'));
});
after(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

const MTIME = new Date(2025, 11, 1, 13, 45, 30);

function members(): Array<[string, Buffer]> {
  return [
    ['_journal/start.json', Buffer.from(JSON.stringify({ version: 2, eval: { task: 'swe-ci/x' } }))],
    ['samples/é-ü_epoch_1.json', Buffer.from(JSON.stringify({ input: 'naïve — ✓', n: [1, 2, 3] }))],
    ['empty.json', Buffer.alloc(0)],
    // Incompressible and larger than a block (1 MiB): written across a flush.
    ['samples/big_epoch_1.json', noise(3 * 2 ** 20)],
    ['header.json', Buffer.from('{"status":"success"}'.repeat(5000))],
  ];
}

async function write(file: string, list: Array<[string, Buffer]>, opts?: { forceZip64?: boolean }): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    const zip = new DeflatedZipWriter(handle, MTIME, opts);
    for (const [name, data] of list) await zip.add(name, data);
    await zip.finish();
  } finally {
    await handle.close();
  }
}

interface PyMember {
  name: string;
  compress_type: number;
  date_time: number[];
  sha: string;
}

function readWithPython(file: string): PyMember[] {
  const script = [
    'import hashlib, json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    'print(json.dumps([{"name": i.filename, "compress_type": i.compress_type, "date_time": list(i.date_time),',
    '  "sha": hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()]))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as PyMember[];
}

function readWithYauzl(file: string): Promise<Array<{ name: string; data: Buffer }>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) => {
      if (err) return reject(err);
      const out: Array<{ name: string; data: Buffer }> = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Bytes that do not compress (a hash chain: the same each run). */
function noise(bytes: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i * 32 < bytes; i++) parts.push(createHash('sha256').update(String(i)).digest());
  return Buffer.concat(parts).subarray(0, bytes);
}

for (const forceZip64 of [false, true]) {
  test(`${forceZip64 ? 'the Zip64 layout' : 'a zip'}: both readers get every member, in order, deflated, with its time`, async () => {
    const list = members();
    const file = path.join(tmp, `z${forceZip64 ? 64 : 32}.zip`);
    await write(file, list, { forceZip64 });
    const py = readWithPython(file);
    assert.deepEqual(
      py.map((m) => m.name),
      list.map(([n]) => n),
    );
    for (const [i, m] of py.entries()) {
      assert.equal(m.compress_type, 8, `${m.name} is deflated`);
      assert.deepEqual(m.date_time, [2025, 12, 1, 13, 45, 30]);
      assert.equal(m.sha, sha(list[i][1]), `${m.name}'s bytes`);
    }
    const yz = await readWithYauzl(file);
    assert.deepEqual(
      yz.map((m) => m.name),
      list.map(([n]) => n),
    );
    for (const [i, m] of yz.entries()) assert.ok(m.data.equals(list[i][1]), `${m.name}'s bytes (yauzl)`);
    // The end record, and before it the Zip64 locator only where it is asked for (a small zip has none).
    const bytes = await fs.readFile(file);
    const end = bytes.length - 22;
    assert.equal(bytes.readUInt32LE(end), 0x06054b50);
    assert.equal(bytes.readUInt16LE(end + 10), forceZip64 ? 0xffff : list.length);
    assert.equal(bytes.readUInt32LE(end - 20) === 0x07064b50, forceZip64);
  });
}

test('a zip of no member is an empty zip both readers open', async () => {
  const file = path.join(tmp, 'empty.zip');
  await write(file, []);
  assert.deepEqual(readWithPython(file), []);
  assert.deepEqual(await readWithYauzl(file), []);
});
