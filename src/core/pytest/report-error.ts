// A report file that exists but cannot be read as a pytest report.

export class ReportParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportParseError';
  }
}

/** A report past one of the limits on what the harness parses (report-shape.ts): it is not read. */
export class ReportLimitError extends ReportParseError {
  constructor(message: string) {
    super(message);
    this.name = 'ReportLimitError';
  }
}
