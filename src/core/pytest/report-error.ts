// A report file that exists but cannot be read as a pytest report.

export class ReportParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportParseError';
  }
}
