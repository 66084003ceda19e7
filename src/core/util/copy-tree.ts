// A small, predictable recursive copy: files keep their mode, symlinks are copied as links.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface CopyTreeOptions {
  /** Return false to skip an entry (and, for a folder, everything below it). `rel` uses '/'. */
  filter?: (rel: string, isDir: boolean) => boolean;
  /** 'skip' leaves symbolic links out (for folders an agent wrote); default: copied as links. */
  links?: 'copy' | 'skip';
}

/** Copies the contents of `src` into `dest` (created when missing). Never follows symlinks, `src` included. */
export async function copyTree(src: string, dest: string, options: CopyTreeOptions = {}): Promise<void> {
  // readdir would follow a linked `src`: a repository's `tests -> /home/me` must not copy a home folder.
  if ((await fs.lstat(src)).isSymbolicLink()) throw new Error(`${src} is a symbolic link; it is not copied (a link may point anywhere on this machine).`);
  const walk = async (from: string, to: string, rel: string): Promise<void> => {
    await fs.mkdir(to, { recursive: true });
    for (const e of await fs.readdir(from, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const s = path.join(from, e.name);
      const d = path.join(to, e.name);
      if (options.filter && !options.filter(r, e.isDirectory())) continue;
      if (e.isDirectory()) await walk(s, d, r);
      else if (e.isSymbolicLink()) {
        if (options.links !== 'skip') await fs.symlink(await fs.readlink(s), d);
      } else if (e.isFile()) {
        await fs.copyFile(s, d);
        await fs.chmod(d, (await fs.stat(s)).mode & 0o777);
      }
      // Sockets, fifos and devices are not part of a codebase: skipped.
    }
  };
  await walk(src, dest, '');
}

/** Files (and symlinks) below `dir` as '/'-separated relative paths, sorted; folders are walked. */
export async function listFiles(dir: string, filter?: (rel: string, isDir: boolean) => boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch (err) {
      if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return;
      throw err;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (filter && !filter(r, e.isDirectory())) continue;
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  await walk(dir, '');
  return out.sort();
}
