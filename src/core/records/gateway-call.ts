// One model call as the gateway saw it: a line of a try's `<role>-try-<N>.calls.jsonl`, appended
// when the call ends (so lines are in the order calls ended; `call` is the order they began).
// The record is what the wire said, keys and tokens redacted: the request, the answer reassembled
// from the stream, the usage the upstream reported, and the raw answer a replay sends back. A line
// is capped in size; a cut one says what was dropped in `truncated` and cannot be replayed.
import { z } from 'zod';
import { parseJsonLines, readIfPresent } from './record-file';
import { describeSchemaProblem } from './schema-problem';

/** The wire protocols, as core/agents/endpoint names them (records sit below the agents). */
export const GATEWAY_PROTOCOLS = ['anthropic-messages', 'openai-responses', 'chat-completions', 'gemini'] as const;

const tokens = z.number().int().min(0);

export const wireUsageSchema = z.object({
  /** Every prompt token read, cached ones included. */
  input: tokens,
  /** Every token written, reasoning included. */
  output: tokens,
  /** The part of `input` read from a cache. */
  cached: tokens,
  /** The part of `output` spent on reasoning, where the protocol reports it. */
  reasoning: tokens,
});

export const gatewayCallSchema = z.object({
  call: z.number().int().min(1),
  protocol: z.enum(GATEWAY_PROTOCOLS),
  /** 'model': a request for an answer; 'other': model lists, token counts, probes (no usage). */
  kind: z.enum(['model', 'other']),
  method: z.string(),
  /** The path the client asked, without the query. */
  path: z.string(),
  model: z.string().optional(),
  stream: z.boolean(),
  /** The upstream's HTTP status (the recording's, on replay); 0 when none came (refused, unreachable, hung). */
  status: z.number().int().min(0),
  usage: wireUsageSchema,
  /** Dollars, when the model has a price. */
  costUsd: z.number().min(0).optional(),
  ms: z.number().min(0),
  /** Time to the upstream's first body byte; absent when none came. */
  firstByteMs: z.number().min(0).optional(),
  /** Attempts the gateway made again after a 429, 5xx or reset. */
  retries: z.number().int().min(0),
  /** The request body as sent upstream (JSON, or its text when it is not JSON). */
  request: z.unknown().optional(),
  /** The size of a refused call's body, which its line does not keep. */
  requestBytes: z.number().int().min(0).optional(),
  response: z
    .object({
      text: z.string(),
      toolCalls: z.array(z.object({ id: z.string().optional(), name: z.string(), arguments: z.string() })),
      stopReason: z.string().optional(),
    })
    .optional(),
  /** The upstream's answer as it came, for replay: status, content type, body. */
  raw: z
    .object({
      status: z.number().int().min(100),
      contentType: z.string(),
      body: z.string(),
      /** 'base64' when the body was not UTF-8 text. */
      encoding: z.enum(['utf8', 'base64']),
    })
    .optional(),
  error: z.string().optional(),
  /** The gateway answered this call itself and forwarded nothing (a spent budget, a divergence). */
  refused: z.string().optional(),
  replayed: z.boolean().optional(),
  /** What was dropped to keep the line under the cap; such a call cannot be replayed. */
  truncated: z.string().optional(),
});

export type GatewayCall = z.infer<typeof gatewayCallSchema>;

const WHEN_DAMAGED = 'It was written by the model gateway; a replay from it cannot be trusted. Record the run again.';

/** Checks a call and gives its line (with the newline); a call that fails its schema is a bug. */
export function formatGatewayCallLine(call: GatewayCall): string {
  const checked = gatewayCallSchema.safeParse(call);
  if (!checked.success) throw new Error(`refusing to write a gateway call: ${describeSchemaProblem(checked.error)}`);
  return `${JSON.stringify(call)}\n`;
}

/** A try's calls, sorted by call number; [] when the file does not exist. */
export async function readGatewayCalls(file: string): Promise<GatewayCall[]> {
  const text = await readIfPresent(file);
  if (text === undefined) return [];
  return parseJsonLines(text, file, gatewayCallSchema, WHEN_DAMAGED).sort((a, b) => a.call - b.call);
}

/** Parses the text of a calls file (see readGatewayCalls). */
export function parseGatewayCalls(text: string, file: string): GatewayCall[] {
  return parseJsonLines(text, file, gatewayCallSchema, WHEN_DAMAGED).sort((a, b) => a.call - b.call);
}
