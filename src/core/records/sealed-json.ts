// A record that only its own module writes and that is read far more often than written (the
// summary cache): checked against its schema when sealed, and on read by the SHA-256 of its bytes
// alone, which is far cheaper than the schema over thousands of files. The digest leads the text,
// `{"digest":"<hex>",…rest of the value}`, so the file stays one JSON object.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { describeSchemaProblem } from './schema-problem';

const OPEN = '{"digest":"';
const HEX = 64;

const digestOf = (body: string): string => createHash('sha256').update(body).digest('hex');

/** The value's text with its digest in front; a value that fails its schema is a bug, and thrown. */
export function sealJson<S extends z.ZodType>(schema: S, value: z.input<S>, what: string): string {
  const checked = schema.safeParse(value);
  if (!checked.success) throw new Error(`refusing to write ${what}: ${describeSchemaProblem(checked.error)}`);
  const body = JSON.stringify(value);
  return `${OPEN}${digestOf(body)}",${body.slice(1)}\n`;
}

/**
 * The value sealJson wrote, when `text` is such a text and its digest holds (the bytes are the ones
 * checked against the schema then); undefined for anything else. T is the sealing schema's type.
 */
export function unsealJson<T>(text: string): T | undefined {
  const hexEnd = OPEN.length + HEX;
  if (!text.startsWith(OPEN) || !text.startsWith('",', hexEnd)) return undefined;
  const body = `{${text.slice(hexEnd + 2).trimEnd()}`;
  if (digestOf(body) !== text.slice(OPEN.length, hexEnd)) return undefined;
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
}
