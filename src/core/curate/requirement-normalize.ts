// One canonical text per PEP 508 requirement, so that two spellings of the same dependency compare
// equal: the name as PEP 503 normalizes it, extras normalized and sorted, the specifier's clauses
// without spaces and sorted, the marker re-spaced with one quote style. Only what changes the
// meaning of a requirement survives; `Foo_Bar [b,a] >= 1.0 ; python_version<'3.9'` and
// `foo-bar[A,B]>=1.0;python_version < "3.9"` give the same text.

/** PEP 503: lower case, every run of `-`, `_` and `.` one `-`. Also used for extras and group names (PEP 685, PEP 735). */
export function normalizeName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');
}

/** A specifier such as `>= 1.0, <2` or `(<2,>=1.0)` as `<2,>=1.0`: clauses without spaces, lower case, sorted. */
export function normalizeSpecifier(spec: string): string {
  const inner = spec.trim().replace(/^\((.*)\)$/s, '$1');
  const clauses = inner
    .split(',')
    .map((c) => c.replace(/\s+/g, '').toLowerCase())
    .filter((c) => c !== '');
  return [...new Set(clauses)].sort().join(',');
}

const MARKER_TOKEN = /\s*(?:("[^"]*"|'[^']*')|(===|==|!=|<=|>=|~=|<|>)|(\(|\))|([A-Za-z_][A-Za-z0-9_.]*))/y;

/** A marker with canonical spacing and double quotes: `python_version < "3.9" and extra == "test"`. */
function normalizeMarker(marker: string): string {
  const out: string[] = [];
  MARKER_TOKEN.lastIndex = 0;
  const text = marker.trim();
  let at = 0;
  while (at < text.length) {
    MARKER_TOKEN.lastIndex = at;
    const m = MARKER_TOKEN.exec(text);
    if (!m) return text.replace(/\s+/g, ' '); // not a marker we can read: compare it as written, spaces collapsed
    at = MARKER_TOKEN.lastIndex;
    if (m[1] !== undefined) out.push(`"${m[1].slice(1, -1)}"`);
    else if (m[2] !== undefined) out.push(m[2]);
    else if (m[3] !== undefined) out.push(m[3]);
    else {
      const word = m[4];
      const lower = word.toLowerCase();
      out.push(lower === 'and' || lower === 'or' || lower === 'not' || lower === 'in' ? lower : word);
    }
    if (/^\s*$/.test(text.slice(at))) break;
  }
  // A value compared to `extra` is an extra name: normalized as one (PEP 685).
  for (let i = 2; i < out.length; i++) {
    if (out[i - 2] === 'extra' && out[i - 1] === '==' && out[i].startsWith('"')) out[i] = `"${normalizeName(out[i].slice(1, -1))}"`;
  }
  return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}

const REQUIREMENT = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[([^\]]*)\])?\s*(.*)$/s;

/**
 * The canonical text of one requirement line (without comments or pip options). A line that is
 * not a PEP 508 requirement keeps its text with spaces collapsed, so it still compares.
 */
export function normalizeRequirement(line: string): string {
  const m = REQUIREMENT.exec(line);
  if (!m) return line.trim().replace(/\s+/g, ' ');
  const name = normalizeName(m[1]);
  const extras =
    m[2] === undefined
      ? []
      : [
          ...new Set(
            m[2]
              .split(',')
              .map(normalizeName)
              .filter((e) => e !== ''),
          ),
        ].sort();
  let rest = m[3].trim();
  let url = '';
  if (rest.startsWith('@')) {
    // `name @ url ; marker`: the marker needs a space before its `;` (PEP 508), a url may hold `;`.
    const cut = rest.search(/\s;/);
    url = (cut < 0 ? rest.slice(1) : rest.slice(1, cut)).trim();
    rest = cut < 0 ? '' : rest.slice(cut).trim();
  }
  let marker = '';
  const semi = rest.indexOf(';');
  if (semi >= 0) {
    marker = normalizeMarker(rest.slice(semi + 1));
    rest = rest.slice(0, semi);
  }
  const spec = url ? ` @ ${url}` : normalizeSpecifier(rest);
  return `${name}${extras.length ? `[${extras.join(',')}]` : ''}${spec}${marker ? `; ${marker}` : ''}`;
}
