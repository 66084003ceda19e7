// The hash of a partial file, computed on a worker thread that reads the file back as it grows.
// Hashing SHA-256 on the thread that receives the bytes held a download to the speed of one core
// doing both; here the receiving thread only writes, and tells the worker how many bytes are on
// disk. The worker reads them back (from the page cache) and hashes them, so the digest covers
// exactly what is in the file, and the prefix of a resumed file is hashed while the rest arrives.
import { Worker } from 'node:worker_threads';
import { AbortError } from '../util/errors';

/** The worker's code (plain JavaScript, so it needs no file of its own beside the bundle). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const buf = Buffer.allocUnsafe(${1 << 20});
const files = new Map();
// A file is closed at each digest (reopened on the next advance): the caller may rename or remove it.
const close = (s) => { if (s && s.fd >= 0) { fs.closeSync(s.fd); s.fd = -1; } };
parentPort.on('message', (m) => {
  const s = files.get(m.file);
  if (m.type === 'begin') {
    close(s);
    const n = { path: m.path, hash: createHash(m.algorithm), fd: -1, hashed: 0, error: undefined };
    if (m.prefix) n.hash.update(m.prefix);
    files.set(m.file, n);
  } else if (m.type === 'advance') {
    if (!s || s.error !== undefined) return;
    try {
      if (s.fd < 0) s.fd = fs.openSync(s.path, 'r');
      while (s.hashed < m.to) {
        const n = fs.readSync(s.fd, buf, 0, Math.min(buf.length, m.to - s.hashed), s.hashed);
        if (n === 0) throw new Error('the file holds ' + s.hashed + ' bytes, not ' + m.to);
        s.hash.update(n === buf.length ? buf : buf.subarray(0, n));
        s.hashed += n;
      }
    } catch (err) {
      s.error = err && err.message ? err.message : String(err);
    }
  } else if (m.type === 'digest') {
    const r = !s ? { error: 'nothing was hashed' } : s.error !== undefined ? { error: s.error } : { hex: s.hash.copy().digest('hex') };
    close(s);
    parentPort.postMessage({ id: m.id, hashed: s ? s.hashed : 0, ...r });
  } else if (m.type === 'end') {
    close(s);
    files.delete(m.file);
  }
});
`;

interface PartDigest {
  /** Bytes of the file the digest covers. */
  hashed: number;
  /** The digest (hex); missing when the file could not be read back (`error` says why). */
  hex?: string;
  error?: string;
}

type Pending = { resolve: (d: PartDigest) => void; reject: (err: Error) => void };

/**
 * The hashing thread, shared by a download's jobs (one thread's start-up, and SHA-256 on one core
 * outruns any link a download sees). Each file being fetched takes a PartHasher of it.
 */
export class HashThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private nextFile = 0;
  private failure: Error | undefined;

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    // Only a digest being waited for keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (m: PartDigest & { id: number }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.forget(m.id);
      p.resolve({ hashed: m.hashed, hex: m.hex, error: m.error });
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('the hashing thread stopped')));
  }

  /** A hasher for one file. */
  hasher(): PartHasher {
    return new PartHasher(this, this.nextFile++);
  }

  /** @internal */
  post(message: Record<string, unknown>): void {
    this.worker.postMessage(message);
  }

  /** @internal The reply to a digest request, or AbortError if `signal` fires first. */
  ask(file: number, signal?: AbortSignal): Promise<PartDigest> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(new AbortError());
    const id = this.nextId++;
    return new Promise<PartDigest>((resolve, reject) => {
      const onAbort = () => {
        this.forget(id);
        reject(new AbortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          signal?.removeEventListener('abort', onAbort);
          f(v);
        };
      this.pending.set(id, { resolve: done(resolve), reject: done(reject) });
      this.worker.ref();
      this.worker.postMessage({ type: 'digest', id, file });
    });
  }

  private forget(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** One file's hash on the thread: begin, advance as bytes reach the disk, digest; end when done. */
export class PartHasher {
  constructor(
    private readonly thread: HashThread,
    private readonly file: number,
  ) {}

  /** A new file (or the same one started again): the hash starts empty, then takes `prefix` (a git blob's header). */
  begin(partial: string, algorithm: 'sha256' | 'sha1', prefix?: string): void {
    this.thread.post({ type: 'begin', file: this.file, path: partial, algorithm, prefix });
  }

  /** The first `bytes` bytes of the file are written: the thread may read them. */
  advance(bytes: number): void {
    this.thread.post({ type: 'advance', file: this.file, to: bytes });
  }

  /** The digest of the bytes advanced to so far, once the thread has read them all (and closed the file). */
  digest(signal?: AbortSignal): Promise<PartDigest> {
    return this.thread.ask(this.file, signal);
  }

  /** Done with this file: the thread forgets it. */
  end(): void {
    this.thread.post({ type: 'end', file: this.file });
  }
}
