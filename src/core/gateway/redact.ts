// Keys and tokens never reach a record, a log or an error message: every text the gateway keeps
// goes through the try's redactor, which replaces each secret it knows.
export const REDACTED = '[redacted]';

export type Redactor = (text: string) => string;

/** Secrets shorter than 8 characters are no keys (and would redact ordinary words). */
export function redactor(secrets: readonly (string | undefined)[]): Redactor {
  const real = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  // A secret inside JSON text may appear escaped (a key holding a quote or a backslash).
  const list = [...new Set([...real, ...real.map((s) => JSON.stringify(s).slice(1, -1))])].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (t) => t;
  return (text) => {
    let out = text;
    for (const s of list) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  };
}
