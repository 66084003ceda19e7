// Hostile edits of a JSON value, for the differential tests of the hand-written checks that stand
// in for a zod schema (records/plain-check.ts): each value replaced by every JSON type and the
// edges of numbers and of the enums' words, each key removed, unknown and inherited keys added,
// each key moved to the end, at every depth.

/** What replaces a value: every JSON type, the edges of the numbers, the enums' words and near misses. */
const PANEL: string[] = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e308',
  '1e999',
  '-1e999',
  '9007199254740992',
  '9007199254740991',
  '""',
  '"x"',
  '"1"',
  '"wire"',
  '"Wire"',
  '"host"',
  '"agent"',
  '"human"',
  '"sandbox"',
  '"model-only"',
  '"__proto__"',
  '[]',
  '[""]',
  '[1]',
  '["a",null]',
  '[[]]',
  '{}',
  '{"a":1}',
  '{"passed":"1"}',
  '{"__proto__":1}',
  '{"__proto__":{"kind":"agent"}}',
  '{"kind":"agent","agent":"x","tries":1}',
  '{"agent":"x","kind":"agent","tries":1}',
];

const PLACEHOLDER = '\u0000panel\u0000';

/** Key names an edit adds: unknown ones, and ones an object inherits. */
const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Sets `key` as an own property (a `__proto__` key too, as JSON.parse makes one). */
function put(o: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Every edit of `text` (one JSON value): each value replaced (by the panel's values and `more`,
 * JSON texts such as the words of the checked record's own enums), each key removed, keys added,
 * keys reordered, at every depth.
 */
export function* edits(text: string, more: readonly string[] = []): Generator<string> {
  const root = JSON.parse(text) as Json;
  const paths: string[][] = [];
  const walk = (v: Json, at: string[]) => {
    paths.push(at);
    if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk((v as Record<string, Json>)[k], [...at, k]);
  };
  walk(root, []);
  for (const at of paths) {
    const edit = (change: (parent: Record<string, Json>, key: string) => void) => {
      const copy = JSON.parse(text) as Json;
      if (at.length === 0) {
        const holder: Record<string, Json> = { v: copy };
        change(holder, 'v');
        return JSON.stringify(holder.v);
      }
      let parent = copy as Record<string, Json>;
      for (const k of at.slice(0, -1)) parent = parent[k] as Record<string, Json>;
      change(parent, at[at.length - 1]);
      return JSON.stringify(copy);
    };
    // The panel's text goes in as it is (1e999 has no JSON.stringify of its own): a placeholder, then replaced.
    for (const v of [...PANEL, ...more]) yield edit((p, k) => put(p, k, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), v);
    if (at.length > 0)
      yield edit((p, k) => {
        if (Array.isArray(p)) p.splice(Number(k), 1);
        else delete p[k];
      });
    const target = at.reduce<Json>((v, k) => (v as Record<string, Json>)[k], root);
    if (target === null || typeof target !== 'object' || Array.isArray(target)) continue;
    for (const extra of EXTRA_KEYS)
      for (const v of ['1', '"x"', '{}', 'null'])
        yield edit((p, k) => {
          const o = p[k] as Record<string, Json>;
          put(o, extra, JSON.parse(v) as Json);
        });
    // Each key moved to the end: the same fields in another order.
    for (const key of Object.keys(target))
      yield edit((p, k) => {
        const o = p[k] as Record<string, Json>;
        const value = o[key];
        delete o[key];
        put(o, key, value);
      });
  }
}
