// Gemini: GenerateContentResponse objects, one per SSE event or one body (an array of them for a
// stream without alt=sse). Text parts add up (thoughts left out), functionCall parts are calls,
// the last finishReason and the last usageMetadata count: Gemini repeats usage cumulatively.
import { isRecord } from '../../util/is-record';
import { geminiUsage, type WireUsage } from '../wire-usage';
import { errorMessageOf, type Answer, type AnswerReader, type SeenToolCall } from './answer-shape';

export function geminiReader(): AnswerReader {
  let text = '';
  const toolCalls: SeenToolCall[] = [];
  let stopReason: string | undefined;
  let usage: WireUsage | undefined;
  let model: string | undefined;
  let error: string | undefined;

  return {
    event(data: unknown): void {
      if (!isRecord(data)) return;
      if (data.error !== undefined) error = errorMessageOf(data);
      if (typeof data.modelVersion === 'string') model = data.modelVersion;
      const u = geminiUsage(data.usageMetadata);
      if (u) usage = u;
      const candidates = Array.isArray(data.candidates) ? data.candidates : [];
      const c = candidates[0] as unknown;
      if (!isRecord(c)) return;
      if (typeof c.finishReason === 'string') stopReason = c.finishReason;
      const parts = isRecord(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
      for (const p of parts) {
        if (!isRecord(p)) continue;
        if (typeof p.text === 'string' && p.thought !== true) text += p.text;
        if (isRecord(p.functionCall)) {
          const fc = p.functionCall;
          toolCalls.push({
            ...(typeof fc.id === 'string' ? { id: fc.id } : {}),
            name: typeof fc.name === 'string' ? fc.name : '',
            arguments: JSON.stringify(fc.args ?? {}),
          });
        }
      }
    },
    result(): Answer {
      return {
        text,
        toolCalls,
        ...(stopReason !== undefined ? { stopReason } : {}),
        ...(usage ? { usage } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(error !== undefined ? { error } : {}),
      };
    },
  };
}
