// What an agent's try looked like as a conversation: the calls it made to the model, each with
// what it added to the conversation (the prompt, tool results) and what the model answered (text,
// reasoning, tool calls), with tokens, time and cost. Built from the gateway's calls record
// (`<role>-try-<N>.calls.jsonl`, the same for every CLI) or, where a try has none, from the CLI's
// own event stream in its log. Plain JSON: the editor's Transcript panel, the exported report
// and `sweci transcript --format json` all show this one shape. zod/mini, so the webview bundle
// checks what it receives with the same schema. Browser-safe: no node imports.
import * as z from 'zod/mini';

const count = () => z.int().check(z.minimum(0));

/** One thing in the conversation. */
export const transcriptItemSchema = z.discriminatedUnion('kind', [
  /** A message's text: the harness's prompt (user), the system prompt, or the model's answer. */
  z.object({ kind: z.literal('text'), role: z.enum(['system', 'user', 'assistant']), text: z.string() }),
  /** The model's reasoning, where the protocol carries it in clear. */
  z.object({ kind: z.literal('reasoning'), text: z.string() }),
  /** A tool the model asked for: `input` is the parsed arguments (their text when not JSON). */
  z.object({ kind: z.literal('tool-call'), id: z.optional(z.string()), name: z.string(), input: z.unknown() }),
  /** What the agent sent back for a tool call (matched by id, or by name where the protocol has no ids). */
  z.object({ kind: z.literal('tool-result'), id: z.optional(z.string()), name: z.optional(z.string()), output: z.string(), isError: z.optional(z.boolean()) }),
]);
export type TranscriptItem = z.infer<typeof transcriptItemSchema>;
export type ToolCallItem = Extract<TranscriptItem, { kind: 'tool-call' }>;

export const transcriptUsageSchema = z.object({
  /** Every prompt token read, cached ones included. */
  input: count(),
  /** Every token written, reasoning included. */
  output: count(),
  cached: count(),
  reasoning: count(),
});
export type TranscriptUsage = z.infer<typeof transcriptUsageSchema>;

/** One model call (gateway) or one turn of the CLI's event stream. */
export const transcriptCallSchema = z.object({
  /** 1-based, in the order the calls began. */
  call: z.int().check(z.minimum(1)),
  model: z.optional(z.string()),
  /** What this call added to the conversation: for the first, the prompt; after, the results of the tools the last answer asked for. */
  input: z.array(transcriptItemSchema),
  /** The model's answer: text, reasoning and tool calls, in order. */
  output: z.array(transcriptItemSchema),
  /** The answer's tool calls (also in `output`), for scripts: each with its name and parsed input. */
  toolCalls: z.array(z.object({ id: z.optional(z.string()), name: z.string(), input: z.unknown() })),
  usage: z.optional(transcriptUsageSchema),
  costUsd: z.optional(z.number()),
  ms: z.optional(z.number()),
  firstByteMs: z.optional(z.number()),
  status: z.optional(count()),
  retries: z.optional(count()),
  stopReason: z.optional(z.string()),
  /** Why the call failed, was refused by the gateway, or was cut in the record. */
  error: z.optional(z.string()),
  refused: z.optional(z.string()),
  truncated: z.optional(z.string()),
  replayed: z.optional(z.boolean()),
  /** The request does not continue the conversation before it (a side call: a title, a sub-agent). */
  side: z.optional(z.boolean()),
});
export type TranscriptCall = z.infer<typeof transcriptCallSchema>;

export const transcriptSchema = z.object({
  /** Where the transcript comes from: the gateway's calls record, or the CLI's own event stream. */
  source: z.enum(['gateway', 'cli-events']),
  role: z.enum(['architect', 'programmer']),
  iteration: count(),
  try: z.int().check(z.minimum(1)),
  run: z.optional(z.string()),
  /** The CLI (preset id) or 'custom', when known. */
  agent: z.optional(z.string()),
  /** The system prompt of the first call, shown collapsed. */
  system: z.optional(z.string()),
  /** The tools the agent offered the model, shown collapsed. */
  tools: z.array(z.object({ name: z.string(), description: z.optional(z.string()) })),
  calls: z.array(transcriptCallSchema),
  totals: z.object({ calls: count(), usage: transcriptUsageSchema, costUsd: z.optional(z.number()), ms: z.number() }),
  /** What the reader should know: lines that could not be read, a try still running. */
  notes: z.array(z.string()),
});
export type Transcript = z.infer<typeof transcriptSchema>;
