// Where a cursor sits in an XML text, for completion: the elements open around it and whether
// it is typing a tag name. A forgiving scan (the text is usually half-written, so not valid).

export interface XmlCursor {
  /** Names of the elements open at the cursor, outermost first. */
  open: string[];
  /** Set when the cursor is in `<na|` or `</na|`: the partial name and where it starts. */
  tagName?: { closing: boolean; prefix: string; start: number };
  /** Inside a comment, CDATA, a declaration or an attribute list: nothing to complete. */
  inMarkup: boolean;
}

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[?!][^>]*(?:>|$)|<(\/?)([A-Za-z_][\w.:-]*)((?:[^<>"']|"[^"]*"|'[^']*')*)(>|$)/g;

export function xmlCursor(text: string, offset: number): XmlCursor {
  const before = text.slice(0, offset);
  const open: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(before)) !== null) {
    const [whole, slash, name, attrs, close] = m;
    if (m.index + whole.length === before.length && close !== '>') {
      // The token runs to the cursor unfinished.
      if (name === undefined) return { open, inMarkup: true };
      if (attrs === '' && !whole.endsWith(' '))
        return { open, tagName: { closing: slash === '/', prefix: name, start: m.index + 1 + slash.length }, inMarkup: false };
      return { open, inMarkup: true };
    }
    if (name === undefined) continue;
    if (slash === '/') {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else if (!attrs.trimEnd().endsWith('/')) {
      open.push(name);
    }
  }
  if (before.endsWith('</')) return { open, tagName: { closing: true, prefix: '', start: offset }, inMarkup: false };
  if (before.endsWith('<')) return { open, tagName: { closing: false, prefix: '', start: offset }, inMarkup: false };
  return { open, inMarkup: false };
}
