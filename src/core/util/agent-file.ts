// Files an agent could have written (app/requirement.xml, anything under app/) are read without
// following links and sized before they are read (and replaced by rename, never written through:
// writeFileAtomic): a link there may point at the
// oracle or at the run's records, a FIFO would hang the harness, and a huge file would fill its
// memory.
import { constants as fsc, promises as fs } from 'node:fs';

export type AgentFileRead =
  | { kind: 'ok'; data: Buffer }
  | { kind: 'missing' }
  /** A link, a folder, a FIFO or a device: never read. */
  | { kind: 'not-a-file' }
  | { kind: 'too-large'; size: number };

/** Reads `file` when it is a regular file (not a link to one) of at most `maxBytes`. */
export async function readAgentFile(file: string, maxBytes: number): Promise<AgentFileRead> {
  let handle: fs.FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then refuses it.
    handle = await fs.open(file, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO') return { kind: 'not-a-file' };
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { kind: 'not-a-file' };
    if (st.size > maxBytes) return { kind: 'too-large', size: st.size };
    // Read at most maxBytes + 1: a file that grows while we read is still caught. The buffer starts
    // at the file's size (not the limit: zeroing 256 MiB for a 40 KiB report costs ms) and grows.
    const limit = maxBytes + 1;
    let buf = Buffer.alloc(Math.min(limit, st.size + 1));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        if (buf.length === limit) return { kind: 'too-large', size: total };
        const bigger = Buffer.alloc(Math.min(limit, buf.length * 2));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, total, buf.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return { kind: 'ok', data: buf.subarray(0, total) };
  } finally {
    await handle.close();
  }
}
