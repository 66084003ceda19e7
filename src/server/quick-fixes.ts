// Quick fixes for the server's own diagnostics that carry a replacement ("Did you mean …?"):
// one code action per diagnostic, replacing its range. Anything else in the request is ignored.
import * as l10n from '@vscode/l10n';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver';
import { isRecord } from '../core/util/is-record';
import { DIAGNOSTIC_SOURCE } from './to-lsp';

export function quickFixes(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    // Diagnostics come back from the client: trust only our own, and only a string replacement.
    if (d.source !== DIAGNOSTIC_SOURCE || !isRecord(d.data) || typeof d.data.replacement !== 'string') continue;
    const replacement = d.data.replacement;
    out.push({
      title: l10n.t('Replace with {0}', replacement),
      kind: CodeActionKind.QuickFix,
      diagnostics: [d],
      isPreferred: true,
      edit: { changes: { [uri]: [{ range: d.range, newText: replacement }] } },
    });
  }
  return out;
}
