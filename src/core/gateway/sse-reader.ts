// Server-sent events read as they arrive, for the copy of a stream the gateway reassembles (the
// client gets the bytes untouched). Chunks may split an event, a line or a UTF-8 character anywhere.
import { StringDecoder } from 'node:string_decoder';

export interface SseEvent {
  event?: string;
  data: string;
}

export class SseReader {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private event: string | undefined;
  private data: string[] = [];

  /** Feeds bytes; returns the events they completed. */
  push(chunk: Buffer): SseEvent[] {
    return this.lines(this.pending + this.decoder.write(chunk), false);
  }

  /** The end of the stream: an event not closed by a blank line still counts. */
  end(): SseEvent[] {
    return this.lines(this.pending + this.decoder.end(), true);
  }

  private lines(text: string, atEnd: boolean): SseEvent[] {
    const out: SseEvent[] = [];
    // A '\r' at the end might be half of '\r\n': it waits for the next chunk.
    const heldCr = !atEnd && text.endsWith('\r');
    const parts = (heldCr ? text.slice(0, -1) : text).split(/\r\n|\r|\n/);
    // The last piece has no line break yet (unless the stream ended): keep it for the next chunk.
    this.pending = (atEnd ? '' : (parts.pop() ?? '')) + (heldCr ? '\r' : '');
    for (const line of parts) this.line(line, out);
    if (atEnd) this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }

  private dispatch(out: SseEvent[]): void {
    if (this.data.length > 0) out.push({ ...(this.event !== undefined ? { event: this.event } : {}), data: this.data.join('\n') });
    this.event = undefined;
    this.data = [];
  }
}
