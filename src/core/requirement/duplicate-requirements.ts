// Two requirements with the same four fields (whitespace aside) ask for one change twice.
import type { Diagnostic } from './diagnostic';
import { worded } from './diagnostic-wording';
import { REQUIREMENT_FIELDS, type RequirementParseResult } from './requirement-document';

export function duplicateRequirementWarnings(result: RequirementParseResult): Diagnostic[] {
  if (!result.ok) return [];
  const seen = new Map<string, { name: string; index: number }>();
  const out: Diagnostic[] = [];
  for (const item of result.items) {
    const key = REQUIREMENT_FIELDS.map((f) => (item.fields[f]?.text ?? '').replace(/\s+/g, ' ')).join('\u0000');
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, { name: item.name, index: item.index });
      continue;
    }
    const r = item.startTag;
    out.push({
      // Two items with one id are told apart by their positions.
      ...(first.name === item.name
        ? worded('duplicateRequirementAt', item.name, item.index, first.name, first.index)
        : worded('duplicateRequirement', item.name, first.name)),
      line: r.line,
      column: r.column,
      endLine: r.endLine,
      endColumn: r.endColumn,
      severity: 'warning',
      code: 'duplicate-requirement',
    });
  }
  return out;
}
