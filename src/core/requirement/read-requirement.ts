// Reads requirement.xml from disk; a missing file is a diagnostic, not an exception, so the
// loop can tell "the Architect wrote nothing" from "the Architect wrote something broken".
import { promises as fs } from 'node:fs';
import { parseRequirementDocument, type RequirementParseResult } from './requirement-document';

export async function readRequirementFile(file: string): Promise<RequirementParseResult> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return {
        ok: false,
        errors: [{ message: `${file} was not written.`, line: 1, column: 1, severity: 'error', code: 'missing-file' }],
      };
    }
    throw err;
  }
  return parseRequirementDocument(text);
}
