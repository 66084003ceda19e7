// OpenAI Responses requests (codex): `instructions`, and `input` as a string or a list of items —
// messages (input_text / output_text parts; developer and system ones are instructions too),
// function_call / custom_tool_call / local_shell_call and their *_output items, reasoning (its
// summary is the clear part) — and `tools` (function, custom, namespaces of them, hosted tools by
// type). Each item is one entry. With previous_response_id the input holds only what is new.
import type { TranscriptItem } from '../../../shared/transcript-schema';
import { type Entry, type RequestView, capResult, isObject, namedTools, outputText, parseArguments, str, textItem } from '../request-view';

const callId = (item: Record<string, unknown>): { id?: string } =>
  typeof item.call_id === 'string' ? { id: item.call_id } : typeof item.id === 'string' ? { id: item.id } : {};

/** A *_output item's output: a string, parts, or older codex's `{content, success}`. */
function resultOf(output: unknown): { text: string; isError: boolean } {
  if (isObject(output) && !('type' in output)) {
    return { text: typeof output.content === 'string' ? output.content : JSON.stringify(output), isError: output.success === false };
  }
  return { text: outputText(output), isError: false };
}

function reasoningText(item: Record<string, unknown>): string {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  const pieces = [...list(item.summary), ...list(item.content)];
  return pieces
    .filter(isObject)
    .map((p) => str(p.text))
    .filter((t) => t !== '')
    .join('\n');
}

function entry(raw: unknown): Entry {
  const item = isObject(raw) ? raw : {};
  const type = typeof item.type === 'string' ? item.type : 'message';
  switch (type) {
    case 'message': {
      const text = outputText(item.content ?? '');
      if (item.role === 'assistant') return { role: 'assistant', items: textItem('assistant', text) };
      if (item.role === 'system' || item.role === 'developer') return { role: 'system', items: textItem('system', text) };
      return { role: 'user', items: textItem('user', text) };
    }
    case 'function_call':
      return { role: 'assistant', items: [{ kind: 'tool-call', ...callId(item), name: str(item.name), input: parseArguments(str(item.arguments)) }] };
    case 'custom_tool_call':
      return { role: 'assistant', items: [{ kind: 'tool-call', ...callId(item), name: str(item.name), input: str(item.input) }] };
    case 'local_shell_call':
      return { role: 'assistant', items: [{ kind: 'tool-call', ...callId(item), name: 'local_shell', input: item.action ?? {} }] };
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const { text, isError } = resultOf(item.output);
      const result: TranscriptItem = { kind: 'tool-result', ...callId(item), output: capResult(text), ...(isError ? { isError: true } : {}) };
      return { role: 'tool', items: [result] };
    }
    case 'reasoning': {
      const text = reasoningText(item);
      return { role: 'assistant', items: text ? [{ kind: 'reasoning', text }] : [] };
    }
    default:
      // web_search_call, compaction summaries, codex's additional_tools, …: no conversation text.
      return { role: type.endsWith('_output') ? 'tool' : 'assistant', items: [] };
  }
}

function tools(raw: unknown, into: { name: unknown; description?: unknown }[] = []): { name: unknown; description?: unknown }[] {
  if (!Array.isArray(raw)) return into;
  for (const t of raw.filter(isObject)) {
    if (t.type === 'namespace') tools(t.tools, into);
    else into.push({ name: t.name ?? t.type, description: t.description });
  }
  return into;
}

export function openaiResponsesRequest(body: unknown): RequestView | undefined {
  if (!isObject(body)) return undefined;
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  if (!Array.isArray(input)) return undefined;
  const offered = tools(body.tools);
  for (const item of input) if (isObject(item) && item.type === 'additional_tools') tools(item.tools, offered);
  const system = str(body.instructions);
  return {
    ...(system ? { system } : {}),
    tools: namedTools(offered),
    entries: input,
    entry,
    ...(typeof body.previous_response_id === 'string' ? { continues: true } : {}),
  };
}
