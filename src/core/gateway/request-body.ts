// The request body: read as JSON where it is JSON (for the record, the model name and replay),
// and changed in one case before it goes upstream. A streamed Chat Completions request that did not
// ask for `stream_options.include_usage` gets it: without it the wire reports no usage at all, and
// the gateway's count is the point. The client then receives one chunk it did not ask for, the
// last before [DONE], with `choices: []` and the usage — the shape OpenAI documents for that
// option, which OpenAI-compatible clients read past. Every other body goes upstream byte for byte.
import type { WireProtocol } from './wire-protocol';
import { isRecord } from '../util/is-record';

export interface PreparedBody {
  /** The body as JSON, or its text when it is not JSON; undefined when empty. */
  json: unknown;
  /** What goes upstream. */
  forward: Buffer | undefined;
  /** Whether the gateway added include_usage. */
  addedUsageOption: boolean;
}

export function prepareBody(protocol: WireProtocol, raw: Buffer): PreparedBody {
  if (raw.length === 0) return { json: undefined, forward: undefined, addedUsageOption: false };
  const text = raw.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { json: text, forward: raw, addedUsageOption: false };
  }
  if (protocol === 'chat-completions' && isRecord(json) && json.stream === true) {
    const options = isRecord(json.stream_options) ? json.stream_options : {};
    if (options.include_usage !== true) {
      const changed = { ...json, stream_options: { ...options, include_usage: true } };
      return { json: changed, forward: Buffer.from(JSON.stringify(changed)), addedUsageOption: true };
    }
  }
  return { json, forward: raw, addedUsageOption: false };
}
