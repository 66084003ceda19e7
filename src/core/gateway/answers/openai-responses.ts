// OpenAI Responses: typed events ending with response.completed (or .incomplete / .failed), whose
// `response` holds the output items and the usage; or that response object when not streamed.
// Output items finished along the way (output_item.done) and text deltas are kept in case the
// stream ends before its final event.
import { isRecord } from '../../util/is-record';
import { responsesUsage } from '../wire-usage';
import { errorMessageOf, type Answer, type AnswerReader, type SeenToolCall } from './answer-shape';

function fromItems(items: unknown[]): { text: string; toolCalls: SeenToolCall[] } {
  let text = '';
  const toolCalls: SeenToolCall[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const id = typeof item.call_id === 'string' ? { id: item.call_id } : {};
    const name = typeof item.name === 'string' ? item.name : '';
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) if (isRecord(part) && part.type === 'output_text' && typeof part.text === 'string') text += part.text;
    } else if (item.type === 'function_call') toolCalls.push({ ...id, name, arguments: typeof item.arguments === 'string' ? item.arguments : '' });
    else if (item.type === 'custom_tool_call') toolCalls.push({ ...id, name, arguments: typeof item.input === 'string' ? item.input : '' });
    else if (item.type === 'local_shell_call') toolCalls.push({ ...id, name: 'local_shell', arguments: JSON.stringify(item.action ?? {}) });
  }
  return { text, toolCalls };
}

export function responsesReader(): AnswerReader {
  let final: Record<string, unknown> | undefined;
  const doneItems: unknown[] = [];
  let deltas = '';
  let model: string | undefined;
  let error: string | undefined;

  const takeResponse = (r: unknown, isFinal: boolean) => {
    if (!isRecord(r)) return;
    if (typeof r.model === 'string') model = r.model;
    if (isFinal) final = r;
  };

  return {
    event(data: unknown): void {
      if (!isRecord(data)) return;
      if (data.object === 'response') return takeResponse(data, true);
      switch (data.type) {
        case 'response.created':
        case 'response.in_progress':
          takeResponse(data.response, false);
          break;
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed':
          takeResponse(data.response, true);
          break;
        case 'response.output_item.done':
          doneItems.push(data.item);
          break;
        case 'response.output_text.delta':
          if (typeof data.delta === 'string') deltas += data.delta;
          break;
        case 'error':
          error = errorMessageOf(data) ?? (typeof data.message === 'string' ? data.message : 'error');
          break;
        default:
          if (data.type === undefined && data.error !== undefined) error = errorMessageOf(data);
      }
    },
    result(): Answer {
      const items = final && Array.isArray(final.output) && final.output.length > 0 ? final.output : doneItems;
      const seen = fromItems(items);
      const text = seen.text !== '' || seen.toolCalls.length > 0 ? seen.text : deltas;
      const status = final && typeof final.status === 'string' ? final.status : undefined;
      const incomplete = final && isRecord(final.incomplete_details) ? final.incomplete_details.reason : undefined;
      const usage = final ? responsesUsage(final.usage) : undefined;
      const failed = final && isRecord(final.error) ? errorMessageOf({ error: final.error }) : undefined;
      return {
        text,
        toolCalls: seen.toolCalls,
        ...(status !== undefined ? { stopReason: typeof incomplete === 'string' ? `${status}: ${incomplete}` : status } : {}),
        ...(usage ? { usage } : {}),
        ...(model !== undefined ? { model } : {}),
        ...((error ?? failed) !== undefined ? { error: error ?? failed } : {}),
      };
    },
  };
}
