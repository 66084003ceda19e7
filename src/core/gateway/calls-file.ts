// Appends a try's calls to its JSONL file, one line per call as it ends, in the order they end.
// Every line is masked (the try's token and the real key, raw and as JSON escapes them) and
// capped: over the cap, the raw answer goes first, then the request, then the answer's text is
// cut — and the line says so, since such a call cannot be replayed.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatGatewayCallLine, type GatewayCall } from '../records/gateway-call';
import { errorMessage } from '../util/errors';
import { belowFloor } from '../util/free-space';
import type { SecretMask } from '../util/secret-mask';

export const RECORD_CAP_BYTES = 4 * 1024 * 1024;

/** The call's line, redacted and within `cap` bytes. */
function callLine(call: GatewayCall, redact: SecretMask, cap = RECORD_CAP_BYTES): string {
  const line = (c: GatewayCall) => redact.mask(formatGatewayCallLine(c));
  let text = line(call);
  if (Buffer.byteLength(text) <= cap) return text;
  const dropped: string[] = [];
  let cut: GatewayCall = { ...call };
  if (cut.raw) {
    const { raw: _raw, ...rest } = cut;
    cut = rest;
    dropped.push('the raw answer');
  }
  const note = () => `the record was over ${cap} bytes: ${dropped.join(', ')} dropped; this call cannot be replayed`;
  text = line({ ...cut, truncated: note() });
  if (Buffer.byteLength(text) <= cap) return text;
  if (cut.request !== undefined) {
    const { request: _request, ...rest } = cut;
    cut = rest;
    dropped.push('the request');
    text = line({ ...cut, truncated: note() });
    if (Buffer.byteLength(text) <= cap) return text;
  }
  if (cut.response) {
    // What is left is the answer: keep a share of the cap of its text and drop the tool arguments.
    const keep = Math.floor(cap / 4);
    cut = {
      ...cut,
      response: { ...cut.response, text: cut.response.text.slice(0, keep), toolCalls: cut.response.toolCalls.map((t) => ({ ...t, arguments: '' })) },
    };
    dropped.push(`the answer's text after ${keep} characters and the tool arguments`);
  }
  return line({ ...cut, error: cut.error?.slice(0, 4096), truncated: note() });
}

/** Past its byte bound (and the line that crossed it) a record still takes refusals (they are small) up to this much more; beyond, lines are counted, not written. */
export const RECORD_SLACK_BYTES = 1024 * 1024;

export interface CallsFileBounds {
  /** A line is cut above this. */
  lineCap?: number;
  /** The bytes the file may grow to before the try stops (0 or absent: no bound): the line that crosses it is written, refusals after it within the slack. */
  maxBytes?: number;
  /** No line is written that would leave less than this free on the file's disk (0 or absent: no floor). */
  minFreeBytes?: number;
  /** Called once, when a line was not written because the disk is nearly full. */
  onDiskFull?: (reason: string) => void;
}

export class CallsFile {
  private queue: Promise<void> = Promise.resolve();
  private made = false;
  /** Bytes of the lines taken for writing so far (each line counted once it is queued). */
  private taken = 0;
  /** Bytes on disk: a failed write is cut back to here, so the file holds whole lines only. */
  private written = 0;
  private sized = false;
  private dropped = 0;
  private diskFull: string | undefined;
  /** The first write that failed, said for the try's summary. */
  writeError: string | undefined;

  constructor(
    readonly file: string,
    private readonly redact: SecretMask,
    private readonly bounds: CallsFileBounds = {},
  ) {}

  /** Bytes taken for the record so far (what the byte bound counts). */
  get bytes(): number {
    return this.taken;
  }

  /** The file reached its byte bound. */
  get full(): boolean {
    const max = this.bounds.maxBytes ?? 0;
    return max > 0 && this.taken >= max;
  }

  append(call: GatewayCall): void {
    const text = callLine(call, this.redact, this.bounds.lineCap ?? RECORD_CAP_BYTES);
    const size = Buffer.byteLength(text);
    const max = this.bounds.maxBytes ?? 0;
    // The line that crossed the bound may have passed it by up to a line: the slack counts from there.
    if (this.diskFull !== undefined || (max > 0 && this.taken >= max + (this.bounds.lineCap ?? RECORD_CAP_BYTES) + RECORD_SLACK_BYTES)) {
      this.dropped++;
      return;
    }
    this.taken += size;
    this.queue = this.queue.then(async () => {
      try {
        if (!this.made) {
          await fs.mkdir(path.dirname(this.file), { recursive: true });
          this.made = true;
        }
        const floor = this.bounds.minFreeBytes ?? 0;
        const low = this.diskFull ?? (floor > 0 ? await belowFloor(path.dirname(this.file), floor, size) : undefined);
        if (low !== undefined) {
          this.dropped++;
          if (this.diskFull === undefined) {
            this.diskFull = low;
            this.bounds.onDiskFull?.(low);
          }
          return;
        }
        await this.write(text);
      } catch (err) {
        this.writeError ??= `could not write ${this.file}: ${errorMessage(err)}`;
      }
    });
  }

  /** Appends one line; a write that fails halfway (a full disk) is cut back, so no line is left broken. */
  private async write(text: string): Promise<void> {
    const handle = await fs.open(this.file, 'a');
    try {
      // A file already there (a try resumed) keeps what it had.
      if (!this.sized) {
        this.written = (await handle.stat()).size;
        this.sized = true;
      }
      await handle.appendFile(text);
      this.written += Buffer.byteLength(text);
    } catch (err) {
      await handle.truncate(this.written).catch(() => undefined);
      throw err;
    } finally {
      await handle.close();
    }
  }

  /** Resolves once every line appended so far is on disk (or failed). */
  async flushed(): Promise<void> {
    await this.queue;
  }

  /** What the record is missing, said for the try's summary: a failed write, lines past a bound. */
  get problem(): string | undefined {
    const lost =
      this.dropped > 0
        ? `${this.dropped} line${this.dropped === 1 ? '' : 's'} of ${this.file} not written (${this.diskFull ?? 'past its byte bound'})`
        : undefined;
    return [this.writeError, lost].filter((s) => s !== undefined).join('; ') || undefined;
  }
}
