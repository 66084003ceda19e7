// Appends a download's chunks to its partial file in batches: chunks gather until a megabyte waits,
// which then goes out as one writev on the thread pool while the next ones arrive. Node's file
// write stream handed each network chunk (64 KB) to the thread pool on its own, and those round
// trips cost a download about as much CPU as receiving the bytes (bench:download).
import { promises as fs } from 'node:fs';

/** Bytes gathered before a write starts (measured: 256 KB and 4 MB both cost more CPU than 1 MB). */
const APPEND_BATCH = 1 << 20;
/** Bytes waiting beside the write in flight before the source is asked to pause. */
const APPEND_HIGH_WATER = 8 << 20;

export interface BatchedAppendHooks {
  /** The file's size each time a batch is on disk. */
  written: (bytesOnDisk: number) => void;
  /** A write failed: nothing more is written (end() throws the error too). */
  failed: (err: Error) => void;
  /** There is room again after write() returned false. */
  resume: () => void;
}

export class BatchedAppend {
  private queue: Buffer[] = [];
  private queued = 0;
  private writing: Promise<void> | undefined;
  private failure: Error | undefined;
  private full = false;
  private ending = false;

  private readonly handle: Promise<fs.FileHandle>;

  private constructor(
    file: string,
    private onDisk: number,
    private readonly hooks: BatchedAppendHooks,
  ) {
    this.handle = fs.open(file, 'a');
    this.handle.catch(() => undefined);
  }

  /**
   * A writer appending to `file`, which holds `have` bytes. It takes chunks at once (the caller
   * listens to its source without a wait in which an event could pass unseen); they go out once
   * the file is open, and an open that fails fails the writer.
   */
  static open(file: string, have: number, hooks: BatchedAppendHooks): BatchedAppend {
    return new BatchedAppend(file, have, hooks);
  }

  /** Queues a chunk; false when so much waits that the source should pause until `resume`. */
  write(chunk: Buffer): boolean {
    if (this.failure) return false;
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.queued >= APPEND_BATCH) this.flush();
    if (this.queued >= APPEND_HIGH_WATER) this.full = true;
    return !this.full;
  }

  /** Writes everything queued and closes the file; throws the first write error. */
  async end(): Promise<void> {
    this.ending = true;
    try {
      for (;;) {
        if (this.writing) await this.writing;
        else if (this.queued > 0 && !this.failure) this.flush();
        else break;
      }
    } finally {
      const handle = await this.handle.catch((err: unknown) => {
        this.failure ??= err instanceof Error ? err : new Error(String(err));
        return undefined;
      });
      await handle?.close();
    }
    if (this.failure) throw this.failure;
  }

  /** Starts a write of all that is queued, unless one is in flight (it starts the next when done). */
  private flush(): void {
    if (this.writing || this.queued === 0 || this.failure) return;
    const batch = this.queue;
    const n = this.queued;
    this.queue = [];
    this.queued = 0;
    this.writing = this.handle
      .then((handle) => writeAll(handle, batch))
      .then(
        () => {
          this.writing = undefined;
          this.hooks.written((this.onDisk += n));
          if (this.queued >= APPEND_BATCH || (this.ending && this.queued > 0)) this.flush();
          if (this.full && this.queued < APPEND_HIGH_WATER) {
            this.full = false;
            this.hooks.resume();
          }
        },
        (err: unknown) => {
          this.writing = undefined;
          this.failure = err instanceof Error ? err : new Error(String(err));
          this.hooks.failed(this.failure);
        },
      );
  }
}

/** writev until every byte is written (a short write continues where it stopped). */
async function writeAll(handle: fs.FileHandle, buffers: Buffer[]): Promise<void> {
  let rest = buffers;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten <= 0) throw Object.assign(new Error('the disk took no bytes'), { code: 'EIO' });
    let skip = bytesWritten;
    let i = 0;
    while (i < rest.length && skip >= rest[i].length) skip -= rest[i++].length;
    rest = rest.slice(i);
    if (skip > 0) rest[0] = rest[0].subarray(skip);
  }
}
