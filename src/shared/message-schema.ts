// One way to describe and check webview messages: a schema per message type (a check per
// field), from which the guard is derived. The schema's type is computed from the message
// union, so a message type or a field without its check does not compile. A message with a
// field the schema does not name is refused: a webview is untrusted content. Browser-safe.
import { isRecord } from '../core/util/is-record';

export type Check = (x: unknown) => boolean;

type Fields<M> = { [F in Exclude<keyof M, 'type'>]-?: Check };

/** For each message type of the union M, a check per field (every field, optional ones included). */
export type MessageSchema<M extends { type: string }> = { [T in M['type']]: Fields<Extract<M, { type: T }>> };

const isObj = isRecord;

export const str: Check = (x) => typeof x === 'string';
export const bool: Check = (x) => typeof x === 'boolean';
export const num: Check = (x) => typeof x === 'number' && Number.isFinite(x);
/** A non-negative integer. */
export const int: Check = (x) => Number.isInteger(x) && (x as number) >= 0;
/** A request's id: the reply carries it back, so a late reply to an old request is recognised. */
export const requestId: Check = (x) => Number.isSafeInteger(x) && (x as number) >= 0;
export const optional =
  (c: Check): Check =>
  (x) =>
    x === undefined || c(x);
export const arrayOf =
  (c: Check): Check =>
  (x) =>
    Array.isArray(x) && x.every(c);
export const oneOf =
  (...values: readonly unknown[]): Check =>
  (x) =>
    values.includes(x);

/** The guard a schema describes. */
export function guardFor<M extends { type: string }>(schema: MessageSchema<M>): (x: unknown) => x is M {
  const table = schema as unknown as Record<string, Record<string, Check>>;
  return (x: unknown): x is M => {
    if (!isObj(x) || typeof x.type !== 'string' || !Object.prototype.hasOwnProperty.call(table, x.type)) return false;
    const fields = table[x.type];
    for (const key of Object.keys(x)) if (key !== 'type' && !Object.prototype.hasOwnProperty.call(fields, key)) return false;
    for (const [key, check] of Object.entries(fields)) if (!check(x[key])) return false;
    return true;
  };
}
