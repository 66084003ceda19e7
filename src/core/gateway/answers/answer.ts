// What a model answered, reassembled from its wire events (streamed) or its one JSON body, for
// the record, the wire's usage and the "empty answer" check. One reader per protocol; each is fed
// the parsed JSON of every event (or the body) in order and never throws on odd input.
import type { WireProtocol } from '../../agents/endpoint/endpoint';
import type { WireUsage } from '../wire-usage';
import { anthropicReader } from './anthropic';
import { chatCompletionsReader } from './chat-completions';
import { geminiReader } from './gemini';
import { responsesReader } from './openai-responses';

export interface SeenToolCall {
  id?: string;
  name: string;
  /** The arguments as the model wrote them (JSON text for function tools, free text for custom ones). */
  arguments: string;
}

export interface Answer {
  text: string;
  toolCalls: SeenToolCall[];
  stopReason?: string;
  /** Undefined when the wire reported none. */
  usage?: WireUsage;
  model?: string;
  /** An error the body or a stream event carried (its message). */
  error?: string;
}

export interface AnswerReader {
  /** One parsed event (SSE `data:`), or the whole JSON body; `name` is the SSE event name. */
  event(data: unknown, name?: string): void;
  result(): Answer;
}

export function answerReader(protocol: WireProtocol): AnswerReader {
  switch (protocol) {
    case 'anthropic-messages':
      return anthropicReader();
    case 'openai-responses':
      return responsesReader();
    case 'chat-completions':
      return chatCompletionsReader();
    case 'gemini':
      return geminiReader();
  }
}

/** An answer with neither text nor a tool call: what a CLI often takes as a finished turn. */
export const isEmptyAnswer = (a: Answer): boolean => a.text.trim() === '' && a.toolCalls.length === 0;

/** Parses an event's data; undefined for `[DONE]` and anything not JSON. */
export function parseEventData(data: string): unknown {
  if (data === '[DONE]') return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** Feeds a whole JSON body: Gemini's stream without `alt=sse` is an array of responses. */
export function feedBody(reader: AnswerReader, text: string): void {
  const value = parseEventData(text);
  if (Array.isArray(value)) for (const v of value) reader.event(v);
  else if (value !== undefined) reader.event(value);
}

/** The message of a `{error: {message}}` or `{error: "…"}` body, or of Anthropic's `{type: 'error', error: {message}}`. */
export function errorMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}
