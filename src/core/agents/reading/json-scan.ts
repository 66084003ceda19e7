// Tolerant JSON extraction from agent output: the JSON an agent prints may be surrounded by
// log lines, split into JSON Lines, or be an array of messages. Never throws.
import { isRecord } from '../../util/is-record';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function tryParse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

export function isObject(v: unknown): v is JsonObject {
  return isRecord(v);
}

/** A finite, non-negative number, or undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** Adds numbers where present; undefined when none is. */
export function sum(...values: (number | undefined)[]): number | undefined {
  let total: number | undefined;
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v;
  return total;
}

/**
 * Every top-level JSON value in `text`: the whole text if it parses, else each line that does,
 * else the span from a line opening JSON (`{` or `[` as JSON starts, not a log line's "[Routing]")
 * to the last closing `}`/`]`: pretty-printed JSON after a log preamble. The lines that open
 * JSON are tried in order, so a preamble line that does not parse is got past. Array values are
 * flattened into their elements.
 */
export function jsonValues(text: string): Json[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const whole = tryParse(trimmed);
  if (whole !== undefined) return flatten([whole]);
  const values: Json[] = [];
  for (const line of trimmed.split(/\r?\n/)) {
    const t = line.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      const v = tryParse(t);
      if (v !== undefined) values.push(v);
    }
  }
  if (values.length > 0) return flatten(values);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  let tries = 0;
  for (const m of trimmed.matchAll(JSON_OPENING_LINE)) {
    const start = m.index;
    if (start >= end || ++tries > MAX_SPAN_TRIES) break;
    const v = tryParse(trimmed.slice(start, end + 1));
    if (v !== undefined) return flatten([v]);
  }
  return [];
}

/** A line whose first character opens a JSON object or array: `{` then a key or `}`, `[` then a value or `]` (or the line ends). */
const JSON_OPENING_LINE = /^(?:\{(?=[ \t\r]*(?:$|["}]))|\[(?=[ \t\r]*(?:$|[\][{"\d-]|true|false|null)))/gm;

/** Each try parses the rest of the text: a bound on the work for output with many bracketed lines. */
const MAX_SPAN_TRIES = 32;

function flatten(values: Json[]): Json[] {
  return values.flatMap((v) => (Array.isArray(v) ? v : [v]));
}
