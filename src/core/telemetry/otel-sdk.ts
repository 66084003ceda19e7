// OpenTelemetry's SDK put together for SWE-CI: an OTLP/HTTP exporter (protobuf or JSON) behind a
// batch processor, the service's resource, and a wrapper that says a failed export once. Loaded
// by tracing.ts only when telemetry is on.
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { envDetector, detectResources, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ExportResultCode } from '@opentelemetry/core';
import { errorMessage } from '../util/errors';
import type { TelemetrySettings } from './telemetry-settings';

/** Wraps the exporter: the first failed export is said once, later ones are dropped quietly. */
export class WarnOnce implements SpanExporter {
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

/** The provider and its exporter's wrapper for `settings` (which name an endpoint). */
export function otlpPipeline(
  settings: TelemetrySettings & { tracesUrl: string },
  version: string,
  warn: (message: string) => void,
): { provider: BasicTracerProvider; sender: WarnOnce } {
  const url = settings.tracesUrl;
  // Headers and timeout come from OTEL_EXPORTER_OTLP_(TRACES_)HEADERS / _TIMEOUT: the exporter reads them.
  const exporter = settings.protocol === 'http/json' ? new JsonExporter({ url }) : new ProtoExporter({ url });
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, ...(version ? { [ATTR_SERVICE_VERSION]: version } : {}) }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const sender = new WarnOnce(exporter, url, warn);
  return { provider: new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(sender)] }), sender };
}
