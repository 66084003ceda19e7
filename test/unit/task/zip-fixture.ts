// Writes test zips with python's zipfile, which lets us craft hostile entries (../, /abs, symlinks).
import { execFileSync } from 'node:child_process';

export interface ZipEntrySpec {
  name: string;
  /** File contents (utf8). */
  data?: string;
  /** Unix mode bits for a regular file, e.g. 0o755. */
  mode?: number;
  /** Makes the entry a symbolic link with this target. */
  symlink?: string;
  dir?: boolean;
}

const SCRIPT = `
import json, sys, zipfile
out, entries = sys.argv[1], json.loads(sys.argv[2])
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for e in entries:
        info = zipfile.ZipInfo(e['name'], date_time=(2024, 1, 1, 0, 0, 0))
        info.create_system = 3
        if e.get('symlink') is not None:
            info.external_attr = (0o120777 << 16)
            z.writestr(info, e['symlink'])
        elif e.get('dir'):
            info.external_attr = (0o040755 << 16) | 0x10
            z.writestr(info, '')
        else:
            info.external_attr = ((0o100000 | e.get('mode', 0o644)) << 16)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, e.get('data', ''))
`;

export function writeZip(out: string, entries: ZipEntrySpec[]): void {
  execFileSync('python3', ['-c', SCRIPT, out, JSON.stringify(entries)], { stdio: 'pipe' });
}

/** Zips a whole folder (symlinks stored as links, modes kept), entries relative to `dir`. */
export function zipFolder(dir: string, out: string, prefix = ''): void {
  const script = `
import os, sys, zipfile
src, out, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for base, dirs, files in os.walk(src):
        dirs.sort(); files.sort()
        for d in dirs:
            p = os.path.join(base, d)
            if os.path.islink(p):
                files.append(d)
        for name in files:
            p = os.path.join(base, name)
            arc = prefix + os.path.relpath(p, src).replace(os.sep, '/')
            info = zipfile.ZipInfo(arc, date_time=(2024, 1, 1, 0, 0, 0))
            info.create_system = 3
            st = os.lstat(p)
            info.external_attr = (st.st_mode & 0xFFFF) << 16
            if os.path.islink(p):
                z.writestr(info, os.readlink(p))
            else:
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(p, 'rb') as f:
                    z.writestr(info, f.read())
`;
  execFileSync('python3', ['-c', script, dir, out, prefix], { stdio: 'pipe' });
}
