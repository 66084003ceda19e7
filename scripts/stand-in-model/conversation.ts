// What the scripted model server knows of a request, whatever wire protocol carried it: the
// conversation so far and the tools the CLI offered. A brain (the test's script) answers it with
// text and tool calls; each protocol adapter turns that answer into its own stream of events.

export type Protocol = 'anthropic' | 'openai-responses' | 'chat-completions' | 'gemini';

/** A tool the CLI offered, by its own name; `kind` is how it is called on the wire. */
export interface ToolSpec {
  name: string;
  /** 'function': JSON arguments (every protocol); 'custom': free text input (OpenAI Responses' custom tools). */
  kind: 'function' | 'custom';
  description?: string;
  /** The JSON schema of its arguments, as sent (function tools). */
  parameters?: unknown;
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON arguments (function tools), or the raw input text (custom tools). */
  args: Record<string, unknown> | string;
}

export interface ToolResult {
  /** The id of the call this answers. */
  callId: string;
  /** Its output as text (joined when the protocol sends parts). */
  output: string;
  isError?: boolean;
}

export interface Turn {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  toolCalls?: ToolCall[];
  toolResults?: ToolResult[];
}

export interface Conversation {
  protocol: Protocol;
  /** The model the request named. */
  model: string;
  /** System instructions, joined. */
  system: string;
  turns: Turn[];
  tools: ToolSpec[];
  /** Whether the client asked for a stream (SSE). */
  stream: boolean;
}

/** Token usage the server reports for one reply. `cachedInput` is part of `input` (OpenAI's and Gemini's sense). */
export interface Usage {
  input: number;
  cachedInput: number;
  output: number;
}

export type Action = { kind: 'text'; text: string } | { kind: 'tool'; call: ToolCall };

export interface Reply {
  actions: Action[];
  /** Default: a fixed figure derived from the request's size (see model-server.ts). */
  usage?: Usage;
  /** A name the server records with the request (e.g. the role), to sum usage by. */
  label?: string;
  /** Answer with this HTTP status and error body instead (a refused key, an overloaded server), with extra headers (Retry-After). */
  httpError?: { status: number; message: string; headers?: Record<string, string> };
  /**
   * A fault instead of (or in the middle of) the answer: 'reset' closes the connection without a
   * byte, 'hang' never answers, 'stall' sends the headers and the first write of the answer, then
   * nothing more.
   */
  fault?: 'reset' | 'hang' | 'stall';
  /** Waits this long before each write of the answer (a slow stream). */
  paceMs?: number;
}

/** The test's script: the next reply to a conversation. Must not throw for side calls (titles, routers). */
export type Brain = (conversation: Conversation) => Reply;

/** The text of the first user turn: the prompt the harness gave the CLI (after any preamble the CLI adds). */
export function promptText(conversation: Conversation): string {
  return conversation.turns
    .filter((t) => t.role === 'user')
    .map((t) => t.text)
    .join('\n');
}

/** Tool results received so far, in order. */
export function toolResults(conversation: Conversation): ToolResult[] {
  return conversation.turns.flatMap((t) => t.toolResults ?? []);
}
