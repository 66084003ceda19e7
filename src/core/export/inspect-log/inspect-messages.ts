// One agent try's transcript as Inspect's chat messages and model events. The transcript is
// hostile input (what an agent and its model wrote): it is only copied into JSON strings, never
// interpreted. Each model call becomes one model event whose input is what that call added to the
// conversation (the whole conversation is the sample's messages: repeating it in every event
// would make a long try's log quadratic in its length), and whose output is the model's answer.
import type { Transcript, TranscriptCall, TranscriptItem } from '../../../shared/transcript-schema';
import type { InspectAssistantMessage, InspectContent, InspectMessage, InspectModelEvent, InspectModelOutput, InspectToolCall } from './inspect-log-types';
import { inspectUsage } from './inspect-usage';

export interface TryConversation {
  messages: InspectMessage[];
  /** One per model call, in the order the calls began. */
  events: InspectModelEvent[];
}

export interface TryContext {
  /** Unique within the sample: message and tool call ids are made from it. */
  idPrefix: string;
  /** What every message and event of the try is tagged with (iteration, role, try). */
  tag: Record<string, unknown>;
  /** The model the run recorded for the role, when a call names none. */
  model: string;
  timestamp: string;
  /** Seconds from the sample's start to the try's (Inspect's working_start). */
  workingStart: number;
}

/** Inspect's StopReason for the upstream's stop reason. */
function stopReason(reason: string | undefined, toolCalls: number): string {
  if (toolCalls > 0) return 'tool_calls';
  switch (reason) {
    case 'stop':
    case 'end_turn':
    case 'completed':
    case 'STOP':
      return 'stop';
    case 'tool_use':
    case 'tool_calls':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
    case 'max_output_tokens':
    case 'MAX_TOKENS':
      return 'max_tokens';
    case 'content_filter':
    case 'refusal':
    case 'SAFETY':
      return 'content_filter';
    default:
      return 'unknown';
  }
}

function toolArguments(input: unknown): Pick<InspectToolCall, 'arguments' | 'parse_error'> {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { arguments: input as Record<string, unknown> };
  if (input === undefined) return { arguments: {} };
  return { arguments: {}, parse_error: typeof input === 'string' ? input : JSON.stringify(input) };
}

class TryBuilder {
  private n = 0;
  private readonly toolIds = new Map<string, string>();
  readonly messages: InspectMessage[] = [];
  readonly events: InspectModelEvent[] = [];

  constructor(private readonly ctx: TryContext) {}

  private id(): string {
    return `${this.ctx.idPrefix}-m${++this.n}`;
  }

  /** The input items of a call as messages (the system prompt given once, before, is not repeated). */
  inputMessages(items: readonly TranscriptItem[], system: string | undefined): InspectMessage[] {
    const out: InspectMessage[] = [];
    for (const item of items) {
      const metadata = this.ctx.tag;
      if (item.kind === 'text') {
        if (item.role === 'system' && item.text === system) continue;
        out.push({ id: this.id(), role: item.role, content: item.text, source: 'input', metadata });
      } else if (item.kind === 'tool-result') {
        const callId = (item.id && this.toolIds.get(item.id)) ?? (item.name ? this.toolIds.get(`name:${item.name}`) : undefined);
        out.push({
          id: this.id(),
          role: 'tool',
          content: item.output,
          source: 'input',
          metadata,
          ...(callId ? { tool_call_id: callId } : item.id ? { tool_call_id: item.id } : {}),
          ...(item.name ? { function: item.name } : {}),
          ...(item.isError ? { error: { type: 'unknown' as const, message: item.output.slice(0, 500) } } : {}),
        });
      } else if (item.kind === 'reasoning') {
        out.push({ id: this.id(), role: 'assistant', content: [{ type: 'reasoning', reasoning: item.text }], source: 'input', metadata });
      } else {
        out.push({ id: this.id(), role: 'assistant', content: '', source: 'input', metadata, tool_calls: [this.toolCall(item, out.length)] });
      }
    }
    return out;
  }

  private toolCall(item: Extract<TranscriptItem, { kind: 'tool-call' }>, index: number): InspectToolCall {
    const id = item.id ?? `${this.ctx.idPrefix}-t${this.n}-${index}`;
    if (item.id) this.toolIds.set(item.id, id);
    this.toolIds.set(`name:${item.name}`, id);
    return { id, function: item.name, type: 'function', ...toolArguments(item.input) };
  }

  /** The model's answer as one assistant message (reasoning and text as content, tool calls beside). */
  answer(call: TranscriptCall, model: string): InspectAssistantMessage {
    const content: InspectContent[] = [];
    const toolCalls: InspectToolCall[] = [];
    call.output.forEach((item, i) => {
      if (item.kind === 'text') content.push({ type: 'text', text: item.text });
      else if (item.kind === 'reasoning') content.push({ type: 'reasoning', reasoning: item.text });
      else if (item.kind === 'tool-call') toolCalls.push(this.toolCall(item, i));
      else content.push({ type: 'text', text: item.output });
    });
    return {
      id: this.id(),
      role: 'assistant',
      content: content.length === 1 && content[0].type === 'text' ? content[0].text : content,
      source: 'generate',
      metadata: this.ctx.tag,
      model,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
  }
}

function completionText(message: InspectAssistantMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

/** The try's messages and model events. */
export function tryConversation(transcript: Transcript, ctx: TryContext): TryConversation {
  const b = new TryBuilder(ctx);
  if (transcript.system !== undefined)
    b.messages.push({ id: `${ctx.idPrefix}-sys`, role: 'system', content: transcript.system, source: 'input', metadata: ctx.tag });
  const tools = transcript.tools.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: { type: 'object' as const, properties: {}, required: [] },
  }));
  let elapsed = ctx.workingStart;
  for (const call of transcript.calls) {
    const model = call.model ?? ctx.model;
    const input = b.inputMessages(call.input, transcript.system);
    const message = b.answer(call, model);
    // A side call (a title, a sub-agent) is not part of the conversation: its event only.
    if (!call.side) b.messages.push(...input, message);
    const output: InspectModelOutput = {
      model,
      choices: [{ message, stop_reason: stopReason(call.stopReason, message.tool_calls?.length ?? 0) }],
      completion: completionText(message),
      ...(call.usage ? { usage: inspectUsage(call.usage, call.costUsd) } : {}),
      ...(call.ms !== undefined ? { time: call.ms / 1000 } : {}),
    };
    const error = call.error ?? call.refused;
    if (error !== undefined) output.error = error;
    b.events.push({
      event: 'model',
      timestamp: ctx.timestamp,
      working_start: elapsed,
      model,
      role: String(ctx.tag.role),
      input,
      tools,
      tool_choice: 'auto',
      config: {},
      output,
      metadata: { ...ctx.tag, call: call.call, ...(call.side ? { side: true } : {}), ...(call.replayed ? { replayed: true } : {}) },
      ...(call.retries ? { retries: call.retries } : {}),
      ...(error !== undefined ? { error } : {}),
      ...(call.ms !== undefined ? { working_time: call.ms / 1000 } : {}),
    });
    elapsed += (call.ms ?? 0) / 1000;
  }
  return { messages: b.messages, events: b.events };
}
