// Inspect's log viewer as published on npm (@metrevals/inspect-log-viewer: React components and
// its client API) mounted in a small page, the way its README shows: its static-HTTP API over a
// folder of logs (it reads the folder's listing.json, then each .eval by HTTP range requests, as
// from any web server), bundled by esbuild. The page and the logs are served from this machine's
// loopback by a server that answers ranges, as a static host does.
import { build } from 'esbuild';
import { createReadStream, existsSync, promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { repoRoot } from '../harness/code-server';

const PAGE_SOURCE = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App, clientApi, initializeStore, simpleHttpApi } from '@metrevals/inspect-log-viewer';
import '@metrevals/inspect-log-viewer/styles/index.css';

const api = clientApi(simpleHttpApi('logs'));
initializeStore(api, { downloadFiles: false, webWorkers: false, streamSamples: false, streamSampleData: false, nativeFind: false }, undefined);
createRoot(document.getElementById('root')).render(createElement(App, { api }));
`;

const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Inspect View</title><link rel="stylesheet" href="page.css"></head>
<body><div id="root"></div><script type="module" src="page.js"></script></body></html>
`;

/** The folder of `name` as the viewer resolves it: its own copy where npm nested one (it wants React 19, the project has 18), else the project's. */
function viewerDependency(name: string): string {
  const modules = path.join(repoRoot(), 'node_modules');
  const nested = path.join(modules, '@metrevals', 'inspect-log-viewer', 'node_modules', name);
  return existsSync(nested) ? nested : path.join(modules, name);
}

/** Builds the page into `dir` (index.html, page.js, page.css and the fonts), with one React: the viewer's (two copies break its hooks). */
export async function buildViewerPage(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const entry = path.join(dir, 'entry.js');
  await fs.writeFile(entry, PAGE_SOURCE);
  await build({
    entryPoints: { page: entry },
    bundle: true,
    format: 'esm',
    outdir: dir,
    nodePaths: [path.join(repoRoot(), 'node_modules')],
    alias: { react: viewerDependency('react'), 'react-dom': viewerDependency('react-dom') },
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file', '.png': 'file', '.gif': 'file' },
    logLevel: 'error',
  });
  await fs.writeFile(path.join(dir, 'index.html'), INDEX_HTML);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

export interface StaticServer {
  origin: string;
  /** Every path asked for, with the status answered. */
  requests: Array<{ path: string; status: number }>;
  close(): Promise<void>;
}

/** Serves `pageDir` at / and `logsDir` at /logs/, with HEAD and byte ranges. */
export async function serveViewer(pageDir: string, logsDir: string): Promise<StaticServer> {
  const requests: StaticServer['requests'] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const rel = decodeURIComponent(url.pathname);
      const [root, sub] = rel.startsWith('/logs/') ? [logsDir, rel.slice('/logs/'.length)] : [pageDir, rel === '/' ? 'index.html' : rel.slice(1)];
      const file = path.resolve(root, sub);
      const answer = (status: number, headers: http.OutgoingHttpHeaders = {}) => {
        requests.push({ path: rel, status });
        res.writeHead(status, headers);
      };
      const stat = file.startsWith(path.resolve(root) + path.sep) ? await fs.stat(file).catch(() => undefined) : undefined;
      if (!stat?.isFile()) {
        answer(404);
        res.end();
        return;
      }
      const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), stat.size - 1) : stat.size - 1;
        answer(206, {
          'content-type': type,
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${stat.size}`,
          'accept-ranges': 'bytes',
        });
        if (req.method === 'HEAD') res.end();
        else createReadStream(file, { start, end }).pipe(res);
        return;
      }
      answer(200, { 'content-type': type, 'content-length': stat.size, 'accept-ranges': 'bytes' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
