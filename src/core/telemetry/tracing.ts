// The process's tracer, when telemetry is on: OpenTelemetry's own SDK with a batch processor and
// an OTLP/HTTP exporter (protobuf or JSON). Spans are queued in memory and sent in the
// background, so a step never waits on the collector; a collector that cannot be reached costs
// one warning, not one per batch. Off (no endpoint), the SDK (otel-sdk.ts) is never loaded and
// every span helper returns at once.
import { ROOT_CONTEXT, trace, type Context, type Tracer } from '@opentelemetry/api';
import { collectorUnreachable } from './collector-probe';
import type * as OtelSdk from './otel-sdk';
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
  // Loaded only now: the SDK's modules are a good part of a command's start-up, and most runs trace nothing.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./otel-sdk') as typeof OtelSdk;
  const { provider, sender } = sdk.otlpPipeline({ ...settings, tracesUrl: url }, version, (m) => warnSink(m));
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
