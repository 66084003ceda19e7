// Says in a few words what is wrong with a record, from zod's first issue: `"task.baseSha" is
// missing`, `"gap" is not a number`, `unknown schema 2`. Short, because it goes inside a sentence.
// Every wording of a zod error is here: other modules call these, never read issues themselves.
import type { z } from 'zod';

/** A failed parse's error, from zod or zod/mini. */
type SchemaError = Pick<z.core.$ZodError, 'issues'>;

export function describeSchemaProblem(error: SchemaError): string {
  const issue = error.issues[0];
  if (!issue) return 'not the expected record';
  const where = issue.path.map(String).join('.');
  if (issue.path.length === 0) {
    if (issue.code === 'invalid_type') return `not a JSON ${issue.expected === 'object' ? 'object' : issue.expected}`;
    return issue.message;
  }
  if (where === 'schema' && (issue.code === 'invalid_value' || issue.code === 'invalid_type')) return `unknown schema ${JSON.stringify(issue.input)}`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `"${where}" is missing`;
  if (issue.code === 'invalid_type') return `"${where}" is not ${article(issue.expected)}`;
  if (issue.code === 'too_small' && issue.origin === 'string') return `"${where}" is missing`;
  if (issue.code === 'invalid_value') return `"${where}" is not one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'custom') return `"${where}" ${issue.message}`;
  if (issue.code === 'invalid_union') return `"${where}" is of unknown kind`;
  return `"${where}": ${issue.message}`;
}

/** Every issue as `where: message` (`whole` where the issue is the value itself), joined by '; '. */
export function listSchemaIssues(error: SchemaError, whole = '(the file)'): string {
  return error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : whole}: ${i.message}`).join('; ');
}

/** The first issue: the path to it, each step as text, and zod's message, for a sentence that names the field itself. */
export function firstSchemaIssue(error: SchemaError): { path: string[]; message: string } {
  const issue = error.issues[0];
  return { path: issue ? issue.path.map(String) : [], message: issue?.message ?? 'is not valid' };
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
