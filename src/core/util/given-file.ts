// A file the user named on the command line or in a dialog: read whole, or refused with what to give.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from './errors';

/**
 * The text of `file` and its absolute path. A missing file is refused with `whatToGive` (e.g.
 * "a predictions file (.jsonl or .json)"), any other failure with its code.
 */
export async function readGivenFile(file: string, whatToGive: string): Promise<{ abs: string; text: string }> {
  const abs = path.resolve(file);
  try {
    return { abs, text: await fs.readFile(abs, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `${abs} does not exist. Give ${whatToGive}.` : `${abs} cannot be read (${code}).`);
  }
}
