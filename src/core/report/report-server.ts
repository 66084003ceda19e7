// An exported report, served read-only on this machine's loopback, for a VS Code that runs in a
// browser (code-server, a remote window): there, the report's folder is on another machine than
// the person's browser, which can neither open its file nor save it. The editor forwards the port
// (asExternalUri) and opens the page or the download. Each shared folder gets a random path of its
// own; only its regular files (in it or its subfolders, never through a link, nothing hidden)
// are served, and all of them as one .zip.
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { ZipFile } from 'yazl';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface SharedReport {
  /** Loopback URLs: the page (its `report.html`) and the folder as one .zip. */
  page: string;
  zip: string;
}

export class ReportServer {
  private readonly folders = new Map<string, string>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(): Promise<ReportServer> {
    const holder: { self?: ReportServer } = {};
    const server = http.createServer((req, res) => void holder.self?.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    // It must not keep a process (the CLI, a test) alive on its own.
    server.unref();
    holder.self = new ReportServer(server, (server.address() as AddressInfo).port);
    return holder.self;
  }

  /** Serves `folder` from now on, at a path nobody can guess; `page` is its `html` file. */
  share(folder: string, html = 'report.html'): SharedReport {
    const token = randomBytes(16).toString('hex');
    this.folders.set(token, path.resolve(folder));
    const base = `http://127.0.0.1:${this.port}/${token}/`;
    return { page: base + encodeURIComponent(html), zip: `${base}${encodeURIComponent(path.basename(folder))}.zip` };
  }

  async close(): Promise<void> {
    this.folders.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    req.resume();
    const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    const fail = (status: number, text: string) => {
      res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'read-only');
      const parts = new URL(req.url ?? '/', 'http://report').pathname.split('/');
      const folder = parts.length >= 3 ? this.folders.get(parts[1]) : undefined;
      if (!folder) return fail(404, 'not found');
      const name = parts.slice(2).map(decodeURIComponent).join('/');
      if (name === '') {
        res.writeHead(302, { ...headers, location: 'report.html' });
        res.end();
        return;
      }
      const files = await regularFiles(folder);
      let body: Buffer;
      let type: string;
      let disposition: string | undefined;
      if (name === `${path.basename(folder)}.zip`) {
        body = await zipOf(folder, files);
        type = 'application/zip';
        disposition = `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
      } else if (files.includes(name)) {
        body = await readFile(path.join(folder, name));
        type = TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
      } else return fail(404, 'not found');
      res.writeHead(200, { ...headers, 'content-type': type, 'content-length': body.length, ...(disposition ? { 'content-disposition': disposition } : {}) });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      if (!res.headersSent) fail(500, 'could not read the report');
      else res.destroy();
    }
  }
}

/** A report is a few files and a folder of transcripts: deeper than this is not one. */
const MAX_DEPTH = 4;

/** The regular files under `folder`, as '/'-separated relative paths (no link followed, nothing hidden). */
async function regularFiles(folder: string, prefix = '', depth = 0): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(path.join(folder, prefix), { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isFile()) out.push(rel);
    else if (e.isDirectory() && depth < MAX_DEPTH) out.push(...(await regularFiles(folder, rel, depth + 1)));
  }
  return out.sort();
}

/** The files as one .zip, by their paths in the folder. */
async function zipOf(folder: string, files: readonly string[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const f of files) zip.addBuffer(await readFile(path.join(folder, f)), f);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file's bytes, never through a link put there after the folder was listed. */
async function readFile(file: string): Promise<Buffer> {
  const handle = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function asciiName(name: string): string {
  return name.replace(/[^\w.-]/g, '_');
}
