// Exit code 0 is no proof of work: agent CLIs exit 0 after an API error, a refused key or an
// endpoint that never answered. Each preset reads its CLI's own verdict from its output
// (presets/<id>/error.ts) with these helpers: the error it reports, or undefined when it reports
// none. agent-output.ts calls the reader and never lets it throw.
import { isObject, type Json } from './json-scan';

const MAX = 300;

/** One line of at most MAX characters. */
export function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}

/** The message inside an error value, however deep a CLI nests it. */
export function messageOf(v: Json | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (!isObject(v)) return undefined;
  for (const k of ['message', 'error', 'detail']) {
    const m = messageOf(v[k]);
    if (m) return m;
  }
  if (isObject(v.data)) return messageOf(v.data);
  return typeof v.name === 'string' ? v.name : undefined;
}

/** The text a CLI prints as its answer when the model call failed (qwen: "[API Error: …]"). */
export const API_ERROR_TEXT = /^\s*\[API Error\b/;
