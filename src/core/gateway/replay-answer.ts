// Answering a call from its recording: the recorded status, content type and body, byte for
// byte. A recorded stream is sent event by event (each ends at a blank line), so a client reads
// it as a stream again.
import type * as http from 'node:http';
import type { GatewayCall } from '../records/gateway-call';

export type RecordedCall = GatewayCall;

/** Why a recorded call cannot be answered from, or undefined when it can. */
export function unreplayable(call: RecordedCall): string | undefined {
  if (call.truncated) return `its record was cut (${call.truncated})`;
  if (call.refused) return `the gateway refused it when it was recorded (${call.refused})`;
  if (!call.raw) return call.error ? `no answer was recorded (${call.error})` : 'no answer was recorded';
  return undefined;
}

export function rawBody(raw: NonNullable<RecordedCall['raw']>): Buffer {
  return Buffer.from(raw.body, raw.encoding === 'base64' ? 'base64' : 'utf8');
}

/** Writes a recorded answer; resolves once it is sent. */
export function sendRecorded(res: http.ServerResponse, raw: NonNullable<RecordedCall['raw']>): Promise<void> {
  const body = rawBody(raw);
  res.writeHead(raw.status, { 'content-type': raw.contentType, ...(raw.contentType.includes('event-stream') ? { 'cache-control': 'no-cache' } : {}) });
  if (!/text\/event-stream/i.test(raw.contentType)) return new Promise((resolve) => res.end(body, resolve));
  let start = 0;
  for (;;) {
    const end = body.indexOf('\n\n', start);
    if (end < 0) break;
    res.write(body.subarray(start, end + 2));
    start = end + 2;
  }
  return new Promise((resolve) => res.end(body.subarray(start), resolve));
}
