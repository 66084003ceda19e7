// Offsets in a text to 1-based line/column, for diagnostics and language-server ranges.

export interface Position {
  line: number;
  column: number;
}

/** A span of text, 1-based; the end is exclusive (the column just after the last character). */
export interface TextRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // \r\n counts once; a lone \r ends a line too (as XML normalises it).
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }

  /** Position of a 0-based offset (clamped to the text). */
  at(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: Math.max(0, offset - this.starts[lo]) + 1 };
  }

  /** The range of offsets [start, end), clamped to the text. */
  range(start: number, end: number): TextRange {
    const s = Math.max(0, Math.min(start, this.text.length));
    const e = Math.max(s, Math.min(end, this.text.length));
    const a = this.at(s);
    const b = this.at(e);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }

  /** The 0-based offset of a 1-based position (clamped to its line). */
  offsetOf(line: number, column: number): number {
    const l = Math.max(1, Math.min(line, this.starts.length));
    const start = this.starts[l - 1];
    const next = l < this.starts.length ? this.starts[l] : this.text.length;
    return Math.min(start + Math.max(0, column - 1), next);
  }
}
