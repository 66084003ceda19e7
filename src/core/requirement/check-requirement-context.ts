// Warnings that need the task: a <location> naming a file app/code does not have (unless the
// location marks it new, see locationIsNew) and an <acceptance> naming a test nobody knows.
// Pure, so the language server and the loop share it.
import { nearestTestId } from './nearest-test-id';
import type { Diagnostic } from './diagnostic';
import { worded } from './diagnostic-wording';
import { findLocationRefs, locationIsNew } from './location-refs';
import { baseNodeId, findNodeIds } from './node-ids';
import { LineIndex } from './positions';
import { stripBom, type RequirementParseResult } from './requirement-document';

/** "Did you mean" guesses per document. */
const MAX_GUESSES = 20;

export interface RequirementCheckContext {
  codeFiles: ReadonlySet<string>;
  /** When false, a file missing from codeFiles may still exist: no warning is given. */
  codeFilesComplete: boolean;
  knownTests: ReadonlySet<string>;
}

/** `input` is the text that was parsed into `result`. */
export function checkRequirementContext(input: string, result: RequirementParseResult, context: RequirementCheckContext): Diagnostic[] {
  if (!result.ok) return [];
  const text = stripBom(input);
  const lines = new LineIndex(text);
  const out: Diagnostic[] = [];
  const warn = (code: Diagnostic['code'], text: ReturnType<typeof worded>, start: number, end: number, replacement?: string) => {
    const r = lines.range(start, end);
    out.push({
      ...text,
      line: r.line,
      column: r.column,
      endLine: r.endLine,
      endColumn: r.endColumn,
      severity: 'warning',
      code,
      ...(replacement ? { replacement } : {}),
    });
  };
  let guesses = 0;
  for (const item of result.items) {
    const location = item.spans.location;
    if (location && context.codeFilesComplete && !locationIsNew(item.fields.location?.text ?? '', location.attributes)) {
      const raw = text.slice(location.contentStart, location.contentEnd);
      for (const ref of findLocationRefs(raw)) {
        if (context.codeFiles.has(ref.file)) continue;
        warn('missing-location-file', worded('missingLocationFile', item.name, ref.file), location.contentStart + ref.start, location.contentStart + ref.end);
      }
    }
    const acceptance = item.spans.acceptance;
    if (acceptance) {
      const raw = text.slice(acceptance.contentStart, acceptance.contentEnd);
      for (const ref of findNodeIds(raw)) {
        if (context.knownTests.has(ref.id) || context.knownTests.has(baseNodeId(ref.id))) continue;
        // A few guesses per document: a pasted list of a thousand wrong ids must not stall the editor.
        const near = guesses++ < MAX_GUESSES ? nearestTestId(ref.id, context.knownTests) : undefined;
        warn(
          'unknown-test',
          near ? worded('unknownTestNear', item.name, ref.id, near) : worded('unknownTest', item.name, ref.id),
          acceptance.contentStart + ref.start,
          acceptance.contentStart + ref.end,
          near,
        );
      }
    }
  }
  return out;
}
