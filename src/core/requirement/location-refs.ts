// The files (and symbols) a <location> names. Convention, as agents write it:
//   `pkg/mod.py`, `pkg/mod.py::func`, `pkg/mod.py::Class::method`, `pkg/mod.py:Class.method`,
//   `pkg/mod.py: class Thing` / `pkg/mod.py: def func`.
// Several files in one location are all found. A leading `app/code/`, `/app/code/` or `./`
// is dropped: paths are relative to app/code.

export interface LocationRef {
  /** Posix path relative to app/code. */
  file: string;
  /** E.g. ['Class', 'method']; absent when the location names only the file. */
  symbol?: string[];
  /** Offsets of the path as written, in the string searched. */
  start: number;
  end: number;
}

const FILE_EXTENSIONS = 'py|pyi|pyx|pxd|txt|cfg|toml|ini|json|yaml|yml|md|rst|c|h|cc|cpp|hpp|js|ts|html|css|sh|csv|xml';
const FILE_RE = new RegExp(`(?<![\\w./-])(?:[\\w.-]+/|/)*[\\w-][\\w.-]*\\.(?:${FILE_EXTENSIONS})(?![\\w/-])`, 'g');
const SYMBOL_RE = /^\s*::?\s*(?:(?:class|def|async def|function|method)\s+)?([A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)*)/;

export function findLocationRefs(raw: string): LocationRef[] {
  const out: LocationRef[] = [];
  for (const m of raw.matchAll(FILE_RE)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const file = m[0]
      .replace(/^\/?app\/code\//, '')
      .replace(/^(?:\.\/)+/, '')
      .replace(/^\/+/, '');
    const ref: LocationRef = { file, start, end };
    const sym = SYMBOL_RE.exec(raw.slice(end, end + 200));
    if (sym) ref.symbol = sym[1].split(/\.|::/);
    out.push(ref);
  }
  return out;
}

/**
 * Whether a location marks its files as new (so they need not exist yet): the <location>
 * element has new="true", or its text says "(new)" / "(new file)".
 */
export function locationIsNew(text: string, attributes: Record<string, string>): boolean {
  return (attributes.new ?? '').toLowerCase() === 'true' || /\(new(?: file)?\)/i.test(text);
}

/**
 * 0-based line of a `class`/`def` named by `symbol` in Python source: each name after the
 * first is looked for in the body (deeper indentation) of the one before. Undefined when absent.
 */
export function findSymbolLine(source: string, symbol: readonly string[]): number | undefined {
  const lines = source.split(/\r\n|\r|\n/);
  let from = 0;
  let minIndent = -1;
  let found: number | undefined;
  for (const name of symbol) {
    found = undefined;
    const re = new RegExp(`^(\\s*)(?:async\\s+def|def|class)\\s+${name}\\b`);
    for (let i = from; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === '') continue;
      const indent = line.length - line.trimStart().length;
      // Left the parent's body.
      if (minIndent >= 0 && indent <= minIndent && i > from) break;
      const m = re.exec(line);
      if (m && m[1].length > minIndent) {
        found = i;
        minIndent = m[1].length;
        from = i + 1;
        break;
      }
    }
    if (found === undefined) return undefined;
  }
  return found;
}
