// The first place two JSON values differ, named by its JSON path ($.messages[3].content) and
// said in a few words: how a replayed request is told apart from the recorded one.
import { isRecord } from '../util/is-record';

const isIdentifier = (k: string): boolean => /^[A-Za-z_$][\w$]*$/.test(k);
const child = (path: string, k: string): string => (isIdentifier(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (isRecord(v)) return 'an object';
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Two strings shown from a little before where they first differ. */
function showStrings(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  const clip = (s: string) => `${from > 0 ? '…' : ''}${JSON.stringify(s.slice(from, from + 50)).slice(1, -1)}${s.length > from + 50 ? '…' : ''}`;
  return `"${clip(b)}" now, "${clip(a)}" recorded`;
}

/** The first difference between `a` (recorded) and `b` (now) as "<JSON path>: what differs". */
export function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    if (a.length !== b.length) return `${path}: ${b.length} items now, ${a.length} recorded`;
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const k of Object.keys(a)) {
      if (!(k in b) || b[k] === undefined) {
        if (a[k] === undefined) continue;
        return `${child(path, k)}: missing now, ${show(a[k])} recorded`;
      }
      const d = firstDifference(a[k], b[k], child(path, k));
      if (d) return d;
    }
    for (const k of Object.keys(b)) if (!(k in a) && b[k] !== undefined) return `${child(path, k)}: ${show(b[k])} now, missing in the recording`;
    return undefined;
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b ? undefined : `${path}: ${showStrings(a, b)}`;
  if (a === b) return undefined;
  return `${path}: ${show(b)} now, ${show(a)} recorded`;
}
