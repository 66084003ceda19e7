// The process's tracer, when telemetry is on: OpenTelemetry's own SDK with a batch processor and
// an OTLP/HTTP exporter (protobuf or JSON). Spans are queued in memory and sent in the
// background, so a step never waits on the collector; a collector that cannot be reached costs
// one warning, not one per batch. Off (no endpoint), nothing here is loaded into use and every
// span helper returns at once.
import { ROOT_CONTEXT, trace, type Context, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { envDetector, detectResources, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ExportResultCode } from '@opentelemetry/core';
import { errorMessage } from '../util/errors';
import { collectorUnreachable } from './collector-probe';
import type { TelemetrySettings } from './telemetry-settings';

export interface Tracing {
  tracer: Tracer;
  captureContent: boolean;
  /** Sends what is queued and stops, waiting at most `maxWaitMs`. */
  shutdown(maxWaitMs?: number): Promise<void>;
}

/** How long a run's end waits for its last spans to leave (a dead collector must not hold the exit). */
export const FLUSH_WAIT_MS = 3000;

let current: Tracing | undefined;
let currentKey = '';

/** Where an unreachable collector is reported: stderr for the CLI; the extension sets its log. */
let warnSink: (message: string) => void = (message) => void process.stderr.write(`warning: ${message}\n`);

export function setTelemetryWarning(sink: (message: string) => void): void {
  warnSink = sink;
}

/** The process's tracing, or undefined when telemetry is off. */
export function activeTracing(): Tracing | undefined {
  return current;
}

/** Wraps the exporter: the first failed export is said once, later ones are dropped quietly. */
class WarnOnce implements SpanExporter {
  private warned = false;
  constructor(
    private readonly inner: SpanExporter,
    private readonly url: string,
    private readonly warn: (message: string) => void,
  ) {}
  /** Whether an export has failed: the collector is taken for dead. */
  get hasFailed(): boolean {
    return this.warned;
  }
  /** Says `why` spans did not reach the collector, the first time only. */
  failed(why: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(`OpenTelemetry: spans could not be sent to ${this.url} (${why}); the run goes on, and further failures are not reported.`);
  }
  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.failed(result.error ? errorMessage(result.error) : 'export failed');
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** What makes two calls' tracing the same: a change of any of these starts a new one. */
function tracingKey(settings: TelemetrySettings, version: string): string {
  return JSON.stringify([settings.tracesUrl, settings.protocol, settings.serviceName, settings.captureContent, version]);
}

/**
 * Tracing for this process as the settings say: started when they name an endpoint, the same one
 * while they stay the same (a batch's runs share it), and replaced or stopped when they change
 * (the editor's settings can change between runs; the old tracing sends what it holds first).
 */
export function startTracing(settings: TelemetrySettings, version = ''): Tracing | undefined {
  const key = tracingKey(settings, version);
  if (current && currentKey === key) return current;
  if (current) void current.shutdown();
  if (!settings.tracesUrl) return undefined;
  const url = settings.tracesUrl;
  // Headers and timeout come from OTEL_EXPORTER_OTLP_(TRACES_)HEADERS / _TIMEOUT: the exporter reads them.
  const exporter = settings.protocol === 'http/json' ? new JsonExporter({ url }) : new ProtoExporter({ url });
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, ...(version ? { [ATTR_SERVICE_VERSION]: version } : {}) }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const sender = new WarnOnce(exporter, url, (m) => warnSink(m));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(sender)] });
  const tracing: Tracing = {
    tracer: provider.getTracer('sweci', version || undefined),
    captureContent: settings.captureContent,
    shutdown: async (maxWaitMs = FLUSH_WAIT_MS) => {
      if (current === tracing) current = undefined;
      const stopped = provider.shutdown().then(
        () => 'sent' as const,
        () => 'failed' as const,
      );
      // A collector already seen failing, or one that refuses the connection now, is not waited
      // for: the exporter would retry until the bound, and a dead endpoint must cost only its warning.
      if (sender.hasFailed) return;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), maxWaitMs);
        timer.unref();
      });
      const refused = collectorUnreachable(url, maxWaitMs).then((why) => (why === undefined ? new Promise<never>(() => undefined) : why));
      const ended = await Promise.race([stopped, waited, refused]);
      clearTimeout(timer);
      if (ended === 'late') sender.failed(`the last spans were not sent within ${maxWaitMs / 1000} s`);
      else if (ended !== 'sent' && ended !== 'failed') sender.failed(ended);
    },
  };
  current = tracing;
  currentKey = key;
  return tracing;
}

/** Flushes and stops the process's tracing, if any (a run's end: the CLI's exit, the extension's shutdown). */
export async function stopTracing(maxWaitMs = FLUSH_WAIT_MS): Promise<void> {
  await current?.shutdown(maxWaitMs);
}

/** A parent for spans made elsewhere (the loop's for the gateway's, an experiment's for its tasks). */
export type TraceParent = Context;

export function parentOf(span: Parameters<typeof trace.setSpan>[1]): TraceParent {
  return trace.setSpan(ROOT_CONTEXT, span);
}

// Each agent try's span, by the try's calls file: the gateway finds the parent of a model call
// by the record its try writes (a try is opened with its calls file, nothing else).
const tryParents = new Map<string, TraceParent>();

export function registerTry(callsFile: string, parent: TraceParent): void {
  tryParents.set(callsFile, parent);
}

export function forgetTry(callsFile: string): void {
  tryParents.delete(callsFile);
}

export function tryParent(callsFile: string): TraceParent | undefined {
  return tryParents.get(callsFile);
}
