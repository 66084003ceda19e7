// Which upstream failures the gateway retries before the client sees anything, and how long it
// waits: exponential backoff, or what the upstream asked for (Retry-After in seconds or as a date,
// OpenAI's retry-after-ms), never longer than the cap. No jitter: one try's calls do not stampede,
// and a fixed schedule is testable.
import type { IncomingHttpHeaders } from 'node:http';

export interface RetryPolicy {
  /** Retries after the first attempt. Default 3. */
  maxRetries: number;
  /** The first wait; doubled each retry. Default 500 ms. */
  baseDelayMs: number;
  /** The longest wait, whatever the upstream asks. Default 30 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 });

/** Rate limits and server errors are transient; other statuses are the answer. */
export const isRetryableStatus = (status: number): boolean => status === 429 || status === 408 || status >= 500;

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_SOCKET']);

/** A connection reset or refusal before any answer: worth another attempt. */
export function isRetryableError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && TRANSIENT_CODES.has(code)) return true;
  return err instanceof Error && /socket hang up/i.test(err.message);
}

/** How long to wait before retry number `retry` (0 = the first retry). */
export function retryDelayMs(policy: RetryPolicy, retry: number, headers?: IncomingHttpHeaders, now = Date.now()): number {
  const asked = askedDelayMs(headers, now);
  const backoff = policy.baseDelayMs * 2 ** retry;
  return Math.max(0, Math.min(policy.maxDelayMs, asked ?? backoff));
}

function askedDelayMs(headers: IncomingHttpHeaders | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers['retry-after-ms']);
  if (typeof headers['retry-after-ms'] === 'string' && Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers['retry-after'];
  if (typeof after !== 'string' || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
