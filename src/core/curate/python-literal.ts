// Reads the dependency arguments of a setup.py without running it: each keyword such as
// `install_requires=[...]` whose value is a literal (strings, lists, tuples, dicts of them). A
// setup.py is a program: when a keyword's value is anything else (a variable, a call, a
// comprehension), the caller counts the whole file instead.

export type PyLiteral = string | PyLiteral[] | { [key: string]: PyLiteral };

class NotLiteral extends Error {}

/** Parses one Python literal starting at `text[start]`; returns it and where it ends. Throws NotLiteral. */
function parseLiteral(text: string, start: number): { value: PyLiteral; end: number } {
  let at = start;
  const skip = (): void => {
    for (;;) {
      const ws = /^(?:\s+|#[^\n]*|\\\n)/.exec(text.slice(at, at + 4096));
      if (!ws || ws[0] === '') return;
      at += ws[0].length;
    }
  };
  const str = (): string | undefined => {
    const m = /^([rRuU]?)('''|"""|'|")/.exec(text.slice(at, at + 4));
    if (!m) return undefined;
    const raw = m[1] !== '' && m[1].toLowerCase() === 'r';
    const quote = m[2];
    let i = at + m[0].length;
    let out = '';
    for (;;) {
      if (i >= text.length) throw new NotLiteral();
      if (text.startsWith(quote, i)) break;
      const c = text[i];
      if (c === '\n' && quote.length === 1) throw new NotLiteral();
      if (c === '\\' && !raw) {
        out += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    at = i + quote.length;
    return out;
  };
  const value = (): PyLiteral => {
    skip();
    const first = str();
    if (first !== undefined) {
      // Adjacent strings are one string in Python.
      let joined = first;
      for (;;) {
        skip();
        const next = str();
        if (next === undefined) return joined;
        joined += next;
      }
    }
    const open = text[at];
    if (open === '[' || open === '(') {
      const close = open === '[' ? ']' : ')';
      at++;
      const items: PyLiteral[] = [];
      for (;;) {
        skip();
        if (text[at] === close) {
          at++;
          return items;
        }
        items.push(value());
        skip();
        if (text[at] === ',') at++;
        else if (text[at] !== close) throw new NotLiteral();
      }
    }
    if (open === '{') {
      at++;
      const dict: { [key: string]: PyLiteral } = {};
      for (;;) {
        skip();
        if (text[at] === '}') {
          at++;
          return dict;
        }
        const key = value();
        if (typeof key !== 'string') throw new NotLiteral();
        skip();
        if (text[at] !== ':') throw new NotLiteral();
        at++;
        dict[key] = value();
        skip();
        if (text[at] === ',') at++;
        else if (text[at] !== '}') throw new NotLiteral();
      }
    }
    throw new NotLiteral();
  };
  const v = value();
  return { value: v, end: at };
}

export const SETUP_PY_KEYWORDS = ['install_requires', 'extras_require', 'tests_require', 'setup_requires', 'python_requires'] as const;
export type SetupPyKeyword = (typeof SETUP_PY_KEYWORDS)[number];

/**
 * The literal value of each dependency keyword of a setup.py, or undefined when one of those
 * names appears in any other form (a dict key, a variable, a non-literal value): then only the
 * whole file says what the dependencies are.
 */
export function setupPyArguments(text: string): Partial<Record<SetupPyKeyword, PyLiteral[]>> | undefined {
  const found: Partial<Record<SetupPyKeyword, PyLiteral[]>> = {};
  const word = new RegExp(`\\b(${SETUP_PY_KEYWORDS.join('|')})\\b`, 'g');
  for (const m of text.matchAll(word)) {
    const key = m[1] as SetupPyKeyword;
    const after = /^\s*=(?!=)/.exec(text.slice(m.index + key.length));
    const before = text.slice(Math.max(0, m.index - 200), m.index);
    // A keyword argument: `(` or `,` before it (comments and spaces aside), `=` after it.
    if (!after || !/[(,]\s*(?:#[^\n]*\s*)*$/.test(before)) return undefined;
    try {
      const { value, end } = parseLiteral(text, m.index + key.length + after[0].length);
      if (!/^\s*(?:#[^\n]*\s*)*[,)]/.test(text.slice(end))) return undefined; // `[...] + extra`: not a literal
      (found[key] ??= []).push(value);
    } catch (err) {
      if (err instanceof NotLiteral) return undefined;
      throw err;
    }
  }
  return found;
}
