// Token usage as the wire reported it, in one convention for every protocol so the numbers sum
// and compare across presets, and agree with the CLI usage parsers in core/agents/presets/<id>/usage.ts:
//   input     = every prompt token the model read, cached ones included
//   cached    = the part of `input` read from the cache (never added again)
//   output    = every token the model wrote, reasoning included
//   reasoning = the part of `output` spent thinking, where the protocol says
// Per protocol:
//   Anthropic Messages  input = input_tokens + cache_read_input_tokens + cache_creation_input_tokens
//                       (Anthropic leaves the cache out of input_tokens; claude-code.ts adds it the same way);
//                       cached = cache_read_input_tokens; output = output_tokens; reasoning is not reported (0).
//   OpenAI Responses    input = input_tokens (already holds cached); cached = input_tokens_details.cached_tokens;
//                       output = output_tokens (already holds reasoning); reasoning = output_tokens_details.reasoning_tokens.
//   Chat Completions    input = prompt_tokens; cached = prompt_tokens_details.cached_tokens (DeepSeek's
//                       prompt_cache_hit_tokens when that is absent); output = completion_tokens;
//                       reasoning = completion_tokens_details.reasoning_tokens.
//   Gemini              input = promptTokenCount (holds cachedContentTokenCount); cached = cachedContentTokenCount;
//                       output = candidatesTokenCount + thoughtsTokenCount (thoughts are billed as output, as
//                       gemini.ts counts them); reasoning = thoughtsTokenCount.
import { isRecord } from '../util/is-record';

export interface WireUsage {
  input: number;
  output: number;
  cached: number;
  reasoning: number;
}

export const NO_USAGE: Readonly<WireUsage> = Object.freeze({ input: 0, output: 0, cached: 0, reasoning: 0 });

/** A finite non-negative count, else undefined (a missing or odd field is "not reported"). */
export function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

const sub = (o: unknown, k: string): Record<string, unknown> => (isRecord(o) && isRecord(o[k]) ? o[k] : {});

/** Anthropic's usage fields as one message reports them so far (message_start, then message_delta). */
export interface AnthropicCounts {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** Merges an Anthropic usage object into the counts so far: message_delta repeats fields cumulatively. */
export function mergeAnthropicCounts(into: AnthropicCounts, usage: unknown): void {
  if (!isRecord(usage)) return;
  for (const k of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const v = count(usage[k]);
    if (v !== undefined) into[k] = v;
  }
}

export function anthropicUsage(c: AnthropicCounts): WireUsage {
  const cached = c.cache_read_input_tokens ?? 0;
  return { input: (c.input_tokens ?? 0) + cached + (c.cache_creation_input_tokens ?? 0), output: c.output_tokens ?? 0, cached, reasoning: 0 };
}

export function responsesUsage(usage: unknown): WireUsage | undefined {
  if (!isRecord(usage)) return undefined;
  return {
    input: count(usage.input_tokens) ?? 0,
    output: count(usage.output_tokens) ?? 0,
    cached: count(sub(usage, 'input_tokens_details').cached_tokens) ?? 0,
    reasoning: count(sub(usage, 'output_tokens_details').reasoning_tokens) ?? 0,
  };
}

export function chatUsage(usage: unknown): WireUsage | undefined {
  if (!isRecord(usage)) return undefined;
  return {
    input: count(usage.prompt_tokens) ?? 0,
    output: count(usage.completion_tokens) ?? 0,
    cached: count(sub(usage, 'prompt_tokens_details').cached_tokens) ?? count(usage.prompt_cache_hit_tokens) ?? 0,
    reasoning: count(sub(usage, 'completion_tokens_details').reasoning_tokens) ?? 0,
  };
}

export function geminiUsage(meta: unknown): WireUsage | undefined {
  if (!isRecord(meta)) return undefined;
  const thoughts = count(meta.thoughtsTokenCount) ?? 0;
  return {
    input: count(meta.promptTokenCount) ?? 0,
    output: (count(meta.candidatesTokenCount) ?? 0) + thoughts,
    cached: count(meta.cachedContentTokenCount) ?? 0,
    reasoning: thoughts,
  };
}

export function addUsage(a: WireUsage, b: WireUsage): WireUsage {
  return { input: a.input + b.input, output: a.output + b.output, cached: a.cached + b.cached, reasoning: a.reasoning + b.reasoning };
}

/** What a token bound counts: every token read and written. */
export const tokensOf = (u: WireUsage): number => u.input + u.output;
