import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { safeUnzip } from '../../../src/core/task/safe-unzip';
import { UserError } from '../../../src/core/util/errors';
import { writeZip, zipFolder, type ZipEntrySpec } from './zip-fixture';
import { listTree } from '../helpers/list-tree';

let tmp: string;
// Layout: <tmp>/sentinel/{keep.txt, work/dest}. Anything escaping dest lands in sentinel or above.
let sentinel: string;
let dest: string;

/**
 * Zips crafted by Python's zipfile, then patched: 'overlap' points three central-directory
 * entries at one 1 MiB stream; 'lying' declares 1000 bytes for an entry of 1 MiB.
 */
function craftZip(file: string, kind: 'overlap' | 'lying'): void {
  const script = [
    'import struct, sys, zipfile',
    'path, kind = sys.argv[1], sys.argv[2]',
    "with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for n in ('a', 'b', 'c'): z.writestr('repo/%s.bin' % n, bytes(1024 * 1024))",
    "data = bytearray(open(path, 'rb').read())",
    "cds = [i for i in range(len(data)) if data[i:i+4] == b'PK\\x01\\x02']",
    "if kind == 'overlap':",
    '    first = struct.unpack_from("<I", data, cds[0] + 42)[0]',
    '    for cd in cds[1:]: struct.pack_into("<I", data, cd + 42, first)',
    'else:',
    '    struct.pack_into("<I", data, 22, 1000)',
    '    struct.pack_into("<I", data, cds[0] + 24, 1000)',
    "open(path, 'wb').write(data)",
  ].join('\n');
  execFileSync(process.env.SWECI_PYTHON ?? 'python3', ['-c', script, file, kind]);
}

async function expectRejected(entries: ZipEntrySpec[], pattern: RegExp): Promise<void> {
  const zip = path.join(tmp, 'hostile.zip');
  writeZip(zip, entries);
  const before = await listTree(tmp);
  await assert.rejects(safeUnzip(zip, dest), (err: unknown) => {
    assert.ok(err instanceof UserError, `expected UserError, got ${String(err)}`);
    assert.match(err.message, pattern);
    assert.match(err.message, /re-download/i);
    return true;
  });
  // dest removed, nothing new anywhere around it, and the sentinel untouched.
  assert.deepEqual(await listTree(tmp), before);
  assert.equal(await fs.readFile(path.join(sentinel, 'keep.txt'), 'utf8'), 'keep');
  await assert.rejects(fs.lstat(dest));
  await assert.rejects(fs.lstat('/tmp/sweci-evil-abs'));
}

describe('safeUnzip', () => {
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-unzip-'));
    sentinel = path.join(tmp, 'sentinel');
    await fs.mkdir(path.join(sentinel, 'work'), { recursive: true });
    await fs.writeFile(path.join(sentinel, 'keep.txt'), 'keep');
    dest = path.join(sentinel, 'work', 'dest');
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('entry names are split into safe segments', async () => {
    const zip = path.join(tmp, 'dots.zip');
    writeZip(zip, [{ name: 'a/./b//c.txt', data: 'c' }]);
    await safeUnzip(zip, dest);
    assert.deepEqual(await listTree(dest, true), ['a/b/c.txt']);
    await fs.rm(dest, { recursive: true });
    for (const name of ['../x', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\..\\..\\x']) {
      await expectRejected([{ name, data: 'x' }], /unsafe entry/);
    }
  });

  test('rejects ../ traversal', async () => {
    await expectRejected(
      [
        { name: 'ok.txt', data: 'ok' },
        { name: '../evil', data: 'x' },
      ],
      /unsafe entry "\.\.\/evil".*"\.\."/,
    );
  });

  test('rejects deep ../ traversal after good entries', async () => {
    await expectRejected(
      [
        { name: 'a/b.txt', data: 'b' },
        { name: 'a/../../../evil', data: 'x' },
      ],
      /climbs out/,
    );
  });

  test('rejects absolute paths', async () => {
    await expectRejected([{ name: '/tmp/sweci-evil-abs', data: 'x' }], /absolute path/);
  });

  test('rejects backslash separators and drive letters', async () => {
    await expectRejected([{ name: '..\\..\\evil', data: 'x' }], /backslash/);
    await expectRejected([{ name: 'C:/evil', data: 'x' }], /drive letter/);
  });

  test('rejects a symlink pointing outside, and the file written through it', async () => {
    await expectRejected(
      [
        { name: 'link', symlink: '../../outside' },
        { name: 'link/evil.txt', data: 'x' },
      ],
      /symbolic link to "\.\.\/\.\.\/outside", outside the destination/,
    );
  });

  test('rejects a symlink to /etc', async () => {
    await expectRejected([{ name: 'etc', symlink: '/etc' }], /symbolic link to "\/etc"/);
  });

  test('refuses writing through an inside symlink', async () => {
    await expectRejected(
      [
        { name: 'real/', dir: true },
        { name: 'alias', symlink: 'real' },
        { name: 'alias/x.txt', data: 'x' },
      ],
      /written through the symbolic link "alias"/,
    );
  });

  test('refuses a link that a later link turns outward', async () => {
    await expectRejected(
      [
        { name: 'x', symlink: 'p/..' },
        { name: 'p', symlink: '.' },
      ],
      /points outside the destination/,
    );
  });

  test('refuses a link chain that escapes through another link', async () => {
    await expectRejected(
      [
        { name: 'd1/d2/up', symlink: '../..' },
        { name: 'x', symlink: 'd1/d2/up/..' },
      ],
      /outside the destination/,
    );
  });

  test('a corrupt zip is reported as not a valid zip', async () => {
    const bad = path.join(tmp, 'bad.zip');
    await fs.writeFile(bad, 'this is not a zip file at all, just text'.repeat(10));
    await assert.rejects(safeUnzip(bad, dest), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /bad\.zip is not a valid zip \(.+\)\. Re-download the task/);
      return true;
    });
    await assert.rejects(fs.lstat(dest));
  });

  test('a truncated zip is reported as not a valid zip and leaves nothing', async () => {
    const zip = path.join(tmp, 'big.zip');
    const entries: ZipEntrySpec[] = [];
    for (let i = 0; i < 50; i++) entries.push({ name: `f${i}.txt`, data: `line ${i}\n`.repeat(200) });
    writeZip(zip, entries);
    const buf = await fs.readFile(zip);
    // Corrupt the middle of the compressed data but keep the central directory.
    for (let i = 200; i < 400; i++) buf[i] = 0xff;
    await fs.writeFile(zip, buf);
    await assert.rejects(safeUnzip(zip, dest), /not a valid zip/);
    await assert.rejects(fs.lstat(dest));
  });

  test('bounds entry count and total size', async () => {
    const zip = path.join(tmp, 'many.zip');
    writeZip(zip, [
      { name: 'a.txt', data: 'a'.repeat(1000) },
      { name: 'b.txt', data: 'b'.repeat(1000) },
      { name: 'c.txt', data: 'c' },
    ]);
    await assert.rejects(safeUnzip(zip, dest, { maxEntries: 2 }), /3 entries, more than the limit of 2/);
    await assert.rejects(safeUnzip(zip, dest, { maxTotalBytes: 1500 }), /more than 1500 bytes/);
    await assert.rejects(fs.lstat(dest));
  });

  test('a zip bomb whose entries share one compressed stream is refused before anything is written', async () => {
    const zip = path.join(tmp, 'overlap.zip');
    craftZip(zip, 'overlap');
    await assert.rejects(safeUnzip(zip, dest), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /entries that share their compressed data \("repo\/a\.bin" and "repo\/(b|c)\.bin"\).*Nothing was extracted.*re-download/);
      return true;
    });
    await assert.rejects(fs.lstat(dest), 'nothing was created');
  });

  test('an entry larger than it declares is named as such, not as a disk problem', async () => {
    const zip = path.join(tmp, 'lying.zip');
    craftZip(zip, 'lying');
    await assert.rejects(safeUnzip(zip, dest), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /is not a valid zip \(too many bytes in the stream/);
      assert.doesNotMatch(err.message, /EBADF|disk space/);
      return true;
    });
    await assert.rejects(fs.lstat(dest));
  });

  test('what the entries declare is checked against the limit before writing', async () => {
    const zip = path.join(tmp, 'declared.zip');
    writeZip(zip, [
      { name: 'a.txt', data: 'a'.repeat(1000) },
      { name: 'b.txt', data: 'b'.repeat(1000) },
    ]);
    await assert.rejects(
      safeUnzip(zip, dest, { maxTotalBytes: 1500 }),
      /expands to 2000 bytes, more than 1500 bytes, the extraction limit\. Nothing was extracted/,
    );
    await assert.rejects(fs.lstat(dest));
  });

  test('a zip that does not fit the disk is refused with both numbers before anything is written (a 2 MB tmpfs)', async (t) => {
    const small = path.join(tmp, 'small');
    await fs.mkdir(small);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', small], { stdio: 'ignore' });
    if (mount.status !== 0) return t.skip('mounting a tmpfs needs root');
    try {
      // 4 MB of one letter: a few kilobytes zipped, twice the filesystem unpacked.
      const repo = path.join(tmp, 'repo');
      await fs.mkdir(repo);
      await fs.writeFile(path.join(repo, 'a.txt'), 'a'.repeat(3_000_000));
      await fs.writeFile(path.join(repo, 'b.txt'), 'b'.repeat(1_000_000));
      const zip = path.join(tmp, 'big.zip');
      zipFolder(repo, zip, 'repo/');
      const into = path.join(small, 'task', 'code');
      const err = await safeUnzip(zip, into).then(
        () => assert.fail('extracted'),
        (e: Error) => e,
      );
      assert.ok(err instanceof UserError);
      const m = /it expands to 4\.0 MB \(4000000 bytes\) and (\S+) has [\d.]+ [kM]?B \((\d+) bytes\) free\. Nothing was extracted\. Free some space there/.exec(
        err.message,
      );
      assert.ok(m, err.message);
      assert.equal(m[1], path.join(small, 'task'));
      assert.ok(Number(m[2]) > 0 && Number(m[2]) < 4_000_000);
      await assert.rejects(fs.lstat(into));
    } finally {
      spawnSync('umount', [small], { stdio: 'ignore' });
    }
  });

  test('refuses an existing destination', async () => {
    const zip = path.join(tmp, 'ok.zip');
    writeZip(zip, [{ name: 'a.txt', data: 'a' }]);
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'mine.txt'), 'mine');
    await assert.rejects(safeUnzip(zip, dest), /already exists/);
    assert.equal(await fs.readFile(path.join(dest, 'mine.txt'), 'utf8'), 'mine');
  });

  test('round trip of a real git repo with nested .git, exec bit and an inside symlink', async () => {
    const repo = path.join(tmp, 'repo');
    await fs.mkdir(path.join(repo, 'src', 'pkg'), { recursive: true });
    await fs.writeFile(path.join(repo, 'src', 'pkg', '__init__.py'), 'X = 1\n');
    await fs.writeFile(path.join(repo, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    await fs.symlink('src/pkg', path.join(repo, 'pkglink'));
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
        encoding: 'utf8',
      }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    const head = git('rev-parse', 'HEAD');

    const zip = path.join(tmp, 'code.zip');
    zipFolder(repo, zip, 'repo/');
    const res = await safeUnzip(zip, dest);
    assert.ok(res.files > 5);
    assert.equal(res.symlinks, 1);
    const out = path.join(dest, 'repo');
    assert.deepEqual(await listTree(out, true), await listTree(repo, true));
    assert.equal(await fs.readlink(path.join(out, 'pkglink')), 'src/pkg');
    assert.ok(((await fs.stat(path.join(out, 'run.sh'))).mode & 0o111) !== 0, 'exec bit kept');
    assert.equal((await fs.stat(path.join(out, 'src/pkg/__init__.py'))).mode & 0o111, 0);
    const gitOut = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: out, encoding: 'utf8' }).trim();
    assert.equal(gitOut, head);
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: out, encoding: 'utf8' }), '');
  });

  test('honours an aborted signal', async () => {
    const zip = path.join(tmp, 'ok.zip');
    writeZip(zip, [{ name: 'a.txt', data: 'a' }]);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(safeUnzip(zip, dest, { signal: ac.signal }), { name: 'AbortError' });
    await assert.rejects(fs.lstat(dest));
  });
});
