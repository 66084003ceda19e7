// Chat Completions requests (opencode, qwen, custom clients): `messages` with roles system,
// developer, user, assistant (text, `reasoning_content` where the server sends it, `tool_calls`)
// and tool (`tool_call_id`); `tools` as `{function: {name, description}}` or custom tools. The
// leading system messages are the system prompt, not history.
import type { TranscriptItem } from '../../../shared/transcript-schema';
import { type Entry, type RequestView, capResult, isObject, namedTools, outputText, parseArguments, str, textItem } from '../request-view';

function toolCalls(raw: unknown): TranscriptItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((c): TranscriptItem => {
    const id = typeof c.id === 'string' ? { id: c.id } : {};
    if (isObject(c.custom)) return { kind: 'tool-call', ...id, name: str(c.custom.name), input: str(c.custom.input) };
    const fn = isObject(c.function) ? c.function : {};
    return { kind: 'tool-call', ...id, name: str(fn.name), input: typeof fn.arguments === 'string' ? parseArguments(fn.arguments) : (fn.arguments ?? {}) };
  });
}

/** Message content: a string or parts; text parts joined. */
function contentText(content: unknown): string {
  return content === null || content === undefined ? '' : outputText(content);
}

function entry(raw: unknown): Entry {
  const m = isObject(raw) ? raw : {};
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', items: textItem('system', contentText(m.content)) };
    case 'assistant': {
      const reasoning = str(m.reasoning_content) || str(m.reasoning);
      return {
        role: 'assistant',
        items: [
          ...(reasoning ? [{ kind: 'reasoning' as const, text: reasoning }] : []),
          ...textItem('assistant', contentText(m.content)),
          ...toolCalls(m.tool_calls),
        ],
      };
    }
    case 'tool':
    case 'function':
      return {
        role: 'tool',
        items: [
          {
            kind: 'tool-result',
            ...(typeof m.tool_call_id === 'string' ? { id: m.tool_call_id } : {}),
            ...(typeof m.name === 'string' ? { name: m.name } : {}),
            output: capResult(contentText(m.content)),
          },
        ],
      };
    default:
      return { role: 'user', items: textItem('user', contentText(m.content)) };
  }
}

function tools(raw: unknown): RequestView['tools'] {
  if (!Array.isArray(raw)) return [];
  return namedTools(
    raw.filter(isObject).map((t) => {
      const def = isObject(t.function) ? t.function : isObject(t.custom) ? t.custom : t;
      return { name: def.name, description: def.description };
    }),
  );
}

export function chatCompletionsRequest(body: unknown): RequestView | undefined {
  if (!isObject(body) || !Array.isArray(body.messages)) return undefined;
  const messages: unknown[] = body.messages;
  let lead = 0;
  while (
    lead < messages.length &&
    isObject(messages[lead]) &&
    ((messages[lead] as { role?: unknown }).role === 'system' || (messages[lead] as { role?: unknown }).role === 'developer')
  )
    lead++;
  const system = messages
    .slice(0, lead)
    .map((m) => contentText((m as { content?: unknown }).content))
    .join('\n\n');
  return { ...(system ? { system } : {}), tools: tools(body.tools), entries: lead > 0 ? messages.slice(lead) : messages, entry };
}
