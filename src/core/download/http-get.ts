// A GET for the bytes of a dataset file over node:http / node:https, with the response body as a
// Node stream. Fetch (undici) hands the body over as web-stream chunks through promise hops, which
// held the download to a fraction of curl's speed on a fast link; a plain IncomingMessage is read
// at the socket's pace. Redirects are followed here, and the token goes only where `headersFor`
// says (the Hub's own origin, never a CDN it redirects to).
import * as http from 'node:http';
import * as https from 'node:https';
import { AbortError } from '../util/errors';

export interface GetResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body; read it to the end, or call `discard`. */
  body: http.IncomingMessage;
  /** The URL that answered (after redirects). */
  url: string;
}

/** A socket that sends nothing for this long is given up as a network error (ETIMEDOUT), and retried. */
export const IDLE_TIMEOUT_MS = 120_000;
const MAX_REDIRECTS = 10;

/** An error isNetworkError counts as a dropped connection. */
export function networkFailure(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

export async function httpGet(
  url: string,
  headersFor: (url: string) => Record<string, string>,
  options: { signal?: AbortSignal; idleTimeoutMs?: number } = {},
): Promise<GetResponse> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const res = await getOnce(current, headersFor(current), options.signal, options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
    const location = res.headers.location;
    if (res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 && location) {
      discard(res);
      if (hops >= MAX_REDIRECTS) throw networkFailure(`more than ${MAX_REDIRECTS} redirects from ${url}`, 'ERR_TOO_MANY_REDIRECTS');
      current = new URL(location, current).href;
      continue;
    }
    return { status: res.statusCode ?? 0, headers: res.headers, body: res, url: current };
  }
}

/** Throws away a body that is not wanted (the socket goes back to the agent's pool when it can). */
export function discard(body: http.IncomingMessage): void {
  body.resume();
  body.on('error', () => undefined);
}

function getOnce(url: string, headers: Record<string, string>, signal: AbortSignal | undefined, idleTimeoutMs: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return reject(new Error(`Cannot fetch ${url}: only http and https are supported.`));
    const get = u.protocol === 'https:' ? https.get : http.get;
    const req = get(u, { headers: { 'Accept-Encoding': 'identity', ...headers } });
    const onAbort = () => req.destroy(new AbortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    req.setTimeout(idleTimeoutMs, () => req.destroy(networkFailure(`no data from ${u.host} for ${Math.round(idleTimeoutMs / 1000)} s`, 'ETIMEDOUT')));
    req.on('response', (res) => {
      // Whoever reads the body listens for its errors; until then one must not crash the process.
      res.on('error', () => undefined);
      // The listener stays while the body is read: an abort then destroys the request and its body.
      res.on('close', () => signal?.removeEventListener('abort', onAbort));
      resolve(res);
    });
    req.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? new AbortError() : err);
    });
  });
}
