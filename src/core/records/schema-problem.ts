// Says in a few words what is wrong with a record, from zod's first issue: `"task.baseSha" is
// missing`, `"gap" is not a number`, `unknown schema 2`. Short, because it goes inside a sentence.
import type { z } from 'zod';

export function describeSchemaProblem(error: z.ZodError): string {
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

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
