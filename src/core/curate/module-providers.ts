// The self-repair's two questions: which module did collection miss, and which distribution
// provides it. Wheels of the --find-links folder say what they provide (top_level.txt, else the
// top-level names in RECORD); a short table covers the well-known names that differ from their
// distribution's; last, the module's own name.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as yauzl from 'yauzl';
import { normalizeName } from './requirement-normalize';

/** Top-level modules whose distribution has another name (import name → distribution). */
export const KNOWN_PROVIDERS: Readonly<Record<string, string>> = {
  yaml: 'PyYAML',
  PIL: 'Pillow',
  cv2: 'opencv-python',
  sklearn: 'scikit-learn',
  skimage: 'scikit-image',
  bs4: 'beautifulsoup4',
  dateutil: 'python-dateutil',
  dotenv: 'python-dotenv',
  jwt: 'PyJWT',
  Crypto: 'pycryptodome',
  OpenSSL: 'pyOpenSSL',
  attr: 'attrs',
  magic: 'python-magic',
  serial: 'pyserial',
  usb: 'pyusb',
  git: 'GitPython',
  zmq: 'pyzmq',
  Levenshtein: 'python-Levenshtein',
  google: 'protobuf',
  docx: 'python-docx',
  pptx: 'python-pptx',
  multipart: 'python-multipart',
  jose: 'python-jose',
  slugify: 'python-slugify',
  fitz: 'PyMuPDF',
  win32api: 'pywin32',
  pkg_resources: 'setuptools',
  setuptools_scm: 'setuptools-scm',
  _pytest: 'pytest',
};

/** The top-level modules pytest's output says are missing, in order of appearance. */
export function missingModules(output: string): string[] {
  const found: string[] = [];
  const re = /(?:ModuleNotFoundError|ImportError): No module named ['"]?([A-Za-z_][\w.]*)['"]?/g;
  for (const m of output.matchAll(re)) {
    const top = m[1].split('.')[0];
    if (!found.includes(top)) found.push(top);
  }
  return found;
}

export interface Provider {
  distribution: string;
  /** How it was found: the wheel's file name, `known mismatch`, or `module name`. */
  via: string;
}

/** The top-level names one wheel provides (top_level.txt, else RECORD's first path components). */
async function wheelTopLevel(file: string): Promise<string[]> {
  const entries = await readZipEntries(file, (name) => /^[^/]+\.dist-info\/(top_level\.txt|RECORD)$/.test(name));
  const top = [...entries].find(([n]) => n.endsWith('/top_level.txt'))?.[1];
  if (top !== undefined) {
    return top
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  }
  const record = [...entries].find(([n]) => n.endsWith('/RECORD'))?.[1] ?? '';
  const names = new Set<string>();
  for (const line of record.split(/\r?\n/)) {
    const p = line.split(',')[0];
    if (!p || p.includes('.dist-info/') || p.includes('.data/')) continue;
    const first = p.split('/')[0];
    names.add(first.endsWith('.py') ? first.slice(0, -3) : first.replace(/\.(cpython|abi3|so|pyd).*$/, ''));
  }
  return [...names];
}

function readZipEntries(file: string, want: (name: string) => boolean): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error(`cannot open ${file}`));
      const out = new Map<string, string>();
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!want(entry.fileName) || entry.uncompressedSize > 4_000_000) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName} in ${file}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The distribution named by a wheel's file name (`fancy_dist-1.0-py3-none-any.whl` → fancy-dist). */
function wheelDistribution(file: string): string {
  return normalizeName(path.basename(file).split('-')[0]);
}

/** Who provides `module`: a wheel of `findLinks` (a local folder), a known mismatch, or the module's own name. */
export async function findProvider(module: string, findLinks: string | undefined): Promise<Provider> {
  if (findLinks) {
    const names = await fs.readdir(findLinks).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.whl')).sort()) {
      const provides = await wheelTopLevel(path.join(findLinks, name)).catch(() => [] as string[]);
      if (provides.includes(module)) return { distribution: wheelDistribution(name), via: `wheel ${name}` };
    }
  }
  const known = KNOWN_PROVIDERS[module];
  if (known) return { distribution: known, via: 'known mismatch' };
  return { distribution: normalizeName(module), via: 'module name' };
}
