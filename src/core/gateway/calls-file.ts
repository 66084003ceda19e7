// Appends a try's calls to its JSONL file, one line per call as it ends, in the order they end.
// Every line is redacted (the try's token and the real key, raw and as JSON escapes them) and
// capped: over the cap, the raw answer goes first, then the request, then the answer's text is
// cut — and the line says so, since such a call cannot be replayed.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatGatewayCallLine, type GatewayCall } from '../records/gateway-call';
import { errorMessage } from '../util/errors';
import type { Redactor } from './redact';

export const RECORD_CAP_BYTES = 4 * 1024 * 1024;

/** The call's line, redacted and within `cap` bytes. */
function callLine(call: GatewayCall, redact: Redactor, cap = RECORD_CAP_BYTES): string {
  const line = (c: GatewayCall) => redact(formatGatewayCallLine(c));
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

export class CallsFile {
  private queue: Promise<void> = Promise.resolve();
  private made = false;
  /** The first write that failed, said for the try's summary. */
  writeError: string | undefined;

  constructor(
    readonly file: string,
    private readonly redact: Redactor,
    private readonly cap = RECORD_CAP_BYTES,
  ) {}

  append(call: GatewayCall): void {
    const text = callLine(call, this.redact, this.cap);
    this.queue = this.queue.then(async () => {
      try {
        if (!this.made) {
          await fs.mkdir(path.dirname(this.file), { recursive: true });
          this.made = true;
        }
        await fs.appendFile(this.file, text);
      } catch (err) {
        this.writeError ??= `could not write ${this.file}: ${errorMessage(err)}`;
      }
    });
  }

  /** Resolves once every line appended so far is on disk (or failed). */
  flushed(): Promise<void> {
    return this.queue;
  }
}
