// JSON as Python's json module writes it, for files the reference harness writes with
// `json.dump(..., ensure_ascii=False, indent=4)`: floats as Python's repr (`4.0`, `1e-07`,
// `8.7e-05`), integers of any size, keys in their order (digit-like ones too). JavaScript's
// JSON.parse loses all three (4.0 → 4, 1e-07 → 1e-7, key "0" moves first), so text that must
// be written back the Python way is parsed here, keeping each number's source text.

import { pythonFloatRepr } from './python-float';

/** A number as it stood in the source text. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** An object whose entries keep their order (JavaScript objects move integer-like keys first). */
export class JsonObject {
  constructor(readonly entries: Array<[string, JsonValue]>) {}
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): JsonValue {
    const v = this.value();
    this.ws();
    if (this.i !== this.s.length) this.fail('unexpected text after the value');
    return v;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at position ${this.i}`);
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.i++;
      else break;
    }
  }

  private value(): JsonValue {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (this.s.startsWith('true', this.i)) return ((this.i += 4), true);
    if (this.s.startsWith('false', this.i)) return ((this.i += 5), false);
    if (this.s.startsWith('null', this.i)) return ((this.i += 4), null);
    // Python writes these for float('nan') and float('inf') (allow_nan is on by default).
    for (const word of ['NaN', 'Infinity', '-Infinity']) {
      if (this.s.startsWith(word, this.i)) return ((this.i += word.length), new JsonNumber(word));
    }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (!m) this.fail('expected a value');
    this.i += m[0].length;
    return new JsonNumber(m[0]);
  }

  private string(): string {
    const s = this.s;
    const start = this.i;
    let j = start + 1;
    for (;;) {
      const q = s.indexOf('"', j);
      if (q < 0) this.fail('unterminated string');
      let backslashes = 0;
      for (let k = q - 1; s.charCodeAt(k) === 92; k--) backslashes++;
      j = q + 1;
      if (backslashes % 2 === 0) break;
    }
    this.i = j;
    // The escapes are JSON's: the native parser decodes them exactly.
    return JSON.parse(s.slice(start, j)) as string;
  }

  private array(): JsonValue[] {
    this.i++;
    const out: JsonValue[] = [];
    this.ws();
    if (this.s[this.i] === ']') return (this.i++, out);
    for (;;) {
      out.push(this.value());
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') this.fail('expected , or ]');
    }
  }

  private object(): JsonObject {
    this.i++;
    const entries: Array<[string, JsonValue]> = [];
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, new JsonObject(entries));
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a key');
      const key = this.string();
      this.ws();
      if (this.s[this.i++] !== ':') this.fail('expected :');
      entries.push([key, this.value()]);
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') return new JsonObject(entries);
      if (c !== ',') this.fail('expected , or }');
    }
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses JSON keeping number texts and key order; throws SyntaxError on bad input. */
export function parseKeepingNumbers(text: string): JsonValue {
  return new Parser(text).parse();
}

function numberText(n: JsonNumber | number): string {
  if (typeof n === 'number') return Number.isInteger(n) && Math.abs(n) < 1e16 ? String(n) : pythonFloatRepr(n);
  const t = n.text;
  if (t === 'NaN' || t === 'Infinity' || t === '-Infinity') return t;
  // Python reads a token with a point or an exponent as a float, anything else as an int.
  if (/[.eE]/.test(t)) return pythonFloatRepr(Number(t));
  return BigInt(t).toString();
}

/**
 * `json.dumps(value, ensure_ascii=False, indent=indent)`. Strings are escaped as Python escapes
 * them with ensure_ascii off (the same set JSON.stringify escapes). Plain objects and numbers
 * are accepted too (for entries built here rather than read from Python's output).
 */
export function dumpsLikePython(value: unknown, indent = 4): string {
  const out: string[] = [];
  const write = (v: unknown, depth: number): void => {
    const pad = '\n' + ' '.repeat(indent * (depth + 1));
    const close = '\n' + ' '.repeat(indent * depth);
    if (v === null || v === undefined) out.push('null');
    else if (v === true) out.push('true');
    else if (v === false) out.push('false');
    else if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (typeof v === 'number' || v instanceof JsonNumber) out.push(numberText(v));
    else if (Array.isArray(v)) {
      if (v.length === 0) return void out.push('[]');
      out.push('[');
      v.forEach((item, i) => {
        out.push(i === 0 ? pad : `,${pad}`);
        write(item, depth + 1);
      });
      out.push(close, ']');
    } else {
      const entries = v instanceof JsonObject ? v.entries : Object.entries(v as Record<string, unknown>);
      if (entries.length === 0) return void out.push('{}');
      out.push('{');
      entries.forEach(([k, item], i) => {
        out.push(i === 0 ? pad : `,${pad}`, JSON.stringify(k), ': ');
        write(item, depth + 1);
      });
      out.push(close, '}');
    }
  };
  write(value, 0);
  return out.join('');
}

/**
 * The source text of each element of the top-level object's `key` array (pytest-json-report's
 * "tests"), without building them: strings are skipped whole. undefined when there is none.
 */
export function arrayElementTexts(text: string, key: string): string[] | undefined {
  const s = text;
  let i = 0;
  const isWs = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;
  const skip = (extra: number): void => {
    for (let c = s.charCodeAt(i); isWs(c) || c === extra; c = s.charCodeAt(i)) i++;
  };
  const skipString = (): void => {
    let j = i + 1;
    for (;;) {
      const q = s.indexOf('"', j);
      if (q < 0) throw new SyntaxError('unterminated string');
      let backslashes = 0;
      for (let k = q - 1; s.charCodeAt(k) === 92; k--) backslashes++;
      j = q + 1;
      if (backslashes % 2 === 0) break;
    }
    i = j;
  };
  /** Moves i past the value starting at i (after whitespace). */
  const skipValue = (): void => {
    skip(-1);
    const c = s[i];
    if (c === '"') return skipString();
    if (c !== '{' && c !== '[') {
      while (i < s.length && !',]}'.includes(s[i])) i++;
      return;
    }
    let depth = 0;
    while (i < s.length) {
      const d = s[i];
      if (d === '"') skipString();
      else {
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') depth--;
        i++;
        if (depth === 0) return;
      }
    }
  };
  skip(-1);
  if (s[i] !== '{') return undefined;
  i++;
  let found: string[] | undefined;
  for (;;) {
    skip(44);
    if (s[i] !== '"') return found;
    const keyStart = i;
    skipString();
    const name = JSON.parse(s.slice(keyStart, i)) as string;
    skip(58);
    if (name !== key || s[i] !== '[') {
      skipValue();
      if (i >= s.length || s[i] === '}') return found;
      continue;
    }
    // A key given twice counts as JSON.parse counts it: the last one.
    i++;
    found = [];
    for (;;) {
      skip(44);
      if (s[i] === ']' || i >= s.length) break;
      const start = i;
      skipValue();
      found.push(s.slice(start, i));
    }
    i++;
    skip(-1);
    if (i >= s.length || s[i] === '}') return found;
  }
}
