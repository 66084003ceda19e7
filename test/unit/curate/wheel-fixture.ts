// Wheels built by code for the curation tests: a pure-Python distribution as pip installs it,
// with its METADATA, WHEEL, RECORD (hashes and sizes) and, unless told not to, top_level.txt.
import { createHash } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ZipFile } from 'yazl';

export interface WheelSpec {
  /** The distribution's name as its file name spells it (underscores), e.g. fancy_dist. */
  name: string;
  version: string;
  /** Paths inside the wheel → their text (the modules). */
  files: Record<string, string>;
  /** Leave top_level.txt out: the provider is then found through RECORD. */
  noTopLevel?: boolean;
}

/** Writes `<dir>/<name>-<version>-py3-none-any.whl`; returns its path. */
export async function writeWheel(dir: string, spec: WheelSpec): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const info = `${spec.name}-${spec.version}.dist-info`;
  const files: Record<string, string> = {
    ...spec.files,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${spec.name.replace(/_/g, '-')}\nVersion: ${spec.version}\n`,
    [`${info}/WHEEL`]: 'Wheel-Version: 1.0\nGenerator: sweci-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  if (!spec.noTopLevel) {
    const tops = [...new Set(Object.keys(spec.files).map((p) => p.split('/')[0].replace(/\.py$/, '')))];
    files[`${info}/top_level.txt`] = tops.map((t) => `${t}\n`).join('');
  }
  const record = Object.entries(files).map(([p, text]) => {
    const digest = createHash('sha256').update(text).digest('base64url');
    return `${p},sha256=${digest},${Buffer.byteLength(text)}`;
  });
  files[`${info}/RECORD`] = `${[...record, `${info}/RECORD,,`].join('\n')}\n`;
  const file = path.join(dir, `${spec.name}-${spec.version}-py3-none-any.whl`);
  const zip = new ZipFile();
  for (const [p, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), p, { mtime: new Date(Date.UTC(2024, 0, 1)) });
  zip.end();
  await new Promise<void>((resolve, reject) => {
    const outStream = createWriteStream(file);
    zip.outputStream.pipe(outStream).on('close', resolve).on('error', reject);
  });
  return file;
}
