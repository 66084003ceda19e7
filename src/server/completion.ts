// Completion in requirement.xml: the protocol's element names where they belong (a whole
// requirement as a snippet), and inside <acceptance> the node ids of the non-passed tests.
import * as l10n from '@vscode/l10n';
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { REQUIREMENT_FIELDS } from '../core/requirement/requirement-document';
import type { RequirementContext } from '../core/requirement/requirement-context';
import { xmlCursor } from './xml-cursor';

// Functions: the server configures l10n when it starts (initializationOptions), after this module loads.
const FIELD_HINTS: Record<(typeof REQUIREMENT_FIELDS)[number], () => string> = {
  location: () => l10n.t('The file (and function or class) under app/code to change, e.g. pkg/mod.py::Class.method'),
  description: () => l10n.t('What must change, and why'),
  contract: () => l10n.t('The behaviour the change must have: inputs, outputs, errors'),
  acceptance: () => l10n.t('The tests that must pass afterwards, by node id'),
};

const REQUIREMENT_SNIPPET = [
  'requirement>',
  '\t<location>${1:pkg/module.py}</location>',
  '\t<description>${2}</description>',
  '\t<contract>${3}</contract>',
  '\t<acceptance>${4}</acceptance>',
  '</requirement>',
].join('\n');

export function completionsAt(doc: TextDocument, offset: number, context: RequirementContext | undefined): CompletionItem[] {
  const text = doc.getText();
  const cursor = xmlCursor(text, offset);
  if (cursor.inMarkup) return [];
  const range = (start: number) => ({ start: doc.positionAt(start), end: doc.positionAt(offset) });
  const open = cursor.open.map((n) => n.toLowerCase());
  const top = open[open.length - 1];

  if (cursor.tagName?.closing) {
    if (!top) return [];
    const name = cursor.open[cursor.open.length - 1];
    return [{ label: `/${name}`, kind: CompletionItemKind.Property, filterText: name, textEdit: { range: range(cursor.tagName.start), newText: `${name}>` } }];
  }
  if (cursor.tagName) {
    const at = cursor.tagName.start;
    if (open.length === 0) {
      return [
        {
          // An element's name, not text: the same in every language.
          // eslint-disable-next-line sweci/no-inline-ui-string
          label: 'requirements',
          kind: CompletionItemKind.Module,
          detail: l10n.t('The root: 1 to 5 requirements'),
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: { range: range(at), newText: `requirements>\n\t<${REQUIREMENT_SNIPPET.replace(/\n/g, '\n\t')}\n</requirements>` },
        },
      ];
    }
    if ((REQUIREMENT_FIELDS as readonly string[]).includes(top)) return [];
    if (open.length === 1) {
      return [
        {
          // An element's name, not text: the same in every language.
          // eslint-disable-next-line sweci/no-inline-ui-string
          label: 'requirement',
          kind: CompletionItemKind.Class,
          detail: l10n.t('One requirement with its four fields'),
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: { range: range(at), newText: REQUIREMENT_SNIPPET },
        },
      ];
    }
    return REQUIREMENT_FIELDS.map((field, i) => ({
      label: field,
      kind: CompletionItemKind.Field,
      detail: FIELD_HINTS[field](),
      sortText: String(i),
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range: range(at), newText: `${field}>$0</${field}>` },
    }));
  }
  if (top === 'acceptance' && context) {
    // Replace the node id being typed (it may hold '/', ':', '[' …).
    const typed = /[\w./:[\]-]*$/.exec(text.slice(Math.max(0, offset - 500), offset))?.[0] ?? '';
    return [...context.summary.values()].map((entry) => ({
      label: entry.nodeid,
      kind: CompletionItemKind.Reference,
      detail: `${entry.kind}${entry.stage ? ` at ${entry.stage}` : ''}`,
      documentation: entry.reason,
      textEdit: { range: range(offset - typed.length), newText: entry.nodeid },
    }));
  }
  return [];
}
