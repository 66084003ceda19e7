// Anthropic Messages: message_start (model, input usage), content_block_start/delta/stop (text,
// tool_use with input_json_delta pieces), message_delta (stop_reason, cumulative usage), or one
// `message` object when not streamed.
import { isRecord } from '../../util/is-record';
import { anthropicUsage, mergeAnthropicCounts, type AnthropicCounts } from '../wire-usage';
import { errorMessageOf, type Answer, type AnswerReader } from './answer-shape';

interface Block {
  type: string;
  id?: string;
  name?: string;
  text: string;
  json: string;
}

function blockOf(raw: unknown): Block {
  const b = isRecord(raw) ? raw : {};
  const input = b.input;
  return {
    type: typeof b.type === 'string' ? b.type : '',
    ...(typeof b.id === 'string' ? { id: b.id } : {}),
    ...(typeof b.name === 'string' ? { name: b.name } : {}),
    text: typeof b.text === 'string' ? b.text : '',
    // A non-streamed block holds its whole input; a streamed one starts with {} and gets deltas.
    json: isRecord(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : '',
  };
}

export function anthropicReader(): AnswerReader {
  const blocks: Block[] = [];
  const counts: AnthropicCounts = {};
  let sawUsage = false;
  let stopReason: string | undefined;
  let model: string | undefined;
  let error: string | undefined;

  const usage = (u: unknown) => {
    if (!isRecord(u)) return;
    sawUsage = true;
    mergeAnthropicCounts(counts, u);
  };

  return {
    event(data: unknown): void {
      if (!isRecord(data)) return;
      switch (data.type) {
        case 'message': // the whole answer, not streamed
          if (typeof data.model === 'string') model = data.model;
          if (Array.isArray(data.content)) blocks.push(...data.content.map(blockOf));
          if (typeof data.stop_reason === 'string') stopReason = data.stop_reason;
          usage(data.usage);
          break;
        case 'message_start': {
          const m = isRecord(data.message) ? data.message : {};
          if (typeof m.model === 'string') model = m.model;
          usage(m.usage);
          break;
        }
        case 'content_block_start':
          if (typeof data.index === 'number') blocks[data.index] = blockOf(data.content_block);
          break;
        case 'content_block_delta': {
          const block = typeof data.index === 'number' ? blocks[data.index] : undefined;
          const d = isRecord(data.delta) ? data.delta : {};
          if (!block) break;
          if (d.type === 'text_delta' && typeof d.text === 'string') block.text += d.text;
          else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') block.json += d.partial_json;
          break;
        }
        case 'message_delta': {
          const d = isRecord(data.delta) ? data.delta : {};
          if (typeof d.stop_reason === 'string') stopReason = d.stop_reason;
          usage(data.usage);
          break;
        }
        case 'error':
          error = errorMessageOf(data) ?? 'error';
          break;
      }
    },
    result(): Answer {
      const present = blocks.filter((b): b is Block => b !== undefined);
      return {
        text: present
          .filter((b) => b.type === 'text')
          .map((b) => b.text)
          .join(''),
        toolCalls: present
          .filter((b) => b.type === 'tool_use' || b.type === 'server_tool_use')
          .map((b) => ({ ...(b.id ? { id: b.id } : {}), name: b.name ?? '', arguments: b.json || '{}' })),
        ...(stopReason !== undefined ? { stopReason } : {}),
        ...(sawUsage ? { usage: anthropicUsage(counts) } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(error !== undefined ? { error } : {}),
      };
    },
  };
}
