// One call forwarded upstream: attempts again on a 429, a 5xx or a reset before the client has
// seen a byte, then passes the answer through as it arrives while a copy is reassembled (SSE
// events or the JSON body) and kept raw for replay. A silence longer than the idle timeout ends
// the call: before the answer began, the client gets a 504 in its protocol's shape; after, its
// connection is cut (a half-sent stream cannot become an error). So is an answer past
// MAX_ANSWER_BYTES, before the harness holds more of it.
import * as http from 'node:http';
import * as https from 'node:https';
import type { WireProtocol } from './wire-protocol';
import { errorMessage } from '../util/errors';
import { answerReader, errorMessageOf, feedBody, parseEventData, type Answer } from './answers/answer';
import { errorBody } from './error-shape';
import { clientHeaders } from './forward-headers';
import { isRetryableError, isRetryableStatus, retryDelayMs, type RetryPolicy } from './retry-policy';
import { SseReader } from './sse-reader';

export interface UpstreamRequest {
  protocol: WireProtocol;
  url: URL;
  method: string;
  headers: http.OutgoingHttpHeaders;
  body: Buffer | undefined;
  client: http.ServerResponse;
  idleTimeoutMs: number;
  retry: RetryPolicy;
  /** The raw answer is kept up to this many bytes (for replay); beyond, it is marked cut. */
  captureCap: number;
  /** An answer longer than this is cut off (the client's connection too): its reassembled text is held whole. Default MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
  /** Fires when the try closes: the call is abandoned. */
  signal: AbortSignal;
  agents: { http: http.Agent; https: https.Agent };
  /** The call's start, for ms and firstByteMs. */
  started: number;
}

export interface UpstreamOutcome {
  /** The upstream's status; 0 when no answer came. */
  status: number;
  retries: number;
  firstByteMs?: number;
  answer?: Answer;
  raw?: { status: number; contentType: string; body: Buffer; cut: boolean };
  /** What went wrong at the gateway's side of the wire (a hang, no connection, the client left). */
  error?: string;
  /** The upstream's error message, when its status was not 2xx. */
  upstreamMessage?: string;
}

class IdleError extends Error {}
/** The gateway's own side ended the call (the try closed, the client left): its message is the reason. */
class LocalStop extends Error {}

const seconds = (ms: number): string => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

/** The URL as errors name it: no query (it never holds the key, but it is noise). */
export const shownUrl = (url: URL): string => `${url.origin}${url.pathname}`;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** What an answer may grow to: far above any model's reply, well below what would strain the harness holding its text. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export async function forwardUpstream(r: UpstreamRequest): Promise<UpstreamOutcome> {
  let retries = 0;
  for (;;) {
    const attempt = await attemptOnce(r, retries);
    if (attempt.kind === 'done') return { ...attempt.outcome, retries };
    await sleep(attempt.delayMs, r.signal);
    if (r.signal.aborted) return { status: attempt.status, retries, error: 'the try closed while the call waited to retry' };
    retries++;
  }
}

type Attempt = { kind: 'done'; outcome: Omit<UpstreamOutcome, 'retries'> } | { kind: 'retry'; delayMs: number; status: number };

/** One attempt; `retry` is how many came before it (it decides the wait before the next). */
function attemptOnce(r: UpstreamRequest, retry: number): Promise<Attempt> {
  const mayRetry = retry < r.retry.maxRetries;
  return new Promise<Attempt>((resolve) => {
    const lib = r.url.protocol === 'https:' ? https : http;
    const req = lib.request(r.url, { method: r.method, headers: r.headers, agent: r.url.protocol === 'https:' ? r.agents.https : r.agents.http });
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    let clientStarted = false;
    const finish = (a: Attempt) => {
      if (settled) return;
      settled = true;
      if (idle) clearTimeout(idle);
      r.signal.removeEventListener('abort', onAbort);
      r.client.off('close', onClientClose);
      resolve(a);
    };
    const armIdle = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => req.destroy(new IdleError()), r.idleTimeoutMs);
    };
    const onAbort = () => req.destroy(new LocalStop('the try closed before the answer ended'));
    const onClientClose = () => {
      if (!r.client.writableFinished) req.destroy(new LocalStop('the agent closed the connection before the answer ended'));
    };
    r.signal.addEventListener('abort', onAbort, { once: true });
    r.client.on('close', onClientClose);
    armIdle();

    // Once the answer has begun, a failure keeps what came of it (status, first byte, the part read).
    let answerSoFar: (() => Omit<UpstreamOutcome, 'retries'>) | undefined;
    const fail = (err: unknown, given?: Omit<UpstreamOutcome, 'retries'>) => {
      if (settled) return;
      // A broken answer is kept for the record but not as raw: replaying it would end it cleanly.
      const { raw: _broken, ...partial } = given ?? answerSoFar?.() ?? { status: 0 };
      const idleHit = err instanceof IdleError;
      const why =
        err instanceof LocalStop
          ? err.message
          : idleHit
            ? `no byte from ${shownUrl(r.url)} for ${seconds(r.idleTimeoutMs)}`
            : partial.status !== 0
              ? `the answer from ${shownUrl(r.url)} broke off: ${errorMessage(err)}`
              : `could not reach ${shownUrl(r.url)}: ${(err as NodeJS.ErrnoException).code ?? errorMessage(err)}`;
      if (partial.status === 0 && !idleHit && !(err instanceof LocalStop) && mayRetry && isRetryableError(err) && !r.signal.aborted && !r.client.destroyed)
        return finish({ kind: 'retry', delayMs: retryDelayMs(r.retry, retry), status: 0 });
      if (clientStarted || r.client.headersSent) r.client.destroy();
      else if (!r.client.destroyed) {
        const status = idleHit ? 504 : 502;
        r.client.writeHead(status, { 'content-type': 'application/json' });
        r.client.end(JSON.stringify(errorBody(r.protocol, status, `sweci gateway: ${why}`)));
      }
      finish({ kind: 'done', outcome: { ...partial, error: why } });
    };
    req.on('error', (err) => fail(err));

    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (mayRetry && isRetryableStatus(status)) {
        // Read the refusal to the end so the socket can be reused, then wait as the upstream asks.
        const next = (): Attempt => ({ kind: 'retry', delayMs: retryDelayMs(r.retry, retry, res.headers), status });
        res.resume();
        res.on('end', () => finish(next()));
        res.on('error', () => finish(next()));
        return;
      }
      pipeAnswer(res, status);
    });

    function pipeAnswer(res: http.IncomingMessage, status: number) {
      const contentType = String(res.headers['content-type'] ?? '');
      const sse = /text\/event-stream/i.test(contentType);
      const reader = answerReader(r.protocol);
      const sseReader = sse ? new SseReader() : undefined;
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      const maxAnswer = r.maxAnswerBytes ?? MAX_ANSWER_BYTES;
      let cut = false;
      let firstByteMs: number | undefined;
      r.client.writeHead(status, clientHeaders(res.headers));
      clientStarted = true;
      const feed = (events: ReturnType<SseReader['push']>) => {
        for (const e of events) {
          const data = parseEventData(e.data);
          if (data !== undefined) reader.event(data, e.event);
        }
      };
      const outcome = (): Omit<UpstreamOutcome, 'retries'> => {
        const body = Buffer.concat(chunks);
        if (sseReader) feed(sseReader.end());
        else if (!cut) feedBody(reader, body.toString('utf8'));
        const answer = reader.result();
        const upstreamMessage =
          status >= 200 && status < 300
            ? undefined
            : (answer.error ?? errorMessageOf(parseEventData(body.toString('utf8'))) ?? body.toString('utf8').slice(0, 300));
        return {
          status,
          ...(firstByteMs !== undefined ? { firstByteMs } : {}),
          answer,
          raw: { status, contentType, body, cut },
          ...(upstreamMessage !== undefined ? { upstreamMessage } : {}),
        };
      };
      answerSoFar = outcome;
      res.on('data', (chunk: Buffer) => {
        firstByteMs ??= performance.now() - r.started;
        total += chunk.length;
        if (total > maxAnswer) {
          fail(new LocalStop(`the answer from ${shownUrl(r.url)} was over ${maxAnswer} bytes and was cut off`), outcome());
          req.destroy();
          return;
        }
        armIdle();
        if (kept + chunk.length <= r.captureCap) {
          chunks.push(chunk);
          kept += chunk.length;
        } else cut = true;
        if (sseReader) feed(sseReader.push(chunk));
        if (!r.client.write(chunk)) {
          // The client reads slower than the upstream writes: wait for it, without counting that as silence.
          res.pause();
          if (idle) clearTimeout(idle);
          r.client.once('drain', () => {
            armIdle();
            res.resume();
          });
        }
      });
      res.on('end', () => {
        r.client.end();
        finish({ kind: 'done', outcome: outcome() });
      });
      res.on('error', (err) => fail(err, outcome()));
      res.on('aborted', () => fail(new Error('aborted'), outcome()));
    }

    if (r.body) req.end(r.body);
    else req.end();
  });
}
