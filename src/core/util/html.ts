// HTML built from templates that escape by default: every value interpolated into html`…` is
// escaped unless it is itself a fragment html`…` (or rawHtml) made, so recorded text (agent
// output, test ids, commit subjects) can never form markup. One page shell for every document
// the product writes: the webviews' and the exported reports'. Pure: no node imports.

/** Markup that is already safe: built by html`…`, or marked with rawHtml. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What html`…` accepts: text is escaped, fragments kept, arrays joined; null, undefined and false render nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * Text made safe as element content and inside a double-quoted attribute (our templates quote
 * every attribute with ", so a CSP's 'self' stays readable).
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ENTITIES[c]);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped (fragments excepted). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Marks text as markup, unescaped: only for what the product itself wrote (a bundle, a stylesheet). */
export function rawHtml(text: string): SafeHtml {
  return new SafeHtml(text);
}

/** A JSON payload inside <script type="application/json">: `<` escaped so no tag can be formed. */
export function jsonInScript(value: unknown): SafeHtml {
  return rawHtml(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}

export interface PageShell {
  title: string;
  /** The Content-Security-Policy, in a meta element before anything it governs. */
  csp: string;
  /** More of <head>: stylesheets, an inline style. */
  head?: SafeHtml;
  body: SafeHtml;
  /** Attributes of <body> (class, data-*); values escaped. */
  bodyAttrs?: Record<string, string>;
}

/** The one page shell: doctype, charset, CSP, viewport and title, then the head and body given. */
export function htmlPage(p: PageShell): string {
  const attrs = Object.entries(p.bodyAttrs ?? {}).map(([name, value]) => html` ${rawHtml(attrName(name))}="${value}"`);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${p.csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${p.title}</title>
${p.head}
</head>
<body${attrs}>
${p.body}
</body>
</html>
`.text;
}

/** An attribute name is code, not data: only the plain names we write. */
function attrName(name: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not an attribute name: ${name}`);
  return name;
}
