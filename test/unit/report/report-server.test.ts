// Open in Browser and Download where VS Code runs in a browser: an exported report served
// read-only on loopback, at a path of its own. The page and its files are served as they are on
// disk; the folder comes as a .zip that Python's zipfile reads back byte for byte; nothing else
// is served (other paths, links, hidden files, writes), and nothing once it is closed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ReportServer } from '../../../src/core/report/report-server';

const posix = process.platform !== 'win32';

let tmp: string;
let folder: string;
let server: ReportServer;
const files: Record<string, string> = {
  'report.html': '<!doctype html><title>SWE-CI report · démo</title><p>chart</p>\n',
  'metrics.csv': 'run,kind\nr,agent\n',
  'metrics.json': '{"runs": []}\n',
  // Each try's transcript page, in a folder per run.
  'transcripts/agent-1/1-architect-1.html': '<!doctype html><title>transcript</title>\n',
};

describe('the report server (Open in Browser, Download)', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-report-server-')));
    folder = path.join(tmp, 'export-2026-01-02T03-04-05-678');
    await fs.mkdir(folder);
    for (const [name, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await fs.writeFile(path.join(folder, name), text);
    }
    await fs.writeFile(path.join(tmp, 'secret.txt'), 'not the report\n');
    await fs.writeFile(path.join(folder, '.hidden'), 'hidden\n');
    if (posix) {
      await fs.symlink(path.join(tmp, 'secret.txt'), path.join(folder, 'link.txt'));
      await fs.mkdir(path.join(tmp, 'elsewhere'));
      await fs.writeFile(path.join(tmp, 'elsewhere', 'secret.html'), 'not the report either\n');
      await fs.symlink(path.join(tmp, 'elsewhere'), path.join(folder, 'transcripts', 'linked'));
    }
    server = await ReportServer.start();
  });
  after(async () => {
    await server.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the page and its files, as they are on disk, at a loopback path of their own', async () => {
    const shared = server.share(folder);
    assert.match(shared.page, new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/[0-9a-f]{32}/report\\.html$`));
    const page = await fetch(shared.page);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await page.text(), files['report.html']);
    const csv = await fetch(new URL('metrics.csv', shared.page));
    assert.equal(await csv.text(), files['metrics.csv']);
    // The report's links to its transcript pages work.
    const transcript = await fetch(new URL('transcripts/agent-1/1-architect-1.html', shared.page));
    assert.equal(transcript.status, 200);
    assert.equal(await transcript.text(), files['transcripts/agent-1/1-architect-1.html']);
    // The folder's own address leads to the page.
    const root = await fetch(new URL('./', shared.page), { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), 'report.html');
    // Another share of the same folder has a path of its own.
    assert.notEqual(server.share(folder).page, shared.page);
  });

  test('Download: the folder as one .zip, an attachment, that zipfile reads back byte for byte', async () => {
    const shared = server.share(folder);
    assert.ok(shared.zip.endsWith('/export-2026-01-02T03-04-05-678.zip'), shared.zip);
    const res = await fetch(shared.zip);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="export-2026-01-02T03-04-05-678\.zip"/);
    const zip = path.join(tmp, 'download.zip');
    await fs.writeFile(zip, Buffer.from(await res.arrayBuffer()));
    const read = spawnSync(
      'python3',
      [
        '-c',
        'import json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({n: z.read(n).decode("utf-8") for n in z.namelist()}))',
        zip,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(read.status, 0, read.stderr);
    // The report's files (its transcript pages too), and no link, hidden file or anything outside the folder.
    assert.deepEqual(JSON.parse(read.stdout), files);
  });

  test('nothing else: other paths, links, hidden files, writes', async () => {
    const shared = server.share(folder);
    const base = shared.page.replace(/report\.html$/, '');
    const status = async (url: string, init?: RequestInit) => (await fetch(url, init)).status;
    assert.equal(await status(`${base}..%2Fsecret.txt`), 404);
    assert.equal(await status(`${base}%2E%2E/secret.txt`), 404);
    assert.equal(await status(`${base}.hidden`), 404);
    if (posix) assert.equal(await status(`${base}link.txt`), 404, 'a link is not followed');
    if (posix) assert.equal(await status(`${base}transcripts/linked/secret.html`), 404, 'nor a linked folder');
    assert.equal(await status(`${base}transcripts/agent-1/..%2F..%2F..%2Fsecret.txt`), 404);
    assert.equal(await status(`http://127.0.0.1:${server.port}/${'0'.repeat(32)}/report.html`), 404, 'an unknown path');
    assert.equal(await status(`http://127.0.0.1:${server.port}/report.html`), 404);
    assert.equal(await status(shared.page, { method: 'POST', body: 'x' }), 405);
    assert.equal(await status(shared.page, { method: 'HEAD' }), 200);
  });

  test('closed, it serves nothing', async () => {
    const other = await ReportServer.start();
    const shared = other.share(folder);
    assert.equal((await fetch(shared.page)).status, 200);
    await other.close();
    await assert.rejects(fetch(shared.page), /fetch failed/);
  });
});
