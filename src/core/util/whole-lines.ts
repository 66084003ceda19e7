// Output arrives in arbitrary chunks; a log wants whole lines. One holder for every stream that
// is read line by line (an agent's log on disk, the editor's output channel).

/** Text held until its line ends, then handed on: whole lines, each with its newline. */
export class WholeLines {
  private held = '';

  /** `max`: a line longer than this is handed on unfinished rather than held without bound. */
  constructor(
    private readonly emit: (lines: string) => void,
    private readonly max = Number.POSITIVE_INFINITY,
  ) {}

  push(text: string): void {
    const t = this.held + text;
    const cut = t.length > this.max ? t.length : t.lastIndexOf('\n') + 1;
    this.held = t.slice(cut);
    if (cut > 0) this.emit(t.slice(0, cut));
  }

  /** The last line, given its newline, when the stream ends. */
  flush(): void {
    if (this.held) this.emit(`${this.held}\n`);
    this.held = '';
  }
}
