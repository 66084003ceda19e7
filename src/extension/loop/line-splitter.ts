// Agent output arrives in arbitrary chunks; the log wants whole lines.
export class LineSplitter {
  private pending = '';

  constructor(private readonly emit: (line: string) => void) {}

  push(chunk: string): void {
    const parts = (this.pending + chunk).split(/\r?\n/);
    this.pending = parts.pop() ?? '';
    for (const line of parts) this.emit(line);
  }

  flush(): void {
    if (this.pending) this.emit(this.pending);
    this.pending = '';
  }
}
