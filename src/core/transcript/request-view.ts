// A recorded request as the transcript reads it, whatever its wire protocol: the system prompt,
// the tools offered, and the history as a list of entries (messages, or the Responses API's
// items). Entries are converted one at a time, on demand: a request repeats the whole history,
// so the transcript converts only what is new in it (see calls-transcript.ts). Browser-safe.
import type { TranscriptItem } from '../../shared/transcript-schema';

export type EntryRole = 'system' | 'user' | 'assistant' | 'tool';

export interface Entry {
  role: EntryRole;
  items: TranscriptItem[];
}

export interface RequestView {
  system?: string;
  tools: { name: string; description?: string }[];
  /** The history, raw, oldest first. */
  entries: readonly unknown[];
  /** One raw entry as transcript items. */
  entry(raw: unknown): Entry;
  /** The request carries only what is new (the Responses API's previous_response_id): it continues by construction. */
  continues?: boolean;
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A tool result is kept up to this many characters; the rest is said to be cut. */
const RESULT_CAP = 64 * 1024;

export function capResult(text: string, cap = RESULT_CAP): string {
  return text.length <= cap ? text : `${text.slice(0, cap)}\n… (cut: ${text.length - cap} more characters)`;
}

/** Tool arguments as the model wrote them: parsed when they are JSON, else the text itself. */
export function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Anything a protocol sends as a tool's output, as text: strings as they are, text parts joined, the rest as JSON. */
export function outputText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (typeof part === 'string') return part;
        if (isObject(part) && typeof part.text === 'string') return part.text;
        if (isObject(part) && (part.type === 'image' || part.type === 'input_image' || part.type === 'image_url')) return '[image]';
        return JSON.stringify(part);
      })
      .join('\n');
  }
  if (content === undefined || content === null) return '';
  return JSON.stringify(content);
}

export function textItem(role: 'system' | 'user' | 'assistant', text: string): TranscriptItem[] {
  return text === '' ? [] : [{ kind: 'text', role, text }];
}

/** The names (and descriptions) of tools, skipping what has no name. */
export function namedTools(list: { name: unknown; description?: unknown }[]): RequestView['tools'] {
  return list
    .filter((t) => typeof t.name === 'string' && t.name !== '')
    .map((t) => ({ name: t.name as string, ...(typeof t.description === 'string' ? { description: t.description } : {}) }));
}

/**
 * A short digest of an entry, to tell whether a request continues an earlier one. Cache markers
 * are left out: clients move them from message to message between calls.
 */
export function fingerprint(raw: unknown): string {
  return digest(JSON.stringify(raw, (key, value: unknown) => (key === 'cache_control' ? undefined : value)) ?? '');
}

/** cyrb53: a fast 53-bit string hash (not cryptographic: it only tells entries apart). */
export function digest(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${text.length}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}
