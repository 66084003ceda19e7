// Reads the spans of an OTLP/protobuf export request with the SDK's own protobuf reader
// (@opentelemetry/otlp-transformer's), walking the messages of opentelemetry-proto's trace
// service by field number: enough for a test to see names, ids, parents and attributes.
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader';

export interface WireSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

const WIRE_LEN = 2;
const WIRE_VARINT = 0;

/** Calls `on` for each field of a message; `on` reads the value or returns false to skip it. */
function fields(buf: Uint8Array, on: (field: number, wireType: number, r: ProtobufReader) => boolean): void {
  const r = new ProtobufReader(buf);
  while (!r.isAtEnd()) {
    const { fieldNumber, wireType } = r.readTag();
    if (!on(fieldNumber, wireType, r)) r.skip(wireType);
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** AnyValue: string 1, bool 2, int 3, array 5 (double, kvlist and bytes are not read here). */
function anyValue(buf: Uint8Array): unknown {
  let value: unknown;
  fields(buf, (f, w, r) => {
    if (f === 1 && w === WIRE_LEN) value = r.readString();
    else if (f === 2 && w === WIRE_VARINT) value = r.readVarint() !== 0;
    else if (f === 3 && w === WIRE_VARINT) value = r.readVarint();
    else if (f === 5 && w === WIRE_LEN) {
      const list: unknown[] = [];
      fields(r.readBytes(), (g, v, rr) => (g === 1 && v === WIRE_LEN ? (list.push(anyValue(rr.readBytes())), true) : false));
      value = list;
    } else return false;
    return true;
  });
  return value;
}

/** KeyValue: key 1, value 2. */
function keyValue(buf: Uint8Array, into: Record<string, unknown>): void {
  let key = '';
  let value: unknown;
  fields(buf, (f, w, r) => {
    if (f === 1 && w === WIRE_LEN) key = r.readString();
    else if (f === 2 && w === WIRE_LEN) value = anyValue(r.readBytes());
    else return false;
    return true;
  });
  into[key] = value;
}

/** Span: trace_id 1, span_id 2, parent_span_id 4, name 5, attributes 9. */
function span(buf: Uint8Array, resource: Record<string, unknown>): WireSpan {
  const s: WireSpan = { traceId: '', spanId: '', name: '', attributes: {}, resource };
  fields(buf, (f, w, r) => {
    if (w !== WIRE_LEN) return false;
    if (f === 1) s.traceId = hex(r.readBytes());
    else if (f === 2) s.spanId = hex(r.readBytes());
    else if (f === 4) {
      const p = r.readBytes();
      if (p.length > 0) s.parentSpanId = hex(p);
    } else if (f === 5) s.name = r.readString();
    else if (f === 9) keyValue(r.readBytes(), s.attributes);
    else return false;
    return true;
  });
  return s;
}

/** ExportTraceServiceRequest: resource_spans 1 → (resource 1 → attributes 1; scope_spans 2 → spans 2). */
export function decodeProtobufSpans(body: Uint8Array): WireSpan[] {
  const out: WireSpan[] = [];
  fields(body, (f, w, r) => {
    if (f !== 1 || w !== WIRE_LEN) return false;
    const resource: Record<string, unknown> = {};
    const scopes: Uint8Array[] = [];
    fields(r.readBytes(), (g, v, rr) => {
      if (v !== WIRE_LEN) return false;
      if (g === 1) fields(rr.readBytes(), (h, x, r3) => (h === 1 && x === WIRE_LEN ? (keyValue(r3.readBytes(), resource), true) : false));
      else if (g === 2) scopes.push(rr.readBytes());
      else return false;
      return true;
    });
    for (const scope of scopes) fields(scope, (g, v, rr) => (g === 2 && v === WIRE_LEN ? (out.push(span(rr.readBytes(), resource)), true) : false));
    return true;
  });
  return out;
}
