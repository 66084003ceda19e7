// The one validation of requirement.xml: the loop's Architect step (agent or human) and the
// language server both call it, so what the editor underlines is what the loop refuses.
// Errors make the document unusable; warnings are shown and recorded but do not fail a step.
import { readAgentFile } from '../util/agent-file';
import { checkRequirementContext, type RequirementCheckContext } from './check-requirement-context';
import type { Diagnostic } from './diagnostic';
import { worded } from './diagnostic-wording';
import { duplicateRequirementWarnings } from './duplicate-requirements';
import { parseRequirementDocument, type RequirementParseResult } from './requirement-document';

/**
 * A requirement document (1 to 5 short items) is a few kilobytes; far beyond that it is not one,
 * and the parser would keep the editor waiting (about 1 ms per 4 KB of elements).
 */
export const MAX_REQUIREMENT_CHARS = 64 * 1024;
/** The most bytes so many characters take in UTF-8. */
export const MAX_REQUIREMENT_BYTES = 4 * MAX_REQUIREMENT_CHARS;

export interface RequirementValidation {
  result: RequirementParseResult;
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/** `context` adds the checks that need the task (files under app/code, known tests). */
export function validateRequirement(text: string, context?: RequirementCheckContext): RequirementValidation {
  if (text.length > MAX_REQUIREMENT_CHARS) {
    const tooLarge: Diagnostic = {
      ...worded('tooLarge', text.length, MAX_REQUIREMENT_CHARS),
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1 + Math.min(text.length, /[\r\n]/.exec(text.slice(0, 10_000))?.index ?? 10_000),
      severity: 'error',
      code: 'too-large',
    };
    const result: RequirementParseResult = { ok: false, errors: [tooLarge] };
    return { result, errors: result.errors, warnings: [] };
  }
  const result = parseRequirementDocument(text);
  if (!result.ok) return { result, errors: result.errors, warnings: [] };
  const warnings = [...result.warnings, ...duplicateRequirementWarnings(result), ...(context ? checkRequirementContext(text, result, context) : [])];
  warnings.sort((a, b) => a.line - b.line || a.column - b.column);
  return { result, errors: [], warnings };
}

/** The file on disk; a missing file is an error of its own ("the Architect wrote nothing"). */
export async function validateRequirementFile(file: string, context?: RequirementCheckContext): Promise<RequirementValidation> {
  // The Architect wrote it: a link (to the oracle, to the run's records) is not followed, and a
  // file too large to be a requirement document is refused before it is read.
  const read = await readAgentFile(file, MAX_REQUIREMENT_BYTES);
  const failed = (message: string, code: Diagnostic['code']): RequirementValidation => {
    const error: Diagnostic = { message, line: 1, column: 1, severity: 'error', code };
    return { result: { ok: false, errors: [error] }, errors: [error], warnings: [] };
  };
  if (read.kind === 'missing') return failed(`${file} was not written.`, 'missing-file');
  if (read.kind === 'not-a-file') return failed(`${file} is a link or not a regular file: write the document itself.`, 'not-a-file');
  if (read.kind === 'too-large') {
    return failed(
      `requirement.xml has ${read.size} bytes; a requirement document is at most ${MAX_REQUIREMENT_CHARS} characters (${MAX_REQUIREMENT_BYTES} bytes). Write 1 to 5 short requirements.`,
      'too-large',
    );
  }
  return validateRequirement(read.data.toString('utf8'), context);
}
