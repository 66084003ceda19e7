// A model call's span, made by the gateway from the call's record when the call ends, parented
// to its try's span. Attributes follow OpenTelemetry's GenAI semantic conventions (inference
// spans: docs/ARCHITECTURE.md cites them); cost is ours (sweci.cost_usd). Message content is put
// on only with sweci.telemetry.captureContent, masked like the record (the try's token and the
// real key never leave the harness).
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { GatewayCall } from '../records/gateway-call';
import type { SecretMask } from '../util/secret-mask';
import type { WireProtocol } from './wire-protocol';
import { activeTracing, type TraceParent } from '../telemetry/tracing';

/** gen_ai.provider.name for each wire protocol (the conventions' well-known values). */
const PROVIDER: Record<WireProtocol, string> = {
  'anthropic-messages': 'anthropic',
  'openai-responses': 'openai',
  'chat-completions': 'openai',
  gemini: 'gcp.gemini',
};

/** The request's messages, as the protocol holds them. */
function inputMessages(request: unknown): unknown {
  if (!request || typeof request !== 'object') return request;
  const r = request as Record<string, unknown>;
  return r.messages ?? r.input ?? r.contents ?? request;
}

export function emitCallSpan(parent: TraceParent | undefined, line: GatewayCall, responseModel: string | undefined, mask: SecretMask): void {
  const tracing = activeTracing();
  if (!tracing || line.kind !== 'model') return;
  const end = Date.now();
  const operation = line.protocol === 'openai-responses' || line.protocol === 'gemini' ? 'generate_content' : 'chat';
  const finish = line.response?.stopReason;
  const span = tracing.tracer.startSpan(
    `${operation} ${line.model ?? ''}`.trim(),
    {
      kind: SpanKind.CLIENT,
      startTime: end - line.ms,
      attributes: {
        'gen_ai.operation.name': operation,
        'gen_ai.provider.name': PROVIDER[line.protocol],
        'gen_ai.system': PROVIDER[line.protocol],
        ...(line.model ? { 'gen_ai.request.model': line.model } : {}),
        ...(responseModel ? { 'gen_ai.response.model': responseModel } : {}),
        'gen_ai.usage.input_tokens': line.usage.input,
        'gen_ai.usage.output_tokens': line.usage.output,
        'gen_ai.usage.cache_read.input_tokens': line.usage.cached,
        ...(line.usage.reasoning > 0 ? { 'gen_ai.usage.reasoning.output_tokens': line.usage.reasoning } : {}),
        ...(finish ? { 'gen_ai.response.finish_reasons': [finish] } : {}),
        ...(line.costUsd !== undefined ? { 'sweci.cost_usd': line.costUsd } : {}),
        'sweci.call': line.call,
        'sweci.stream': line.stream,
        'sweci.retries': line.retries,
        ...(line.firstByteMs !== undefined ? { 'sweci.first_byte_ms': line.firstByteMs } : {}),
        ...(line.status ? { 'http.response.status_code': line.status } : {}),
        ...(line.replayed ? { 'sweci.replayed': true } : {}),
        ...(line.refused !== undefined ? { 'sweci.refused': true } : {}),
      },
    },
    parent,
  );
  if (tracing.captureContent) {
    if (line.request !== undefined) span.setAttribute('gen_ai.input.messages', mask.mask(JSON.stringify(inputMessages(line.request))));
    if (line.response) {
      const parts = [
        ...(line.response.text ? [{ type: 'text', content: line.response.text }] : []),
        ...line.response.toolCalls.map((t) => ({ type: 'tool_call', ...(t.id ? { id: t.id } : {}), name: t.name, arguments: t.arguments })),
      ];
      span.setAttribute('gen_ai.output.messages', mask.mask(JSON.stringify([{ role: 'assistant', parts, ...(finish ? { finish_reason: finish } : {}) }])));
    }
  }
  const failed = line.refused !== undefined || line.error !== undefined || line.status === 0 || line.status >= 400;
  if (failed) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', line.refused !== undefined ? 'refused' : line.status ? String(line.status) : 'no_response');
  }
  span.end(end);
}
