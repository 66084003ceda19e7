// Where bench/podman.ts keeps its Podman store, and what that disk does to a load's time.
//
// On ext4 without a journal (the root disk of this kind of VM), the inode allocator skips every
// inode deleted in the last minute or more (ext4's `recently_deleted`, checked only when there is
// no journal). A load creates thousands of files, and the bench removes each image before the
// next load, so each load's system time grows with the deletes before it: by hand, into a fresh
// store each time, 2.0, 5.5, 9.2, 12.3, 12.0, 12.1 s in a row. The same six loads on a journaled
// ext4 (what mkfs.ext4 makes by default, and what nearly every disk has) took 1.9 to 2.4 s each.
// Comparing two loads on the first measures the order they ran in more than the loads, so there
// the bench puts its store on a journaled ext4 of its own: a sparse file, loop-mounted.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

export interface StoreFilesystem {
  /** e.g. `/dev/vda (ext4, no journal)`. */
  description: string;
  /** ext4 without a journal: a load's time there depends on the deletes before it. */
  unjournaledExt4: boolean;
}

/** The filesystem `dir` is on, from findmnt and ext4's sysfs (journal_task is empty without a journal). */
export function storeFilesystem(dir: string): StoreFilesystem {
  const r = spawnSync('findmnt', ['-n', '-o', 'SOURCE,FSTYPE', '-T', dir], { encoding: 'utf8' });
  const [source = '?', fstype = '?'] = r.status === 0 ? r.stdout.trim().split(/\s+/) : [];
  if (fstype !== 'ext4') return { description: `${source} (${fstype})`, unjournaledExt4: false };
  const task = path.join('/sys/fs/ext4', path.basename(source), 'journal_task');
  // The journal thread's pid, or `<none>` (empty on older kernels) without a journal.
  const said0 = existsSync(task) ? readFileSync(task, 'utf8').trim() : undefined;
  const journal = said0 === undefined ? undefined : /^\d+$/.test(said0);
  const said = journal === undefined ? 'journal unknown' : journal ? 'journaled' : 'no journal';
  return { description: `${source} (ext4, ${said})`, unjournaledExt4: journal === false };
}

/**
 * A fresh journaled ext4 of `sizeGb` (sparse: it takes what is written) loop-mounted in `parent`,
 * and how to remove it. Needs root, mkfs.ext4 and a loop device; undefined, with why, otherwise.
 */
export function mountJournaledExt4(parent: string, sizeGb: number): { dir: string; release(): void } | { why: string } {
  if (process.getuid?.() !== 0) return { why: 'mounting one needs root' };
  const work = mkdtempSync(path.join(parent, 'sweci-bench-fs-'));
  const image = path.join(work, 'ext4.img');
  const dir = path.join(work, 'mnt');
  const run = (cmd: string, args: string[]): string | undefined => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return r.status === 0 ? undefined : `${cmd} ${args.join(' ')}: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}`;
  };
  const failed =
    run('truncate', ['-s', `${sizeGb}G`, image]) ?? run('mkfs.ext4', ['-q', '-F', image]) ?? run('mkdir', [dir]) ?? run('mount', ['-o', 'loop', image, dir]);
  if (failed) {
    rmSync(work, { recursive: true, force: true });
    return { why: failed };
  }
  return {
    dir,
    release: () => {
      // Lazily when busy: a process that still holds a file in it lets it go when it ends.
      if (run('umount', [dir])) run('umount', ['-l', dir]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}
