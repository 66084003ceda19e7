// File names of the per-test detail files in non-passed/.
import { createHash } from 'node:crypto';

const MAX_CHARS = 100;

function hash12(nodeid: string): string {
  return createHash('sha256').update(nodeid, 'utf8').digest('hex').slice(0, 12);
}

/**
 * The reference's rule: each character kept if alphanumeric (Unicode-aware, like Python's
 * str.isalnum) or '.', else '_'; a name over 100 characters becomes the first 100 + '_' +
 * 12 hex digits of sha256(node id) + '.json'. Short names get no suffix there.
 */
function referenceDetailFileName(nodeid: string): string {
  // With the u flag a character outside the BMP is one match, as it is one character in Python.
  const safe = nodeid.replace(/[^\p{L}\p{N}.]/gu, '_');
  if (codePointLength(safe) <= MAX_CHARS) return safe;
  return `${Array.from(safe).slice(0, MAX_CHARS).join('')}_${hash12(nodeid)}.json`;
}

/** Length in Unicode characters, as Python's len() counts. */
function codePointLength(s: string): number {
  return /[\ud800-\udfff]/.test(s) ? Array.from(s).length : s.length;
}

/**
 * Our name. DECISION: every detail file ends in `.json` (editors then open it as JSON);
 * the reference only adds the suffix to shortened long names. Long names are identical.
 */
function detailFileName(nodeid: string): string {
  const ref = referenceDetailFileName(nodeid);
  return codePointLength(nodeid) > MAX_CHARS ? ref : `${ref}.json`;
}

/**
 * Names for a set of node ids, unique within the folder. Different ids can map to the same
 * name (`t[a/b]` and `t[a_b]`), also only by case on case-insensitive file systems; the
 * reference would overwrite one detail file with the other. A clash gets the id's hash
 * appended, so every description points at its own test's file.
 */
export function detailFileNames(nodeids: Iterable<string>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const id of nodeids) {
    if (names.has(id)) continue;
    let name = detailFileName(id);
    if (taken.has(name.toLowerCase())) {
      const stem = name.slice(0, -'.json'.length);
      name = `${stem}_${hash12(id)}.json`;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}_${hash12(id)}_${n}.json`;
    }
    taken.add(name.toLowerCase());
    names.set(id, name);
  }
  return names;
}
