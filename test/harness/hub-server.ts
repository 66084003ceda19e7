// A Hugging Face Hub of our own on loopback, for the downloader's tests and bench: it answers the
// endpoints @huggingface/hub calls (the tree listing with LFS entries, paged with a Link header;
// resolve, redirected for LFS files to a "CDN" on another port, with ranges) for a folder on disk
// that stands for one dataset repository at revision main. It counts the bytes it sends and can
// misbehave on request: answer 429 once, drop a connection or stall mid-file (one file or several), demand a token,
// flip a byte.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export interface HubFile {
  path: string;
  size: number;
  sha256: string;
  gitOid: string;
  lfs: boolean;
}

export interface HubFaults {
  /** Answer the next request for a path containing this text with 429 (Retry-After: 0). */
  tooManyOnce?: string;
  /** Close the connection after this many body bytes of the file, once. */
  dropAfter?: { path: string; bytes: number };
  /** Send this many body bytes of the file, then nothing (the test kills the client), once. */
  stallAfter?: { path: string; bytes: number; onStall: () => void };
  /** The same for several files at once (each stalls once; the test kills the client). */
  stallEach?: Array<{ path: string; bytes: number; onStall: () => void }>;
  /** Flip the byte at this offset of the file, once. */
  corruptOnce?: { path: string; offset: number };
  /** Every request needs `Authorization: Bearer <token>`: 401 without one, 403 with another (GatedRepo). */
  token?: string;
}

export interface HubServer {
  endpoint: string;
  repo: string;
  files: () => HubFile[];
  faults: HubFaults;
  /** Body bytes of resolved files sent, by repository path (the 1-byte probes included). */
  bytesSent: Map<string, number>;
  /** Requests seen, as "METHOD path?query" with a Range if any. */
  requests: string[];
  /** Reads the folder again (after a test changed a file). */
  rescan(): Promise<void>;
  close(): Promise<void>;
}

const LFS = /\.(zip|gz|tar|bin)$/;

async function scan(root: string): Promise<Map<string, HubFile>> {
  const out = new Map<string, HubFile>();
  const walk = async (rel: string) => {
    for (const e of await fs.readdir(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile()) {
        const abs = path.join(root, r);
        const sha256 = createHash('sha256');
        const size = (await fs.stat(abs)).size;
        const sha1 = createHash('sha1').update(`blob ${size}\0`);
        for await (const chunk of createReadStream(abs)) {
          sha256.update(chunk as Buffer);
          sha1.update(chunk as Buffer);
        }
        out.set(r, { path: r, size, sha256: sha256.digest('hex'), gitOid: sha1.digest('hex'), lfs: LFS.test(r) });
      }
    }
  };
  await walk('');
  return out;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Serves `root` as dataset `repo` (owner/name) at revision main, with tree pages of `pageSize` entries. */
export async function startHubServer(root: string, options: { repo?: string; pageSize?: number } = {}): Promise<HubServer> {
  const repo = options.repo ?? 'skylenage-ai/SWE-CI';
  const pageSize = options.pageSize ?? 4;
  let files = await scan(root);
  const faults: HubFaults = {};
  const bytesSent = new Map<string, number>();
  const requests: string[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const sendError = (res: http.ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'X-Error-Code': code });
    res.end(JSON.stringify({ error: message }));
  };

  const authorized = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (!faults.token) return true;
    const auth = req.headers.authorization;
    if (auth === `Bearer ${faults.token}`) return true;
    sendError(
      res,
      auth ? 403 : 401,
      'GatedRepo',
      `Access to dataset ${repo} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
    );
    return false;
  };

  /** The body of `file` from `start` to `end` (inclusive), with the faults that apply to it. */
  const sendBody = (res: http.ServerResponse, file: HubFile, start: number, end: number) => {
    const count = (n: number) => bytesSent.set(file.path, (bytesSent.get(file.path) ?? 0) + n);
    const drop = faults.dropAfter?.path === file.path && end - start + 1 > faults.dropAfter.bytes ? faults.dropAfter : undefined;
    const stallAt = faults.stallEach?.findIndex((s) => s.path === file.path && end - start + 1 > s.bytes) ?? -1;
    const stall =
      faults.stallAfter?.path === file.path && end - start + 1 > faults.stallAfter.bytes
        ? faults.stallAfter
        : stallAt >= 0
          ? faults.stallEach!.splice(stallAt, 1)[0]
          : undefined;
    const corrupt =
      faults.corruptOnce?.path === file.path && faults.corruptOnce.offset >= start && faults.corruptOnce.offset <= end ? faults.corruptOnce : undefined;
    if (drop) delete faults.dropAfter;
    if (stall && stall === faults.stallAfter) delete faults.stallAfter;
    if (corrupt) delete faults.corruptOnce;
    const limit = drop?.bytes ?? stall?.bytes;
    let pos = start;
    let sent = 0;
    const stream = createReadStream(path.join(root, file.path), { start, end });
    stream.on('data', (buf) => {
      let chunk = buf as Buffer;
      if (corrupt && corrupt.offset >= pos && corrupt.offset < pos + chunk.length) {
        chunk = Buffer.from(chunk);
        chunk[corrupt.offset - pos] ^= 0xff;
      }
      pos += chunk.length;
      if (limit !== undefined && sent + chunk.length >= limit) {
        const head = chunk.subarray(0, limit - sent);
        sent += head.length;
        count(head.length);
        stream.destroy();
        res.write(head, () => {
          if (drop) res.socket?.destroy();
          else stall?.onStall();
        });
        return;
      }
      sent += chunk.length;
      count(chunk.length);
      if (!res.write(chunk)) {
        stream.pause();
        res.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => res.end());
  };

  const serveFile = (req: http.IncomingMessage, res: http.ServerResponse, file: HubFile, headers: Record<string, string>) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] === '' ? file.size - 1 : Math.min(Number(range[2]), file.size - 1);
      if (start >= file.size || start > end) {
        res.writeHead(416, { 'Content-Range': `bytes */${file.size}` });
        return void res.end();
      }
      res.writeHead(206, {
        ...headers,
        'Content-Length': String(end - start + 1),
        'Content-Range': `bytes ${start}-${end}/${file.size}`,
        'Accept-Ranges': 'bytes',
      });
      return sendBody(res, file, start, end);
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(file.size), 'Accept-Ranges': 'bytes' });
    if (file.size === 0) return void res.end();
    sendBody(res, file, 0, file.size - 1);
  };

  // The CDN: LFS objects by sha256, on another origin (so the token must not follow the redirect).
  const cdn = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`CDN ${req.method} ${url.pathname}${req.headers.range ? ` ${req.headers.range}` : ''}${req.headers.authorization ? ' (with token)' : ''}`);
    // Several paths can hold the same object (the demo tasks share one code.zip); the query names
    // the one resolved, as a real CDN link names its file, so bytes and faults count per path.
    const file = files.get(url.searchParams.get('path') ?? '');
    if (file && url.pathname !== `/lfs/${file.sha256}`) return sendError(res, 404, 'EntryNotFound', 'no such object');
    if (!file) return sendError(res, 404, 'EntryNotFound', 'no such object');
    serveFile(req, res, file, { ETag: `"${file.sha256}"`, 'Content-Type': 'application/octet-stream' });
  });
  const cdnBase = await listen(cdn);

  const hub = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}${req.headers.range ? ` ${req.headers.range}` : ''}`);
    if (faults.tooManyOnce && url.pathname.includes(faults.tooManyOnce)) {
      delete faults.tooManyOnce;
      res.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/json' });
      return void res.end(JSON.stringify({ error: 'rate limited' }));
    }
    const tree = /^\/api\/datasets\/([^/]+\/[^/]+)\/tree\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
    const resolve = /^\/datasets\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    const match = tree ?? resolve;
    if (!match) return sendError(res, 404, 'NotFound', 'not found');
    if (decodeURIComponent(match[1]) !== repo) return sendError(res, 401, 'RepoNotFound', 'Repository not found');
    if (!authorized(req, res)) return;
    if (decodeURIComponent(match[2]) !== 'main') return sendError(res, 404, 'RevisionNotFound', `Invalid rev id: ${match[2]}`);
    if (tree) {
      const dir = decodeURIComponent(tree[3] ?? '').replace(/\/$/, '');
      const recursive = url.searchParams.get('recursive') === 'true';
      const under = [...files.values()].filter((f) => dir === '' || f.path.startsWith(`${dir}/`));
      if (under.length === 0) return sendError(res, 404, 'EntryNotFound', `${dir} does not exist on "main"`);
      const entries = new Map<string, object>();
      for (const f of under) {
        const rest = dir === '' ? f.path : f.path.slice(dir.length + 1);
        const parts = rest.split('/');
        const depth = recursive ? parts.length : 1;
        for (let i = 1; i < Math.min(depth, parts.length); i++) {
          const d = [dir, ...parts.slice(0, i)].filter(Boolean).join('/');
          entries.set(d, { type: 'directory', oid: createHash('sha1').update(d).digest('hex'), size: 0, path: d });
        }
        if (parts.length <= depth) {
          entries.set(f.path, {
            type: 'file',
            oid: f.lfs ? createHash('sha1').update(`pointer ${f.sha256}`).digest('hex') : f.gitOid,
            size: f.size,
            path: f.path,
            ...(f.lfs ? { lfs: { oid: f.sha256, size: f.size, pointerSize: 134 } } : {}),
          });
        }
      }
      const all = [...entries.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, e]) => e);
      const cursor = Number(url.searchParams.get('cursor') ?? '0');
      const page = all.slice(cursor, cursor + pageSize);
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (cursor + pageSize < all.length) {
        const next = new URL(`${hubBase}${url.pathname}${url.search}`);
        next.searchParams.set('cursor', String(cursor + pageSize));
        headers.Link = `<${next.href}>; rel="next"`;
      }
      res.writeHead(200, headers);
      return void res.end(JSON.stringify(page));
    }
    const file = files.get(decodeURIComponent(resolve![3]));
    if (!file) return sendError(res, 404, 'EntryNotFound', 'Entry not found');
    if (file.lfs) {
      res.writeHead(302, {
        Location: `${cdnBase}/lfs/${file.sha256}?path=${encodeURIComponent(file.path)}`,
        'X-Linked-ETag': `"${file.sha256}"`,
        'X-Linked-Size': String(file.size),
        'X-Repo-Commit': '0123456789abcdef0123456789abcdef01234567',
      });
      return void res.end();
    }
    serveFile(req, res, file, { ETag: `"${file.gitOid}"`, 'Content-Type': 'text/plain; charset=utf-8' });
  });
  for (const s of [hub, cdn]) s.on('connection', (sock) => (sockets.add(sock), sock.on('close', () => sockets.delete(sock))));
  const hubBase = await listen(hub);

  return {
    endpoint: hubBase,
    repo,
    files: () => [...files.values()],
    faults,
    bytesSent,
    requests,
    rescan: async () => {
      files = await scan(root);
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([hub, cdn].map((s) => new Promise((r) => s.close(r))));
    },
  };
}
