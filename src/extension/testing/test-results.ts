// Puts core test results (core/gap/test-results) into a TestRun: states, and for failures a
// message at the line where the test failed, with the traceback's frames inside the code.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestResult } from '../../core/gap/test-results';

/** What the integration tests read back: one line per reported test. */
export interface PublishedResult {
  id: string;
  state: TestResult['state'];
  message?: string;
  /** The failure's file relative to the code folder and its 1-based line. */
  file?: string;
  line?: number;
}

export function applyResults(
  run: vscode.TestRun,
  items: ReadonlyMap<string, vscode.TestItem>,
  results: readonly TestResult[],
  codeDir: string,
): PublishedResult[] {
  const published: PublishedResult[] = [];
  for (const r of results) {
    const item = items.get(r.nodeid);
    if (!item) continue;
    const out: PublishedResult = { id: r.nodeid, state: r.state, ...(r.message ? { message: r.message } : {}) };
    if (r.location) {
      out.file = r.location.file;
      out.line = r.location.line;
    }
    switch (r.state) {
      case 'passed':
        run.passed(item);
        break;
      case 'skipped':
        run.skipped(item);
        break;
      case 'failed':
        run.failed(item, message(r, codeDir));
        break;
      case 'errored':
        run.errored(item, message(r, codeDir));
        break;
    }
    published.push(out);
  }
  return published;
}

function message(r: TestResult, codeDir: string): vscode.TestMessage {
  const m = new vscode.TestMessage(r.message ?? r.state);
  const uri = (file: string) => vscode.Uri.file(path.join(codeDir, ...file.split('/')));
  if (r.location) {
    m.location = new vscode.Location(uri(r.location.file), new vscode.Position(r.location.line - 1, 0));
    // Innermost first, as debuggers list a stack.
    m.stackTrace = [...r.location.frames]
      .reverse()
      .map((f) => new vscode.TestMessageStackFrame(f.func ?? path.posix.basename(f.file), uri(f.file), new vscode.Position(f.line - 1, 0)));
  }
  return m;
}

/** Test Results' terminal wants CRLF. */
export function terminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
