// The per-try token: the only key an agent holds. It is random (256 bits), lives as long as its
// try, and is read from wherever the protocol's clients put a key.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const TOKEN_PREFIX = 'sweci-try-';

export function newTryToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The key the client sent: `x-api-key`, `Authorization: Bearer`, `x-goog-api-key`, `api-key` or `?key=`. */
export function presentedToken(headers: IncomingHttpHeaders, url: URL): string | undefined {
  for (const h of ['x-api-key', 'x-goog-api-key', 'api-key']) {
    const v = headers[h];
    if (typeof v === 'string' && v !== '') return v.trim();
  }
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1];
  }
  return url.searchParams.get('key') ?? undefined;
}
