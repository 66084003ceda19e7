// A record that only its own module writes and that is read far more often than written (the
// summary cache). Its text carries the SHA-256 of its body, `{"digest":"<hex>",…rest of the
// value}` (one JSON object still), so a file damaged or edited by hand reads as no record. The
// value is checked on write and on read by a hand-written check that stands in for its schema
// (records/plain-check.ts): the digest is no defence against whoever can write the file, and the
// check is what keeps a hostile one from reaching the code that uses it.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { describeSchemaProblem } from './schema-problem';

const OPEN = '{"digest":"';
const HEX = 64;

const digestOf = (body: string): string => createHash('sha256').update(body).digest('hex');

/**
 * The value's text with its digest in front. A value `check` refuses is a bug, and thrown, in the
 * schema's words (or, when the schema takes it, as keys out of the schema's order).
 */
export function sealJson<S extends z.ZodType>(schema: S, check: (v: unknown) => boolean, value: z.input<S>, what: string): string {
  if (!check(value)) {
    const checked = schema.safeParse(value);
    throw new Error(
      `refusing to write ${what}: ${checked.success ? "its fields are not the schema's alone, in the schema's order" : describeSchemaProblem(checked.error)}`,
    );
  }
  const body = JSON.stringify(value);
  return `${OPEN}${digestOf(body)}",${body.slice(1)}\n`;
}

/**
 * The value sealJson wrote, when `text` is such a text, its digest holds and `check` passes the
 * value; undefined for anything else.
 */
export function unsealJson<T>(text: string, check: (v: unknown) => v is T): T | undefined {
  const hexEnd = OPEN.length + HEX;
  if (!text.startsWith(OPEN) || !text.startsWith('",', hexEnd)) return undefined;
  const body = `{${text.slice(hexEnd + 2).trimEnd()}`;
  if (digestOf(body) !== text.slice(OPEN.length, hexEnd)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  return check(value) ? value : undefined;
}
