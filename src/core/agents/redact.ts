// Keeps the values of the agent's added environment (API keys and the like) out of command
// lines, logs and the output channel, even when an agent echoes them.

export const REDACTED = '***';
/** Shorter values ("1", "true") are too common to be secrets and would blot out the log. */
const MIN_SECRET_LENGTH = 6;

export class Redactor {
  private readonly secrets: string[];

  constructor(values: Iterable<string>) {
    this.secrets = [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  }

  get longest(): number {
    return this.secrets[0]?.length ?? 0;
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }
}

/**
 * Redacts a stream chunk by chunk. A secret may be split across chunks, so the last
 * (longest secret − 1) characters are held back until more text or the end arrives.
 */
export class StreamRedactor {
  private pending = '';

  constructor(
    private readonly redactor: Redactor,
    private readonly emit: (text: string) => void,
  ) {}

  push(chunk: string): void {
    const keep = Math.max(0, this.redactor.longest - 1);
    const text = this.redactor.redact(this.pending + chunk);
    const cut = Math.max(0, text.length - keep);
    this.pending = text.slice(cut);
    if (cut > 0) this.emit(text.slice(0, cut));
  }

  flush(): void {
    if (this.pending) this.emit(this.redactor.redact(this.pending));
    this.pending = '';
  }
}
