// Parse and validate requirement.xml: one XML document holding 1–5
// requirements, each with location, description, contract and acceptance. Agents write
// varied shapes, so any root is accepted and items are found by the fields they hold.
// Positions are kept for the language server.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Diagnostic, DiagnosticCode } from './diagnostic';
import { worded } from './diagnostic-wording';
import { LineIndex, type TextRange } from './positions';
import { errorMessage } from '../util/errors';
import { isPlaceholder } from './requirement-skeleton';

export const REQUIREMENT_FIELDS = ['location', 'description', 'contract', 'acceptance'] as const;
export type RequirementFieldName = (typeof REQUIREMENT_FIELDS)[number];

/** The protocol's upper bound; more is a warning, not an error. */
export const MAX_REQUIREMENTS = 5;

export interface RequirementField {
  /** Text content (descendant text joined), trimmed. */
  text: string;
  /** Where the field's start tag begins, 1-based. */
  line: number;
  column: number;
}

/** Where a field sits in the text, for language-server ranges and links. */
export interface RequirementFieldSpan {
  /** The whole element, from its start tag to the end of its end tag. */
  element: TextRange;
  /** The raw content between the tags (a self-closing element has an empty one). */
  content: TextRange;
  /** Offsets of that content in the text without its BOM (see stripBom). */
  contentStart: number;
  contentEnd: number;
  attributes: Record<string, string>;
}

export interface RequirementItem {
  /** 1-based position among the items. */
  index: number;
  /** How messages name it: its `id` attribute when it has one (what the author wrote), else its position. */
  name: string;
  /** The element's name as written, e.g. `requirement`, `item`, `change`. */
  tag: string;
  /** Where the item's start tag begins, 1-based. */
  line: number;
  column: number;
  /** Where the item's end tag ends, 1-based. */
  endLine: number;
  endColumn: number;
  attributes: Record<string, string>;
  fields: Partial<Record<RequirementFieldName, RequirementField>>;
  /** The item's start tag. */
  startTag: TextRange;
  /** Spans of the fields in `fields` (the first of duplicates). */
  spans: Partial<Record<RequirementFieldName, RequirementFieldSpan>>;
}

export type RequirementParseResult = { ok: true; rootTag: string; items: RequirementItem[]; warnings: Diagnostic[] } | { ok: false; errors: Diagnostic[] };

// fast-xml-parser's ordered output: one key naming the element, ':@' for attributes.
type OrderedNode = Record<string, unknown>;
const META = XMLParser.getMetaDataSymbol() as unknown as string;

interface Element {
  name: string;
  children: OrderedNode[];
  attributes: Record<string, string>;
  start: number;
  end: number;
}

/** Offsets in the parse result count from after a leading BOM. */
export function stripBom(input: string): string {
  return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
}

export function parseRequirementDocument(input: string): RequirementParseResult {
  const text = stripBom(input);
  const lines = new LineIndex(text);
  // `end` (exclusive) gives the diagnostic a range, not just a point.
  const diag = (code: DiagnosticCode, severity: Diagnostic['severity'], text: ReturnType<typeof worded>, offset: number, end?: number): Diagnostic => {
    const d: Diagnostic = { ...text, ...lines.at(offset), severity, code };
    if (end !== undefined) {
      const r = lines.range(offset, end);
      d.endLine = r.endLine;
      d.endColumn = r.endColumn;
    }
    return d;
  };
  const startTagOf = (el: Element) => ({ start: el.start, end: startTagEnd(text, el.start) });

  if (text.trim() === '') {
    const whole = lines.range(0, text.length);
    return {
      ok: false,
      errors: [
        {
          ...worded('empty'),
          line: 1,
          column: 1,
          endLine: whole.endLine,
          endColumn: whole.endColumn,
          severity: 'error',
          code: 'empty',
        },
      ],
    };
  }
  const fence = /^\s*```/.exec(text);
  if (fence) {
    return {
      ok: false,
      errors: [diag('markdown-fence', 'error', worded('markdownFence'), fence[0].length - 3, lineEnd(text, fence[0].length))],
    };
  }
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    const at = lines.offsetOf(line || 1, col || 1);
    const d = diag('not-well-formed', 'error', worded('notWellFormed', msg), at, errorEnd(text, at));
    // The validator's own position is kept as it was (it may point past the end of a line).
    return { ok: false, errors: [{ ...d, line: line || 1, column: col || 1 }] };
  }

  let root: Element | undefined;
  try {
    root = rootElement(parser().parse(text) as OrderedNode[]);
  } catch (err) {
    const message = errorMessage(err);
    // The parser names no position (e.g. nesting too deep): point at the first line.
    return { ok: false, errors: [diag('not-well-formed', 'error', worded('notWellFormed', message), 0, Math.max(1, lineEnd(text, 0)))] };
  }
  if (!root) {
    return { ok: false, errors: [{ ...worded('noRoot'), line: 1, column: 1, severity: 'error', code: 'no-items' }] };
  }

  const warnings: Diagnostic[] = [];
  let holder = root;
  let itemElements = elementChildren(holder).filter(hasAnyField);
  // A wrapper (<document><requirements>…) holds the items one level down.
  while (itemElements.length === 0 && !hasAnyField(holder) && elementChildren(holder).length === 1) {
    holder = elementChildren(holder)[0];
    itemElements = elementChildren(holder).filter(hasAnyField);
  }
  if (itemElements.length === 0 && hasAnyField(holder)) {
    warnings.push(diag('root-is-item', 'warning', worded('rootIsItem', holder.name), startTagOf(holder).start, startTagOf(holder).end));
    itemElements = [holder];
  }
  if (itemElements.length === 0) {
    return {
      ok: false,
      errors: [diag('no-items', 'error', worded('noItems', root.name), root.start, startTagEnd(text, root.start))],
    };
  }
  if (itemElements.length > MAX_REQUIREMENTS) {
    warnings.push(
      diag(
        'too-many-items',
        'warning',
        worded('tooManyItems', itemElements.length, MAX_REQUIREMENTS),
        itemElements[MAX_REQUIREMENTS].start,
        startTagEnd(text, itemElements[MAX_REQUIREMENTS].start),
      ),
    );
  }

  const items = itemElements.map((el, i): RequirementItem => {
    const name = requirementName(el.attributes, i + 1);
    const fields: RequirementItem['fields'] = {};
    const spans: RequirementItem['spans'] = {};
    for (const child of elementChildren(el)) {
      const field = fieldName(child.name);
      if (!field) continue;
      if (fields[field]) {
        warnings.push(diag('duplicate-field', 'warning', worded('duplicateField', name, field), child.start, child.end));
        continue;
      }
      const fieldText = textOf(child.children).trim();
      fields[field] = { text: fieldText, ...lines.at(child.start) };
      spans[field] = fieldSpan(text, lines, child);
      if (fieldText === '') warnings.push(diag('empty-field', 'warning', worded('emptyField', name, field), child.start, child.end));
      else if (isPlaceholder(field, fieldText)) {
        warnings.push(diag('placeholder-field', 'warning', worded('placeholderField', name, field), child.start, child.end));
      }
    }
    const tag = startTagOf(el);
    const missing = REQUIREMENT_FIELDS.filter((f) => !fields[f]);
    if (missing.length > 0) {
      const names = missing.map((m) => `<${m}>`).join(', ');
      warnings.push(diag('missing-field', 'warning', worded('missingField', name, el.name, names), tag.start, tag.end));
    }
    const start = lines.at(el.start);
    const end = lines.at(Math.max(el.start, el.end - 1));
    return {
      index: i + 1,
      name,
      tag: el.name,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column + 1,
      attributes: el.attributes,
      fields,
      startTag: lines.range(tag.start, tag.end),
      spans,
    };
  });
  return { ok: true, rootTag: root.name, items, warnings };
}

/** `9` for `<requirement id="9">`; the position when there is no usable id. */
function requirementName(attributes: Record<string, string>, position: number): string {
  const id = attributes.id?.trim();
  return id && id.length <= 40 && !/[\s<>]/.test(id) ? id : String(position);
}

function parser(): XMLParser {
  return new XMLParser({
    preserveOrder: true,
    captureMetaData: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    allowBooleanAttributes: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // A requirement needs no DTD entities: tight bounds so "billion laughs" cannot blow up.
    processEntities: { enabled: true, maxEntitySize: 1000, maxEntityCount: 50, maxExpansionDepth: 5, maxTotalExpansions: 1000, maxExpandedLength: 20000 },
    maxNestedTags: 100,
  });
}

function fieldName(tag: string): RequirementFieldName | undefined {
  const lower = tag.toLowerCase();
  return (REQUIREMENT_FIELDS as readonly string[]).includes(lower) ? (lower as RequirementFieldName) : undefined;
}

function hasAnyField(el: Element): boolean {
  return elementChildren(el).some((c) => fieldName(c.name) !== undefined);
}

function toElement(node: OrderedNode): Element | undefined {
  const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text' && !k.startsWith('?'));
  if (!name) return undefined;
  const children = Array.isArray(node[name]) ? (node[name] as OrderedNode[]) : [];
  const attrs = (node[':@'] ?? {}) as Record<string, unknown>;
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) attributes[k] = String(v);
  const meta = (node as Record<string, unknown>)[META] as { startIndex?: number; endIndex?: number } | undefined;
  const start = meta?.startIndex ?? 0;
  return { name, children, attributes, start, end: meta?.endIndex ?? start };
}

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (const c of el.children) {
    const e = toElement(c);
    if (e) out.push(e);
  }
  return out;
}

function rootElement(doc: OrderedNode[]): Element | undefined {
  for (const node of doc) {
    const e = toElement(node);
    if (e) return e;
  }
  return undefined;
}

/** All descendant text in document order (markup inside a field, e.g. <code>, keeps its text). */
function textOf(children: OrderedNode[]): string {
  let out = '';
  for (const c of children) {
    if ('#text' in c) out += String(c['#text']);
    else {
      const e = toElement(c);
      if (e) out += textOf(e.children);
    }
  }
  return out;
}

/** Offset just after the `>` of the tag starting at `start` (quotes in attributes respected). */
function startTagEnd(text: string, start: number): number {
  let quote = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i + 1;
  }
  return text.length;
}

function lineEnd(text: string, from: number): number {
  const m = /[\r\n]/.exec(text.slice(from, from + 10000));
  return m ? from + m.index : Math.min(text.length, from + 10000);
}

/** An XML error's range: the tag at the error, else the rest of its line (at least one character). */
function errorEnd(text: string, at: number): number {
  if (text[at] === '<') return Math.min(startTagEnd(text, at), lineEnd(text, at) + 1, text.length);
  return Math.max(lineEnd(text, at), Math.min(at + 1, text.length));
}

function fieldSpan(text: string, lines: LineIndex, el: Element): RequirementFieldSpan {
  const open = startTagEnd(text, el.start);
  const selfClosing = text.charCodeAt(open - 2) === 47; // "/>"
  const contentEnd = selfClosing ? open : Math.max(open, text.lastIndexOf('<', el.end - 1));
  return {
    element: lines.range(el.start, el.end),
    content: lines.range(open, contentEnd),
    contentStart: open,
    contentEnd,
    attributes: el.attributes,
  };
}
