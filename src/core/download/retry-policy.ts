// When and how long to wait before trying a Hub request again: 429, 5xx and dropped connections
// are retried with exponential backoff, and a server's Retry-After is honoured.
import { AbortError } from '../util/errors';

export interface RetryPolicy {
  /** Tries after the first one. */
  retries: number;
  /** The first wait; each later one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 8, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** A status worth trying again: rate limited, or the server or a proxy failed. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status <= 599);
}

/**
 * Whether a thrown fetch or body-read error is a network failure (reset, refused, closed mid-body)
 * rather than our own abort or a bug. undici wraps them as TypeError('fetch failed' | 'terminated').
 */
export function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error) || err.name === 'AbortError') return false;
  if (err instanceof TypeError && /fetch failed|terminated|other side closed/i.test(err.message)) return true;
  const code = (err as NodeJS.ErrnoException).code ?? (err as { cause?: NodeJS.ErrnoException }).cause?.code;
  return typeof code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EAI_AGAIN|UND_ERR_)/.test(code);
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before try number `attempt` (1 = the first retry). */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfter?: number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // A server's own wait wins, but a hostile or broken one cannot park us for hours.
  return retryAfter !== undefined ? Math.min(retryAfter, 10 * policy.maxDelayMs) : exp;
}

/** Resolves after `ms`, or rejects with an AbortError when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
