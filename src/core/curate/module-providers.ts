// The self-repair's two questions: which module did collection miss, and which distribution
// provides it. Wheels of the --find-links folder, then of the index (index-providers.ts), say
// what they provide (top_level.txt, else the top-level names in RECORD); a short table covers
// the well-known names that differ from their distribution's; last, the module's own name.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { indexProvider } from './index-providers';
import { wheelTopLevel } from './wheel-top-level';
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

/** The distribution named by a wheel's file name (`fancy_dist-1.0-py3-none-any.whl` → fancy-dist). */
function wheelDistribution(file: string): string {
  return normalizeName(path.basename(file).split('-')[0]);
}

/**
 * Who provides `module`: a wheel of `findLinks` (a local folder), a wheel on the index
 * (`indexUrl`), a known mismatch, or the module's own name. An index that does not answer is
 * passed over: pip's build then says what is wrong with it.
 */
export async function findProvider(module: string, findLinks: string | undefined, indexUrl?: string): Promise<Provider> {
  if (findLinks) {
    const names = await fs.readdir(findLinks).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.whl')).sort()) {
      const provides = await wheelTopLevel(path.join(findLinks, name)).catch(() => [] as string[]);
      if (provides.includes(module)) return { distribution: wheelDistribution(name), via: `wheel ${name}` };
    }
  }
  if (indexUrl) {
    const found = await indexProvider(module, indexUrl).catch(() => undefined);
    if (found) return found;
  }
  const known = KNOWN_PROVIDERS[module];
  if (known) return { distribution: known, via: 'known mismatch' };
  return { distribution: normalizeName(module), via: 'module name' };
}
