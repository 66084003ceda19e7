// Small hand-written checks of JSON values (JSON.parse's output: plain objects and arrays, no
// undefined, no accessors) that stand in for a zod schema on a hot read path. Each answers "the
// schema accepts this value and returns it as it is" (true) or "not sure" (false), never "valid"
// for what the schema refuses. Objects pass only with known keys in the schema's order and no
// `__proto__` key (zod returns its shape's keys in that order and drops unknown ones), so a value
// that passes is exactly what the schema would return. Each use is held to its schema by a
// differential test over hostile edits (test/unit/helpers/json-edits.ts).
export type Check = (v: unknown) => boolean;

/** A field's check and whether the schema lets it be absent. */
export interface FieldCheck {
  check: Check;
  optional: boolean;
}

/** z.number(): finite (JSON's 1e999 parses to Infinity, which zod refuses). */
export const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
export const str: Check = (v) => typeof v === 'string';
export const bool: Check = (v) => typeof v === 'boolean';
/** z.number().int().nonnegative() (zod's integers are safe integers). */
export const count: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
export const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
export const numOrNull: Check = nullable(num);
export const literal =
  (value: string | number): Check =>
  (v) =>
    v === value;
export const oneOf =
  (...values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
/** z.array(item), with z's .max(max) when given. */
export const arrayOf =
  (item: Check, max = Infinity): Check =>
  (v) => {
    if (!Array.isArray(v) || v.length > max) return false;
    for (const x of v) if (!item(x)) return false;
    return true;
  };
export const strings: Check = arrayOf(str);

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** z.record(z.string(), z.number()). */
export const numberRecord: Check = (v) => {
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) if (k === '__proto__' || !num(v[k])) return false;
  return true;
};

export const req = (check: Check): FieldCheck => ({ check, optional: false });
export const opt = (check: Check): FieldCheck => ({ check, optional: true });

/** z.object(fields) for a value whose keys are all known and in the fields' order. */
export function object(fields: Record<string, FieldCheck>): Check {
  const names = Object.keys(fields);
  const specs = names.map((n) => fields[n]);
  return (v) => {
    if (!isPlainObject(v)) return false;
    let at = 0;
    for (const k of Object.keys(v)) {
      // Fields skipped on the way to k must be optional ones.
      while (at < names.length && names[at] !== k) if (!specs[at++].optional) return false;
      if (at === names.length || !specs[at++].check(v[k])) return false;
    }
    while (at < names.length) if (!specs[at++].optional) return false;
    return true;
  };
}
