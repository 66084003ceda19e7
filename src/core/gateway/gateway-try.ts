// One agent try's side of the gateway: its token, its bounds, its calls file, and each request it
// makes — refused when a bound is spent or the try has stopped, answered from the recording on a
// replay, otherwise forwarded upstream with the real key. Its summary is what the wire said.
import type * as http from 'node:http';
import type * as https from 'node:https';
import type { WireProtocol } from './wire-protocol';
import type { GatewayCall } from '../records/gateway-call';
import { isEmptyAnswer, reassemble, type Answer } from './answers/answer';
import { spentBound, type TryBounds } from './budget';
import { CallsFile, RECORD_CAP_BYTES } from './calls-file';
import { newTryToken } from './client-token';
import { errorBody } from './error-shape';
import { upstreamHeaders } from './forward-headers';
import { costOf, type ModelPrices } from './prices';
import { asksStream, isForwardedPath, isModelCall, modelOf, upstreamUrl } from './protocol-routes';
import { SecretMask } from '../util/secret-mask';
import { rawBody, sendRecorded, unreplayable, type RecordedCall } from './replay-answer';
import { requestDifference } from './replay-match';
import { prepareBody } from './request-body';
import { DEFAULT_RETRY, type RetryPolicy } from './retry-policy';
import { BUDGET_EXHAUSTED, summarize, type CallOutcome, type TryWireSummary } from './try-summary';
import { forwardUpstream, shownUrl, type UpstreamOutcome } from './upstream-call';
import { NO_USAGE, tokensOf, type WireUsage } from './wire-usage';
import { emitCallSpan } from './call-spans';
import { tryParent } from '../telemetry/tracing';

export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export interface OpenTryOptions {
  protocol: WireProtocol;
  /** Where calls go and the real key; undefined only for a replay. */
  upstream: { url: string; key: string } | undefined;
  /** The try's calls, one JSON line each (`<role>-try-<N>.calls.jsonl`). */
  callsFile: string;
  bounds: TryBounds;
  /** Prices for the cost of each call and the cost budgets. */
  prices?: ModelPrices;
  /** Answer call N from recorded call N, contacting no upstream. */
  replay?: readonly RecordedCall[];
  /** No byte from upstream for this long ends the call. Default 300 s. */
  idleTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** A call's record is cut above this. Default 4 MiB. */
  recordCapBytes?: number;
  /** An answer longer than this is cut off. Default MAX_ANSWER_BYTES (64 MiB). */
  maxAnswerBytes?: number;
  /** No line of the record is written that would leave less than this free on its disk: the try stops, "disk nearly full". */
  minFreeBytes?: number;
  /** Called once, when the gateway stops the try: "budget exhausted: …", "diverged at call N: …". */
  onStop?: (reason: string) => void;
}

/** What the try needs from its gateway. */
export interface TryHost {
  agents: { http: http.Agent; https: https.Agent };
  forget(token: string): void;
}

/** The status the gateway answers a refused call with: a client error no CLI retries. */
const REFUSED_STATUS = 400;

export class GatewayTry {
  readonly token = newTryToken();
  private readonly redact: SecretMask;
  private readonly calls: CallsFile;
  private readonly replay: Map<number, RecordedCall> | undefined;
  private readonly retry: RetryPolicy;
  /** One controller per call in flight, each with the one abort listener its call adds: close() aborts them all. */
  private readonly callAborts = new Set<AbortController>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly outcomes: CallOutcome[] = [];
  /** The try's span (telemetry on): its model calls' parent, found by the try's calls file. */
  private readonly traceParent: ReturnType<typeof tryParent>;
  private nextCall = 1;
  private forwarded = 0;
  private tokensSpent = 0;
  private stopReason: string | undefined;
  private closing: Promise<TryWireSummary> | undefined;

  constructor(
    private readonly options: OpenTryOptions,
    private readonly host: TryHost,
  ) {
    if (!options.upstream && !options.replay) throw new Error('a gateway try needs an upstream or a recording to replay');
    this.redact = new SecretMask([this.token, options.upstream?.key]);
    this.calls = new CallsFile(options.callsFile, this.redact, {
      lineCap: options.recordCapBytes ?? RECORD_CAP_BYTES,
      ...(options.bounds.maxRecordBytes !== undefined ? { maxBytes: options.bounds.maxRecordBytes } : {}),
      ...(options.minFreeBytes !== undefined ? { minFreeBytes: options.minFreeBytes } : {}),
      onDiskFull: (reason) => this.stop(reason),
    });
    this.replay = options.replay ? new Map(options.replay.map((c) => [c.call, c])) : undefined;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.traceParent = tryParent(options.callsFile);
  }

  get protocol(): WireProtocol {
    return this.options.protocol;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** Serves one request whose token is this try's; `body` is the whole request body. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer): Promise<void> {
    const p = this.serve(req, res, url, body).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
    return p;
  }

  /** Refuses the token from now on, abandons calls in flight, and says what the wire saw. */
  close(): Promise<TryWireSummary> {
    this.closing ??= (async () => {
      this.host.forget(this.token);
      for (const c of this.callAborts) c.abort();
      await Promise.allSettled([...this.inFlight]);
      await this.calls.flushed();
      const summary = summarize(this.outcomes, this.stopReason);
      if (summary.failure) summary.failure = this.redact.mask(summary.failure);
      const problem = this.calls.problem;
      return problem ? { ...summary, recordError: problem } : summary;
    })();
    return this.closing;
  }

  /**
   * Records a request the gateway refused before its try saw its body (too many at once, a body
   * over the cap): a refused call like any other, numbered in turn, without the body.
   */
  refuseUnread(req: http.IncomingMessage, url: URL, status: number, reason: string): void {
    const call = this.nextCall++;
    const method = req.method ?? 'GET';
    const kind = isModelCall(this.options.protocol, method, url.pathname) ? 'model' : 'other';
    this.outcomes.push({ call, kind, method, path: url.pathname, ok: false, empty: false, usage: { ...NO_USAGE }, failure: reason });
    const declared = Number(req.headers['content-length']);
    this.record({
      call,
      protocol: this.options.protocol,
      kind,
      method,
      path: url.pathname,
      stream: false,
      status,
      usage: { ...NO_USAGE },
      ms: 0,
      retries: 0,
      ...(Number.isSafeInteger(declared) && declared >= 0 ? { requestBytes: declared } : {}),
      refused: reason,
    });
  }

  /** Appends a call's line and draws its bytes from the budgets: the record's bound is checked before the next call. */
  private record(line: GatewayCall, responseModel?: string): void {
    emitCallSpan(this.traceParent, line, responseModel, this.redact);
    const before = this.calls.bytes;
    this.calls.append(line);
    const added = this.calls.bytes - before;
    for (const b of this.options.bounds.budgets ?? []) b.recordBytes += added;
  }

  private stop(reason: string): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    try {
      this.options.onStop?.(reason);
    } catch {
      // The harness's handler must not break the gateway.
    }
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer): Promise<void> {
    const { protocol } = this.options;
    const started = performance.now();
    const call = this.nextCall++;
    const method = req.method ?? 'GET';
    const body = prepareBody(protocol, raw);
    const kind = isModelCall(protocol, method, url.pathname) ? 'model' : 'other';
    const model = modelOf(protocol, url.pathname, body.json);
    const stream = asksStream(protocol, url.pathname, body.json);
    const base = {
      call,
      protocol,
      kind,
      method,
      path: url.pathname,
      ...(model !== undefined ? { model } : {}),
      stream,
      ...(body.json !== undefined ? { request: body.json } : {}),
    } as const;
    const outcome = (o: Partial<CallOutcome>): CallOutcome => ({
      call,
      kind,
      method,
      path: url.pathname,
      ok: false,
      empty: false,
      usage: { ...NO_USAGE },
      ...o,
    });

    const refuse = (reason: string, status = REFUSED_STATUS): void => {
      this.outcomes.push(outcome({ failure: reason }));
      // A refused call's line keeps the body's size, not the body: refusals must stay small, or a
      // flood of them after a bound is spent would fill the disk the bound protects.
      const { request: _unkept, ...rest } = base;
      this.record({ ...rest, status: 0, usage: { ...NO_USAGE }, ms: performance.now() - started, retries: 0, requestBytes: raw.length, refused: reason });
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(protocol, status, this.redact.mask(`sweci gateway: ${reason}`))));
    };

    // The lines before it are on disk first: a line that found the disk nearly full stops the try
    // before this call, and an agent cannot queue more lines in memory than the disk takes.
    await this.calls.flushed();
    if (this.stopReason !== undefined) return refuse(this.stopReason);
    if (!isForwardedPath(protocol, method, url.pathname)) {
      return refuse(`${method} ${url.pathname} is not a model call: only the model's own endpoints are forwarded`, 403);
    }
    const bound = spentBound(this.options.bounds, this.forwarded, this.tokensSpent, this.calls.bytes);
    if (bound !== undefined) {
      this.stop(`${BUDGET_EXHAUSTED}: ${bound}`);
      return refuse(`${BUDGET_EXHAUSTED}: ${bound}`);
    }

    if (this.replay) {
      const recorded = this.replay.get(call);
      if (!recorded) {
        this.stop(`diverged at call ${call}: the recording has ${this.replay.size} call${this.replay.size === 1 ? '' : 's'}`);
        return refuse(this.stopReason ?? 'diverged');
      }
      const cannot = unreplayable(recorded);
      if (cannot) {
        this.stop(`call ${call} cannot be replayed: ${cannot}`);
        return refuse(this.stopReason ?? 'cannot replay', 502);
      }
      const now = { method, path: url.pathname, stream, body: this.redactJson(body.json) };
      const difference = requestDifference(protocol, { method: recorded.method, path: recorded.path, stream: recorded.stream, body: recorded.request }, now);
      if (difference) {
        this.stop(`diverged at call ${call}: ${difference}`);
        return refuse(this.stopReason ?? 'diverged');
      }
      this.forwarded++;
      return this.answerFromRecording(res, recorded, base, outcome, started);
    }

    // Forwarded: the token out of the query, the real key in the header the protocol wants.
    const upstream = this.options.upstream;
    if (!upstream) return refuse('no upstream', 502);
    const search = new URLSearchParams(url.search);
    search.delete('key');
    const query = search.toString();
    const target = new URL(upstreamUrl(protocol, upstream.url, url.pathname + (query ? `?${query}` : '')));
    this.forwarded++;
    // A signal of the call's own: listeners on one signal shared by every call would grow with the
    // calls in flight (Node warns past 10), and a try may have 16.
    const callAbort = new AbortController();
    this.callAborts.add(callAbort);
    if (this.closing) callAbort.abort();
    const result = await forwardUpstream({
      protocol,
      url: target,
      method,
      headers: upstreamHeaders(req.headers, protocol, upstream.key, body.forward?.length ?? (method === 'GET' || method === 'HEAD' ? undefined : 0)),
      body: body.forward,
      client: res,
      idleTimeoutMs: this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      retry: this.retry,
      captureCap: this.options.recordCapBytes ?? RECORD_CAP_BYTES,
      ...(this.options.maxAnswerBytes !== undefined ? { maxAnswerBytes: this.options.maxAnswerBytes } : {}),
      signal: callAbort.signal,
      agents: this.host.agents,
      started,
    }).finally(() => this.callAborts.delete(callAbort));
    this.finishCall(result, target, base, outcome, started);
  }

  /** Redacts a request as its recording was, so an agent that echoed its token still matches. */
  private redactJson(json: unknown): unknown {
    if (json === undefined) return undefined;
    const text = JSON.stringify(json);
    const redacted = this.redact.mask(text);
    return redacted === text ? json : (JSON.parse(redacted) as unknown);
  }

  private async answerFromRecording(
    res: http.ServerResponse,
    recorded: RecordedCall,
    base: Omit<GatewayCall, 'status' | 'usage' | 'ms' | 'retries'>,
    outcome: (o: Partial<CallOutcome>) => CallOutcome,
    started: number,
  ): Promise<void> {
    const raw = recorded.raw;
    if (!raw) return;
    await sendRecorded(res, raw);
    const answer = reassemble(this.options.protocol, raw.contentType, rawBody(raw));
    const ok = raw.status >= 200 && raw.status < 300 && answer.error === undefined;
    const usage = base.kind === 'model' ? (answer.usage ?? { ...NO_USAGE }) : { ...NO_USAGE };
    const costUsd = base.kind === 'model' ? costOf(this.options.prices, base.model ?? answer.model, usage) : undefined;
    this.charge(usage, costUsd);
    const failure = ok ? undefined : `HTTP ${raw.status} (replayed): ${answer.error ?? 'an error'}`;
    this.outcomes.push(
      outcome({ ok, empty: ok && isEmptyAnswer(answer), usage, ...(costUsd !== undefined ? { costUsd } : {}), ...(failure ? { failure } : {}) }),
    );
    this.record(
      {
        ...base,
        status: raw.status,
        usage,
        ...(costUsd !== undefined ? { costUsd } : {}),
        ms: performance.now() - started,
        retries: 0,
        response: responseOf(answer),
        raw,
        replayed: true,
      },
      answer.model,
    );
  }

  private charge(usage: WireUsage, costUsd: number | undefined): void {
    this.tokensSpent += tokensOf(usage);
    for (const b of this.options.bounds.budgets ?? []) b.charge(usage, costUsd);
  }

  private finishCall(
    result: UpstreamOutcome,
    target: URL,
    base: Omit<GatewayCall, 'status' | 'usage' | 'ms' | 'retries'>,
    outcome: (o: Partial<CallOutcome>) => CallOutcome,
    started: number,
  ): void {
    const answer = result.answer;
    const isModel = base.kind === 'model';
    const usage = isModel && answer?.usage ? answer.usage : { ...NO_USAGE };
    const costUsd = isModel ? costOf(this.options.prices, base.model ?? answer?.model, usage) : undefined;
    if (isModel) this.charge(usage, costUsd);
    const retried = result.retries > 0 ? ` (after ${result.retries} ${result.retries === 1 ? 'retry' : 'retries'})` : '';
    const status2xx = result.status >= 200 && result.status < 300;
    let failure: string | undefined;
    if (result.error) failure = `${result.error}${retried}`;
    else if (!status2xx) failure = `HTTP ${result.status} from ${shownUrl(target)}: ${clip(result.upstreamMessage ?? '')}${retried}`;
    else if (answer?.error) failure = `${shownUrl(target)} answered ${result.status} with an error in its stream: ${clip(answer.error)}`;
    const ok = failure === undefined;
    this.outcomes.push(
      outcome({
        ok,
        empty: ok && isModel && answer !== undefined && isEmptyAnswer(answer),
        usage,
        ...(costUsd !== undefined ? { costUsd } : {}),
        ...(failure ? { failure } : {}),
      }),
    );
    const raw = result.raw;
    const utf8 = raw ? raw.body.toString('utf8') : undefined;
    const encoding = raw && utf8 !== undefined && Buffer.from(utf8, 'utf8').equals(raw.body) ? 'utf8' : 'base64';
    this.record(
      {
        ...base,
        status: result.status,
        usage,
        ...(costUsd !== undefined ? { costUsd } : {}),
        ms: performance.now() - started,
        ...(result.firstByteMs !== undefined ? { firstByteMs: result.firstByteMs } : {}),
        retries: result.retries,
        ...(answer ? { response: responseOf(answer) } : {}),
        ...(raw && !raw.cut
          ? { raw: { status: raw.status, contentType: raw.contentType, body: encoding === 'utf8' ? (utf8 ?? '') : raw.body.toString('base64'), encoding } }
          : {}),
        ...(failure ? { error: failure } : {}),
        ...(raw?.cut ? { truncated: 'the answer was over the record cap and was not kept; this call cannot be replayed' } : {}),
      },
      answer?.model,
    );
  }
}

const clip = (s: string): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 300 ? `${one.slice(0, 297)}…` : one;
};

function responseOf(a: Answer): NonNullable<GatewayCall['response']> {
  return { text: a.text, toolCalls: a.toolCalls, ...(a.stopReason !== undefined ? { stopReason: a.stopReason } : {}) };
}
