// The shape every protocol's answer reader fills (answer.ts picks the reader): the answer as
// reassembled from the wire, and the error message a body carries.
import type { WireUsage } from '../wire-usage';

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
