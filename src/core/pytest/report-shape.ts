// A report's shape, measured before it is parsed. The code under test can write what the harness
// reads (a report file, or frames on the report channel if it takes hold of it), and a parser's
// memory grows with nesting and with the count of values, not only with bytes: 120 MB of nested
// arrays take JSON.parse to ~6 GB. One pass over the text, no allocation; past a limit the report
// is not parsed and the reason names the limit.

/** Nesting deeper than this is refused (pytest-json-report nests ~8 levels; metadata a few more). */
export const MAX_REPORT_DEPTH = 128;
/** Objects and arrays (or XML elements) past this are refused (pytest-json-report has ~6 per test). */
export const MAX_REPORT_CONTAINERS = 1_000_000;
/** JSON values of any kind (or XML attributes and elements) past this are refused (~25 per test). */
export const MAX_REPORT_VALUES = 4_000_000;

const QUOTE = 34;
const BACKSLASH = 92;

/** Why a JSON text is too deep or too large to parse, or undefined when it may be parsed. */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  let containers = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return undefined; // unterminated: the parser says so
    } else if (c === 91 || c === 123) {
      // [ {
      if (++depth > MAX_REPORT_DEPTH) return `it nests deeper than ${MAX_REPORT_DEPTH} levels`;
      if (++containers > MAX_REPORT_CONTAINERS) return `it holds more than ${MAX_REPORT_CONTAINERS.toLocaleString('en')} objects and arrays`;
      if (++values > MAX_REPORT_VALUES) return tooMany();
    } else if (c === 93 || c === 125) {
      depth--;
    } else if (c === 44) {
      // each comma starts one more element or member
      if (++values > MAX_REPORT_VALUES) return tooMany();
    }
  }
  return undefined;
}

/** Why an XML text is too deep or too large to parse (or has a DOCTYPE), or undefined. */
export function xmlShapeProblem(text: string): string | undefined {
  let depth = 0;
  let elements = 0;
  let nodes = 0;
  for (let i = text.indexOf('<'); i >= 0 && i < text.length; i = text.indexOf('<', i)) {
    if (text.startsWith('<!--', i)) i = after(text, '-->', i);
    else if (text.startsWith('<![CDATA[', i)) i = after(text, ']]>', i);
    else if (text.startsWith('<?', i)) i = after(text, '?>', i);
    // Entity declarations expand without bound; pytest never writes a DOCTYPE.
    else if (text.startsWith('<!', i)) return 'it has a DOCTYPE or declaration, which pytest never writes';
    else if (text.charCodeAt(i + 1) === 47) {
      depth--;
      i = after(text, '>', i);
    } else {
      // An opening tag: its attributes count, quoted values may hold '>'.
      let j = i + 1;
      let quote = 0;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (quote) {
          if (c === quote) quote = 0;
        } else if (c === QUOTE || c === 39) quote = c;
        else if (c === 61 && ++nodes > MAX_REPORT_VALUES) return tooMany('elements and attributes');
        else if (c === 62) break;
      }
      if (++nodes > MAX_REPORT_VALUES) return tooMany('elements and attributes');
      if (++elements > MAX_REPORT_CONTAINERS) return `it holds more than ${MAX_REPORT_CONTAINERS.toLocaleString('en')} elements`;
      if (text.charCodeAt(j - 1) !== 47 && ++depth > MAX_REPORT_DEPTH) return `it nests deeper than ${MAX_REPORT_DEPTH} levels`;
      i = j + 1;
    }
    if (i < 0) break;
  }
  return undefined;
}

function tooMany(what = 'values'): string {
  return `it holds more than ${MAX_REPORT_VALUES.toLocaleString('en')} ${what}`;
}

/** Index of a JSON string's closing quote (the string opens at `open`), -1 when unterminated. */
function stringEnd(s: string, open: number): number {
  let j = open + 1;
  for (;;) {
    const q = s.indexOf('"', j);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; s.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    j = q + 1;
  }
}

/** Index just past `end` searched from `from`, or -1. */
function after(s: string, end: string, from: number): number {
  const k = s.indexOf(end, from);
  return k < 0 ? -1 : k + end.length;
}
