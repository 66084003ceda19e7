// Anthropic Messages requests (Claude Code): `system` (a string or text blocks), `messages` whose
// content is a string or blocks (text, thinking, tool_use; tool_result in user messages), and
// `tools` (client tools with a name, server tools named by their type).
import type { TranscriptItem } from '../../../shared/transcript-schema';
import { type Entry, type RequestView, capResult, isObject, namedTools, outputText, str } from '../request-view';

function systemText(system: unknown): string | undefined {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return undefined;
  return system
    .filter(isObject)
    .map((b) => str(b.text))
    .filter((t) => t !== '')
    .join('\n\n');
}

function blockItems(block: unknown, role: 'user' | 'assistant'): TranscriptItem[] {
  if (typeof block === 'string') return block === '' ? [] : [{ kind: 'text', role, text: block }];
  if (!isObject(block)) return [];
  switch (block.type) {
    case 'text':
      return str(block.text) === '' ? [] : [{ kind: 'text', role, text: str(block.text) }];
    case 'thinking':
      return str(block.thinking) === '' ? [] : [{ kind: 'reasoning', text: str(block.thinking) }];
    case 'tool_use':
    case 'server_tool_use':
      return [{ kind: 'tool-call', ...(typeof block.id === 'string' ? { id: block.id } : {}), name: str(block.name), input: block.input ?? {} }];
    case 'tool_result':
      return [
        {
          kind: 'tool-result',
          ...(typeof block.tool_use_id === 'string' ? { id: block.tool_use_id } : {}),
          output: capResult(outputText(block.content)),
          ...(block.is_error === true ? { isError: true } : {}),
        },
      ];
    case 'image':
    case 'document':
      return [{ kind: 'text', role, text: `[${block.type}]` }];
    default:
      // redacted_thinking, server tool results, …: nothing readable.
      return [];
  }
}

function entry(raw: unknown): Entry {
  const m = isObject(raw) ? raw : {};
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  const blocks: unknown[] = typeof m.content === 'string' ? [m.content] : Array.isArray(m.content) ? m.content : [];
  const items = blocks.flatMap((b) => blockItems(b, role));
  // A user message of tool results only is the tools' turn.
  const tool = role === 'user' && items.length > 0 && items.every((i) => i.kind === 'tool-result');
  return { role: tool ? 'tool' : role, items };
}

export function anthropicRequest(body: unknown): RequestView | undefined {
  if (!isObject(body) || !Array.isArray(body.messages)) return undefined;
  const system = systemText(body.system);
  const tools = Array.isArray(body.tools) ? namedTools(body.tools.filter(isObject).map((t) => ({ name: t.name ?? t.type, description: t.description }))) : [];
  return { ...(system ? { system } : {}), tools, entries: body.messages, entry };
}
