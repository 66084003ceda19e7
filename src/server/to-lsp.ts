// The core's diagnostics (1-based, end exclusive) as LSP diagnostics (0-based).
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../core/requirement/diagnostic';
import { diagnosticText } from './diagnostic-text';

export const DIAGNOSTIC_SOURCE = 'sweci';

export function toLspDiagnostic(d: Diagnostic, doc: TextDocument): LspDiagnostic {
  // The core counts columns after a byte order mark; the document's first line still has it.
  const bom = doc.getText({ start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }) === '\ufeff' ? 1 : 0;
  const at = (line: number, column: number) => ({ line: line - 1, character: column - 1 + (line === 1 ? bom : 0) });
  const start = at(d.line, d.column);
  // A point-only diagnostic covers the rest of its line (at least one character).
  const end =
    d.endLine !== undefined && d.endColumn !== undefined
      ? at(d.endLine, d.endColumn)
      : { line: start.line, character: Math.max(start.character + 1, lineLength(doc, start.line)) };
  return {
    range: { start, end },
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: DIAGNOSTIC_SOURCE,
    message: diagnosticText(d),
    ...(d.replacement !== undefined ? { data: { replacement: d.replacement } satisfies QuickFixData } : {}),
  };
}

/** What a diagnostic carries for its quick fix (LSP keeps `data` from the diagnostic to the code action request). */
export interface QuickFixData {
  replacement: string;
}

function lineLength(doc: TextDocument, line: number): number {
  const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return text.replace(/\r?\n$|\r$/, '').length;
}
