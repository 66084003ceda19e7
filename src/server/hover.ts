// Hover on a test node id: what the task knows of it (its kind and reason when it is among the
// non-passed tests). The reason is pytest's text, written by the code under test: it is shown
// as a code block, never as markdown.
import * as l10n from '@vscode/l10n';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { baseNodeId, findNodeIds } from '../core/requirement/node-ids';
import type { RequirementContext } from '../core/requirement/requirement-context';

const MAX_REASON_CHARS = 2000;

export function hoverAt(doc: TextDocument, offset: number, context: RequirementContext | undefined): Hover | null {
  const pos = doc.positionAt(offset);
  const lineStart = doc.offsetAt({ line: pos.line, character: 0 });
  const line = doc.getText({ start: { line: pos.line, character: 0 }, end: { line: pos.line + 1, character: 0 } });
  const ref = findNodeIds(line).find((r) => r.start <= offset - lineStart && offset - lineStart <= r.end);
  if (!ref) return null;
  const range = { start: doc.positionAt(lineStart + ref.start), end: doc.positionAt(lineStart + ref.end) };
  return { contents: describeTest(ref.id, context), range };
}

export function describeTest(id: string, context: RequirementContext | undefined): MarkupContent {
  const parts = [codeSpan(id)];
  const entry = context?.summary.get(id) ?? context?.summary.get(baseNodeId(id));
  if (entry) {
    parts.push(
      entry.stage
        ? l10n.t('**{0}** at {1} stage: does not pass at the current code (app/non-passed/summary.jsonl).', entry.kind, entry.stage)
        : l10n.t('**{0}**: does not pass at the current code (app/non-passed/summary.jsonl).', entry.kind),
    );
    const reason = entry.reason ?? entry.description;
    if (reason) parts.push(codeBlock(reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason));
  } else if (!context) {
    parts.push(l10n.t('The task could not be read: nothing is known of this test.'));
  } else if (context.knownTests.has(id) || context.knownTests.has(baseNodeId(id))) {
    parts.push(l10n.t('A test function in app/code; it is not among the non-passed tests.'));
  } else {
    parts.push(l10n.t('**Not a known test**: neither among the non-passed tests nor found in app/code’s test files.'));
  }
  return { kind: 'markdown', value: parts.join('\n\n') };
}

/** A fence longer than any backtick run in the text, so the text cannot close it. */
export function codeBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const tick = '`'.repeat(longest + 1);
  return `${tick} ${text} ${tick}`;
}
