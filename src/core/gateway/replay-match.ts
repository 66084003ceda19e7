// Whether a request is the one recorded for its call number, in what decides the model's answer:
// the method and path, whether it streams, the conversation (messages / input / contents) and the
// names of the tools offered. System prompts and instructions (they carry dates, paths, versions),
// sampling parameters and the metadata and ids clients make up per run are left out, as are cache
// markers. A system or developer message inside the conversation keeps its place but not its text,
// so the first difference is named by its real JSON path in the request ($.messages[3].content).
// In a tool result, the machine's volatile facts (process ids, elapsed times: volatile-facts.ts)
// are masked on both sides; the rest of the result is compared as it is.
import type { WireProtocol } from './wire-protocol';
import { firstDifference } from './json-difference';
import { isRecord } from '../util/is-record';
import { maskVolatile } from './volatile-facts';

export interface ComparedRequest {
  method: string;
  path: string;
  stream: boolean;
  body: unknown;
}

/** Keys dropped wherever they appear in the conversation: cache hints that do not change the answer. */
const NOISE = new Set(['cache_control', 'cacheControl']);

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!NOISE.has(k)) out[k] = strip(x);
  return out;
}

/** Every string inside a tool result with its volatile facts masked. */
function maskResult(v: unknown): unknown {
  if (typeof v === 'string') return maskVolatile(v);
  if (Array.isArray(v)) return v.map(maskResult);
  if (!isRecord(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskResult(x)]));
}

/** `o` with the tool result under `key` masked, if it has one. */
const masking = (o: Record<string, unknown>, key: string): Record<string, unknown> => (key in o ? { ...o, [key]: maskResult(o[key]) } : o);

/** Anthropic: a message's tool_result blocks. */
function maskAnthropic(m: unknown): unknown {
  if (!isRecord(m) || !Array.isArray(m.content)) return m;
  return { ...m, content: (m.content as unknown[]).map((b) => (isRecord(b) && b.type === 'tool_result' ? masking(b, 'content') : b)) };
}

/** Gemini: a turn's functionResponse parts. */
function maskGemini(c: unknown): unknown {
  if (!isRecord(c) || !Array.isArray(c.parts)) return c;
  return {
    ...c,
    parts: (c.parts as unknown[]).map((p) =>
      isRecord(p) && isRecord(p.functionResponse) ? { ...p, functionResponse: masking(p.functionResponse, 'response') } : p,
    ),
  };
}

const isInstructions = (m: unknown): boolean => isRecord(m) && (m.role === 'system' || m.role === 'developer');

/** A system/developer message keeps its place, not its content. */
const placeholder = (m: Record<string, unknown>): Record<string, unknown> => ({ role: m.role });

const names = (tools: unknown, pick: (t: Record<string, unknown>) => unknown): unknown[] =>
  Array.isArray(tools) ? (tools as unknown[]).map((t) => (isRecord(t) ? pick(t) : t)) : [];

/** The parts of a body that are compared, under the keys they have in the body. */
export function comparedBody(protocol: WireProtocol, body: unknown): Record<string, unknown> {
  if (!isRecord(body)) return { body };
  switch (protocol) {
    case 'anthropic-messages':
      return {
        messages: Array.isArray(body.messages) ? body.messages.map((m) => maskAnthropic(strip(m))) : body.messages,
        tools: names(body.tools, (t) => ({ name: t.name ?? t.type })),
      };
    case 'chat-completions':
      return {
        messages: Array.isArray(body.messages)
          ? body.messages.map((m) =>
              isInstructions(m)
                ? placeholder(m as Record<string, unknown>)
                : isRecord(m) && m.role === 'tool'
                  ? masking(strip(m) as Record<string, unknown>, 'content')
                  : strip(m),
            )
          : body.messages,
        tools: names(body.tools, (t) => ({ name: isRecord(t.function) ? t.function.name : isRecord(t.custom) ? t.custom.name : t.type })),
      };
    case 'openai-responses': {
      const toolName = (t: Record<string, unknown>): unknown =>
        t.type === 'namespace' ? { name: t.name, tools: names(t.tools, toolName) } : { name: t.name ?? t.type };
      return {
        input: Array.isArray(body.input)
          ? (body.input as unknown[]).map((item) => {
              if (isInstructions(item)) return placeholder(item as Record<string, unknown>);
              if (!isRecord(item)) return item;
              // Item ids are made per run by the client; call ids and content decide the answer.
              const { id: _id, ...rest } = item;
              // function_call_output, custom_tool_call_output, local_shell_call_output: a tool's result.
              return typeof rest.type === 'string' && rest.type.endsWith('_call_output')
                ? masking(strip(rest) as Record<string, unknown>, 'output')
                : strip(rest);
            })
          : body.input,
        tools: names(body.tools, toolName),
      };
    }
    case 'gemini': {
      const request = isRecord(body.generateContentRequest) ? body.generateContentRequest : body;
      return {
        contents: Array.isArray(request.contents) ? request.contents.map((c) => maskGemini(strip(c))) : request.contents,
        tools: names(request.tools, (t) =>
          Array.isArray(t.functionDeclarations) ? { functionDeclarations: names(t.functionDeclarations, (d) => ({ name: d.name })) } : Object.keys(t),
        ),
      };
    }
  }
}

/** The first difference between the recorded request and this one, said in a few words, or undefined. */
export function requestDifference(protocol: WireProtocol, recorded: ComparedRequest, now: ComparedRequest): string | undefined {
  if (recorded.method !== now.method || recorded.path !== now.path)
    return `the request is ${now.method} ${now.path}, the recording has ${recorded.method} ${recorded.path}`;
  if (recorded.stream !== now.stream)
    return `the request ${now.stream ? 'asks' : 'does not ask'} for a stream, the recorded one ${recorded.stream ? 'did' : 'did not'}`;
  return firstDifference(comparedBody(protocol, recorded.body), comparedBody(protocol, now.body), '$');
}
