// Reading request bodies, the same way for every protocol adapter: loose JSON, text content that
// may be a string or a list of parts, and tool arguments that may be an object or a JSON string.

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A content value as text: a string, or the text of its parts (text, input_text, output_text, refusal; others are skipped). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => {
      if (typeof p === 'string') return p;
      if (isObject(p) && typeof p.text === 'string') return p.text;
      if (isObject(p) && typeof p.refusal === 'string') return p.refusal;
      return '';
    })
    .join('');
}

/** Tool arguments: an object as sent, a JSON string parsed to one, else the raw text (custom tools). */
export function parseArgs(raw: unknown): Record<string, unknown> | string {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return isObject(v) ? v : raw;
  } catch {
    return raw;
  }
}
