// Gemini generateContent requests (gemini, qwen's Gemini mode): `contents` of role user or model
// whose parts are text (thought parts are reasoning), functionCall and functionResponse;
// `systemInstruction`; `tools` as functionDeclarations (and built-in tools named by their key).
import type { TranscriptItem } from '../../../shared/transcript-schema';
import { type Entry, type RequestView, capResult, isObject, namedTools, str } from '../request-view';

function parts(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ text: content }];
  if (isObject(content) && Array.isArray(content.parts)) return content.parts;
  return [];
}

function responseText(response: unknown): { output: string; isError: boolean } {
  if (typeof response === 'string') return { output: response, isError: false };
  if (isObject(response) && typeof response.output === 'string') return { output: response.output, isError: false };
  if (isObject(response) && response.error !== undefined)
    return { output: typeof response.error === 'string' ? response.error : JSON.stringify(response.error), isError: true };
  return { output: JSON.stringify(response ?? null), isError: false };
}

function partItems(part: unknown, role: 'user' | 'assistant'): TranscriptItem[] {
  if (!isObject(part)) return [];
  if (typeof part.text === 'string') {
    if (part.text === '') return [];
    return part.thought === true ? [{ kind: 'reasoning', text: part.text }] : [{ kind: 'text', role, text: part.text }];
  }
  if (isObject(part.functionCall)) {
    const fc = part.functionCall;
    return [{ kind: 'tool-call', ...(typeof fc.id === 'string' ? { id: fc.id } : {}), name: str(fc.name), input: fc.args ?? {} }];
  }
  if (isObject(part.functionResponse)) {
    const fr = part.functionResponse;
    const { output, isError } = responseText(fr.response);
    return [
      {
        kind: 'tool-result',
        ...(typeof fr.id === 'string' ? { id: fr.id } : {}),
        name: str(fr.name),
        output: capResult(output),
        ...(isError ? { isError: true } : {}),
      },
    ];
  }
  if (isObject(part.inlineData) || isObject(part.fileData)) return [{ kind: 'text', role, text: '[file]' }];
  return [];
}

function entry(raw: unknown): Entry {
  const role = isObject(raw) && raw.role === 'model' ? 'assistant' : 'user';
  const items = parts(raw).flatMap((p) => partItems(p, role));
  const tool = role === 'user' && items.length > 0 && items.every((i) => i.kind === 'tool-result');
  return { role: tool ? 'tool' : role, items };
}

function systemText(instruction: unknown): string | undefined {
  const text = parts(instruction)
    .filter(isObject)
    .map((p) => str(p.text))
    .filter((t) => t !== '')
    .join('\n');
  return text || undefined;
}

function tools(raw: unknown): RequestView['tools'] {
  if (!Array.isArray(raw)) return [];
  return namedTools(
    raw
      .filter(isObject)
      .flatMap((t): { name: unknown; description?: unknown }[] =>
        Array.isArray(t.functionDeclarations)
          ? t.functionDeclarations.filter(isObject).map((d) => ({ name: d.name, description: d.description }))
          : Object.keys(t).map((name) => ({ name })),
      ),
  );
}

export function geminiRequest(body: unknown): RequestView | undefined {
  if (!isObject(body) || !Array.isArray(body.contents)) return undefined;
  const system = systemText(body.systemInstruction ?? body.system_instruction);
  return { ...(system ? { system } : {}), tools: tools(body.tools), entries: body.contents, entry };
}
