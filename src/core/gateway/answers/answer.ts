// What a model answered, reassembled from its wire events (streamed) or its one JSON body, for
// the record, the wire's usage and the "empty answer" check. One reader per protocol; each is fed
// the parsed JSON of every event (or the body) in order and never throws on odd input.
import { SseReader } from '../sse-reader';
import type { WireProtocol } from '../wire-protocol';
import type { Answer, AnswerReader } from './answer-shape';
import { anthropicReader } from './anthropic';
import { chatCompletionsReader } from './chat-completions';
import { geminiReader } from './gemini';
import { responsesReader } from './openai-responses';

export type { Answer, AnswerReader, SeenToolCall } from './answer-shape';
export { errorMessageOf } from './answer-shape';

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

/** An answer read back from a recorded body. */
export function reassemble(protocol: WireProtocol, contentType: string, body: Buffer): Answer {
  const reader = answerReader(protocol);
  if (/text\/event-stream/i.test(contentType)) {
    const sse = new SseReader();
    for (const e of [...sse.push(body), ...sse.end()]) {
      const data = parseEventData(e.data);
      if (data !== undefined) reader.event(data, e.event);
    }
  } else feedBody(reader, body.toString('utf8'));
  return reader.result();
}
