// Keeps the last `maxChars` characters of a stream: a runaway process must not exhaust memory,
// and the end of the output (pytest's summary, an agent's final answer) is what matters most.

const TRUNCATION_MARKER = '[... earlier output truncated ...]\n';

export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;
  private dropped = false;

  constructor(private readonly maxChars: number) {}

  append(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    // Compact only when well over the cap, so appends stay amortised O(1).
    if (this.length > this.maxChars * 2) this.compact();
  }

  /** True once some output has been dropped from the front. */
  get truncated(): boolean {
    return this.dropped || this.length > this.maxChars;
  }

  text(): string {
    this.compact();
    const body = this.chunks.join('');
    return this.dropped ? TRUNCATION_MARKER + body : body;
  }

  private compact(): void {
    let joined = this.chunks.join('');
    if (joined.length > this.maxChars) {
      joined = joined.slice(joined.length - this.maxChars);
      this.dropped = true;
    }
    this.chunks = [joined];
    this.length = joined.length;
  }
}
