// What a wheel provides: its top-level import names, from top_level.txt, else from the first
// path parts RECORD lists. Read from the zip without unpacking it.
import * as yauzl from 'yauzl';

/** The top-level names one wheel provides (top_level.txt, else RECORD's first path components). */
export async function wheelTopLevel(file: string): Promise<string[]> {
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
