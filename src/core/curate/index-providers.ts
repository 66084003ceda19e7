// The self-repair's lookup on a package index (--index-url, PEP 503's simple API): which of its
// distributions provides a module. An index cannot be asked by module, so its wheels are read:
// every project's newest wheel on a small index (an offline mirror), only the projects the
// module's name suggests on a large one. Each wheel says what it provides (top_level.txt, else
// RECORD). One scan per index and process: a curation's repairs all read the same map.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normalizeName } from './requirement-normalize';
import { wheelTopLevel } from './wheel-top-level';

export interface IndexProvider {
  distribution: string;
  /** `index wheel <file name>`. */
  via: string;
}

/** Above this many projects only the names the module suggests are read. */
const SCAN_ALL_UP_TO = 200;
/** A wheel larger than this is not fetched to read its names. */
const MAX_WHEEL_BYTES = 32 * 1024 * 1024;
const MAX_PAGE_BYTES = 64 * 1024 * 1024;

const scans = new Map<string, Promise<Index>>();

interface Index {
  projects: string[];
  /** Module → provider, for the projects read so far. */
  providers: Map<string, IndexProvider>;
  read: Set<string>;
}

/** The distribution on the index at `indexUrl` whose wheel provides `module`, if one does. */
export async function indexProvider(module: string, indexUrl: string): Promise<IndexProvider | undefined> {
  const root = indexUrl.endsWith('/') ? indexUrl : `${indexUrl}/`;
  let scan = scans.get(root);
  if (!scan) {
    scan = listProjects(root).then((projects) => ({ projects, providers: new Map(), read: new Set() }));
    scans.set(root, scan);
    scan.catch(() => scans.delete(root)); // an index that did not answer is asked again next time
  }
  const index = await scan;
  const found = index.providers.get(module);
  if (found) return found;
  const wanted = index.projects.length <= SCAN_ALL_UP_TO ? index.projects : suggestedProjects(module, index.projects);
  for (const project of wanted) {
    if (index.read.has(project)) continue;
    index.read.add(project);
    for (const [name, provider] of await projectModules(root, project)) if (!index.providers.has(name)) index.providers.set(name, provider);
    const now = index.providers.get(module);
    if (now) return now;
  }
  return undefined;
}

/** Projects whose names the module's suggests (`foo` → foo, python-foo, py-foo, pyfoo, foo-python). */
function suggestedProjects(module: string, projects: readonly string[]): string[] {
  const m = normalizeName(module);
  const names = new Set([m, `python-${m}`, `py-${m}`, `py${m}`, `${m}-python`]);
  return projects.filter((p) => names.has(p));
}

async function listProjects(root: string): Promise<string[]> {
  const page = await fetchText(root);
  return [...new Set(links(page).map((l) => normalizeName(l.text)))].filter(Boolean);
}

/** The modules the project's newest wheel provides. */
async function projectModules(root: string, project: string): Promise<Array<[string, IndexProvider]>> {
  const pageUrl = new URL(`${project}/`, root).href;
  const wheels = links(await fetchText(pageUrl)).filter((l) => /\.whl$/i.test(l.file));
  const wheel = wheels.at(-1); // simple pages list files oldest first
  if (!wheel) return [];
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-index-wheel-'));
  try {
    const file = path.join(tmp, 'wheel.whl');
    await fs.writeFile(file, await fetchBytes(new URL(wheel.href, pageUrl).href, MAX_WHEEL_BYTES));
    const provides = await wheelTopLevel(file).catch(() => [] as string[]);
    return provides.map((name) => [name, { distribution: project, via: `index wheel ${wheel.file}` }]);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

interface Link {
  href: string;
  text: string;
  /** The link's last path part without its fragment (`#sha256=…`). */
  file: string;
}

function links(html: string): Link[] {
  const out: Link[] = [];
  for (const m of html.matchAll(/<a\s[^>]*href\s*=\s*["']([^"']+)["'][^>]*>([^<]*)<\/a>/gi)) {
    const href = decodeEntities(m[1]);
    const file = decodeURIComponent(href.split('#')[0].split('?')[0].replace(/\/+$/, '').split('/').pop() ?? '');
    out.push({ href, text: decodeEntities(m[2]).trim(), file });
  }
  return out;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** fetch refuses a URL with credentials in it: they go in the Authorization header instead. */
function request(url: string): { url: string; headers: Record<string, string> } {
  const u = new URL(url);
  if (!u.username && !u.password) return { url, headers: {} };
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  u.username = '';
  u.password = '';
  return { url: u.href, headers: { authorization: `Basic ${auth}` } };
}

async function fetchBytes(url: string, limit: number): Promise<Buffer> {
  const r = request(url);
  const res = await fetch(r.url, { headers: r.headers, signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`${res.status} ${res.statusText} from ${r.url}`);
  const size = Number(res.headers.get('content-length') ?? '0');
  if (size > limit) throw new Error(`${r.url} is ${size} bytes, over ${limit}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > limit) throw new Error(`${r.url} is over ${limit} bytes`);
  return body;
}

async function fetchText(url: string): Promise<string> {
  return (await fetchBytes(url, MAX_PAGE_BYTES)).toString('utf8');
}
