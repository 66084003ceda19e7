// Chat Completions: `chat.completion.chunk` events (content and tool_calls deltas keyed by index,
// a finish_reason, usage on the last chunk when asked for) or one `chat.completion` object.
// Only the first choice is read: agents ask for one.
import { isRecord } from '../../util/is-record';
import { chatUsage, type WireUsage } from '../wire-usage';
import { errorMessageOf, type Answer, type AnswerReader, type SeenToolCall } from './answer-shape';

const firstChoice = (data: Record<string, unknown>): Record<string, unknown> | undefined => {
  const choices = Array.isArray(data.choices) ? data.choices : [];
  const c = choices.find((x) => isRecord(x) && (x.index === undefined || x.index === 0)) as unknown;
  return isRecord(c) ? c : undefined;
};

export function chatCompletionsReader(): AnswerReader {
  let text = '';
  const calls: SeenToolCall[] = [];
  let stopReason: string | undefined;
  let usage: WireUsage | undefined;
  let model: string | undefined;
  let error: string | undefined;

  const addCalls = (raw: unknown, streamed: boolean) => {
    if (!Array.isArray(raw)) return;
    raw.forEach((c, i) => {
      if (!isRecord(c)) return;
      // Streamed pieces name the call they extend by index; a whole message lists each call once.
      const index = !streamed ? calls.length : typeof c.index === 'number' ? c.index : i;
      const fn = isRecord(c.function) ? c.function : isRecord(c.custom) ? c.custom : {};
      const call = (calls[index] ??= { name: '', arguments: '' });
      if (typeof c.id === 'string' && c.id !== '') call.id = c.id;
      if (typeof fn.name === 'string') call.name += fn.name;
      const piece = typeof fn.arguments === 'string' ? fn.arguments : typeof fn.input === 'string' ? fn.input : '';
      call.arguments += piece;
    });
  };

  return {
    event(data: unknown): void {
      if (!isRecord(data)) return;
      if (data.error !== undefined) error = errorMessageOf(data);
      if (typeof data.model === 'string' && data.model !== '') model = data.model;
      const u = chatUsage(data.usage);
      if (u) usage = u;
      const choice = firstChoice(data);
      if (!choice) return;
      if (typeof choice.finish_reason === 'string') stopReason = choice.finish_reason;
      const streamed = isRecord(choice.delta);
      const msg = streamed ? (choice.delta as Record<string, unknown>) : isRecord(choice.message) ? choice.message : {};
      if (typeof msg.content === 'string') text += msg.content;
      addCalls(msg.tool_calls, streamed);
    },
    result(): Answer {
      return {
        text,
        toolCalls: calls.filter((c): c is SeenToolCall => c !== undefined),
        ...(stopReason !== undefined ? { stopReason } : {}),
        ...(usage ? { usage } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(error !== undefined ? { error } : {}),
      };
    },
  };
}
