// A try's transcript from its gateway calls record. Each model call is one turn: what its
// request added to the conversation and what the model answered. A request repeats the whole
// history, so what it added is found by where the previous request of the same conversation
// ended: its length and a digest of its last entry (and of the first) are compared, never the
// histories whole, so the work is linear in the record's size. A request that continues no
// conversation starts one: the first that offers tools is the agent's (the main one); the others
// — titles, checks, sub-agents — are side calls, each shown with what its own conversation added.
import type { GatewayCall } from '../records/gateway-call';
import { readRequest } from './protocols';
import { digest, fingerprint, parseArguments, type Entry, type RequestView } from './request-view';
import type { ToolCallItem, Transcript, TranscriptCall, TranscriptItem, TranscriptUsage } from '../../shared/transcript-schema';

export interface TranscriptMeta {
  role: Transcript['role'];
  iteration: number;
  try: number;
  run?: string;
  agent?: string;
}

/** A conversation the calls so far belong to, as the next request must continue it. */
interface Thread {
  /** Entries in its last request. */
  length: number;
  firstFp: string;
  lastFp: string;
  /** Its system prompt's and tool names' digest: the agent's conversations share one. */
  signature: string;
  hasTools: boolean;
  system?: string;
  tools: Transcript['tools'];
  calls: TranscriptCall[];
}

/** Conversations checked for a continuation, the latest first: more at once are rare. */
const THREADS_CHECKED = 16;

const zeroUsage = (): TranscriptUsage => ({ input: 0, output: 0, cached: 0, reasoning: 0 });

/** The answer as recorded: its text and tool calls (arguments parsed when they are JSON). */
function answerItems(call: GatewayCall): { output: TranscriptItem[]; toolCalls: TranscriptCall['toolCalls'] } {
  const response = call.response;
  if (!response) return { output: [], toolCalls: [] };
  const toolCalls = response.toolCalls.map((t) => ({ ...(t.id !== undefined ? { id: t.id } : {}), name: t.name, input: parseArguments(t.arguments) }));
  return {
    output: [
      ...(response.text !== '' ? [{ kind: 'text' as const, role: 'assistant' as const, text: response.text }] : []),
      ...toolCalls.map((t) => ({ kind: 'tool-call' as const, ...t })),
    ],
    toolCalls,
  };
}

/** Builds a transcript call by call, fed in the order the calls began (read-transcript.ts reorders the calls file). */
export class TranscriptBuilder {
  private readonly calls: TranscriptCall[] = [];
  private readonly threads: Thread[] = [];
  /** The agent's conversations' signature: the first conversation's, or the first that offers tools. */
  private main: { signature: string; hasTools: boolean } | undefined;
  private readonly notes: string[] = [];
  private other = 0;
  /** Tool names by call id, to name the results that come back by id only. */
  private readonly toolNames = new Map<string, string>();

  constructor(private readonly meta: TranscriptMeta) {}

  add(call: GatewayCall): void {
    if (call.kind !== 'model') {
      this.other++;
      return;
    }
    const { output, toolCalls } = answerItems(call);
    for (const t of toolCalls) if (t.id !== undefined) this.toolNames.set(t.id, t.name);
    const turn: TranscriptCall = {
      call: call.call,
      ...(call.model !== undefined ? { model: call.model } : {}),
      input: [],
      output,
      toolCalls,
      usage: { ...call.usage },
      ...(call.costUsd !== undefined ? { costUsd: call.costUsd } : {}),
      ms: call.ms,
      ...(call.firstByteMs !== undefined ? { firstByteMs: call.firstByteMs } : {}),
      status: call.status,
      retries: call.retries,
      ...(call.response?.stopReason !== undefined ? { stopReason: call.response.stopReason } : {}),
      ...(call.error !== undefined ? { error: call.error } : {}),
      ...(call.refused !== undefined ? { refused: call.refused } : {}),
      ...(call.truncated !== undefined ? { truncated: call.truncated } : {}),
      ...(call.replayed ? { replayed: true } : {}),
    };
    this.calls.push(turn);
    this.noteTrouble(turn);
    const view = call.request === undefined ? undefined : readRequest(call.protocol, call.request);
    if (!view) {
      if (call.request !== undefined)
        this.notes.push(`call ${call.call}: its request is not a ${call.protocol} request this reader knows; what it added is not shown.`);
      else if (!call.truncated) this.notes.push(`call ${call.call}: no request was recorded; what it added is not shown.`);
      // A request too big to keep is the agent's long history, not a side call: its answer is
      // repeated in the agent's next request, which fills in what the record dropped.
      this.latestMain()?.calls.push(turn);
      return;
    }
    this.place(turn, view);
  }

  private noteTrouble(t: TranscriptCall): void {
    if (t.refused !== undefined) this.notes.push(`call ${t.call} was refused by the gateway: ${t.refused}`);
    else if (t.error !== undefined) this.notes.push(`call ${t.call} failed${t.status ? ` (HTTP ${t.status})` : ''}: ${t.error}`);
    if (t.truncated !== undefined) this.notes.push(`call ${t.call}: ${t.truncated}`);
  }

  /** Finds the conversation the request continues (or starts one) and sets what the call added. */
  private place(turn: TranscriptCall, view: RequestView): void {
    const entries = view.entries;
    const hasTools = view.tools.length > 0;
    const signature = `${digest(view.system ?? '')}/${digest(view.tools.map((t) => t.name).join('\n'))}`;
    const firstFp = entries.length > 0 ? fingerprint(entries[0]) : '';
    const digests = new Map<number, string>();
    const fpAt = (i: number): string => {
      let fp = digests.get(i);
      if (fp === undefined) digests.set(i, (fp = i === 0 ? firstFp : fingerprint(entries[i])));
      return fp;
    };
    // A call that offers no tools never continues one that did: a title, a check, a summary.
    const continues = (t: Thread) =>
      (hasTools || !t.hasTools) && t.length > 0 && entries.length >= t.length && firstFp === t.firstFp && fpAt(t.length - 1) === t.lastFp;

    let thread: Thread | undefined;
    let from = 0;
    const recent = this.threads.slice(-THREADS_CHECKED).reverse();
    if (view.continues) {
      // Only the new items were sent: all of them are what this call added.
      thread = recent.find((t) => t.signature === signature);
    } else {
      thread = recent.find(continues);
      from = thread?.length ?? 0;
    }
    if (!thread) {
      if (this.main?.signature === signature)
        this.notes.push(
          `call ${turn.call} starts the agent's conversation anew (its history was compacted or rewritten, or a sub-agent began); its whole request is shown.`,
        );
      thread = { length: 0, firstFp, lastFp: '', signature, hasTools, tools: view.tools, calls: [], ...(view.system ? { system: view.system } : {}) };
      this.threads.push(thread);
      if (!this.main || (hasTools && !this.main.hasTools)) this.main = { signature, hasTools };
    }

    const added = entries.slice(from).map((raw) => view.entry(raw));
    // Calls the history holds name their results too (a sub-agent's, a resumed session's).
    for (const e of added)
      for (const i of e.items) if (i.kind === 'tool-call' && i.id !== undefined && !this.toolNames.has(i.id)) this.toolNames.set(i.id, i.name);
    if (thread.calls.length === 0) {
      turn.input = added.flatMap((e) => e.items);
    } else {
      // Its assistant entries repeat the answers before; the rest (results, new user text) is what it added.
      this.fillFromEcho(thread.calls, added);
      turn.input = added.filter((e) => e.role !== 'assistant').flatMap((e) => e.items);
    }
    for (const item of turn.input) {
      if (item.kind === 'tool-result' && item.name === undefined && item.id !== undefined) {
        const name = this.toolNames.get(item.id);
        if (name !== undefined) item.name = name;
      }
    }
    thread.calls.push(turn);
    if (!view.continues) {
      thread.length = entries.length;
      thread.firstFp = firstFp;
      thread.lastFp = entries.length > 0 ? fpAt(entries.length - 1) : '';
    }
  }

  /** The agent's conversation most recently continued. */
  private latestMain(): Thread | undefined {
    const signature = this.main?.signature;
    return [...this.threads].reverse().find((t) => t.signature === signature);
  }

  /**
   * The answers before, as the next request repeats them (each run of assistant entries is one
   * answer, the last the latest): their reasoning, which the record does not keep, and their
   * tool calls where an over-cap record dropped them.
   */
  private fillFromEcho(calls: TranscriptCall[], added: Entry[]): void {
    const answers: TranscriptItem[][] = [];
    let open = false;
    for (const e of added) {
      if (e.role === 'assistant') {
        if (!open) answers.push([]);
        answers[answers.length - 1].push(...e.items);
      }
      open = e.role === 'assistant';
    }
    for (let a = answers.length - 1, c = calls.length - 1; a >= 0 && c >= 0; a--, c--) {
      const previous = calls[c];
      const echo = answers[a];
      if (previous.error !== undefined || previous.refused !== undefined) continue;
      const reasoning = echo.filter((i) => i.kind === 'reasoning');
      if (reasoning.length > 0 && !previous.output.some((i) => i.kind === 'reasoning')) previous.output.unshift(...reasoning);
      if (previous.truncated === undefined) continue;
      const toolCalls = echo.filter((i): i is ToolCallItem => i.kind === 'tool-call');
      if (toolCalls.length > 0 && toolCalls.length === previous.toolCalls.length) {
        previous.toolCalls = toolCalls.map((t) => ({ ...(t.id !== undefined ? { id: t.id } : {}), name: t.name, input: t.input }));
        const text = echo.filter((i) => i.kind === 'text');
        previous.output = [
          ...previous.output.filter((i) => i.kind === 'reasoning'),
          ...(text.length > 0 ? text : previous.output.filter((i) => i.kind === 'text')),
          ...toolCalls,
        ];
      }
    }
  }

  finish(extraNotes: string[] = []): Transcript {
    const mainSignature = this.main?.signature;
    for (const t of this.threads.filter((t) => t.signature !== mainSignature)) {
      for (const c of t.calls) c.side = true;
      // A side conversation's own system prompt is part of what it was given.
      if (t.system !== undefined) t.calls[0]?.input.unshift({ kind: 'text', role: 'system', text: t.system });
    }
    const main = this.threads.find((t) => t.signature === mainSignature);
    const usage = zeroUsage();
    let ms = 0;
    for (const c of this.calls) {
      if (c.usage) {
        usage.input += c.usage.input;
        usage.output += c.usage.output;
        usage.cached += c.usage.cached;
        usage.reasoning += c.usage.reasoning;
      }
      ms += c.ms ?? 0;
    }
    const priced = this.calls.length > 0 && this.calls.every((c) => c.costUsd !== undefined);
    const notes = [...extraNotes, ...this.notes];
    if (this.other > 0) notes.push(`${this.other} other request${this.other === 1 ? '' : 's'} (model lists, token counts) not shown.`);
    return {
      source: 'gateway',
      role: this.meta.role,
      iteration: this.meta.iteration,
      try: this.meta.try,
      ...(this.meta.run !== undefined ? { run: this.meta.run } : {}),
      ...(this.meta.agent !== undefined ? { agent: this.meta.agent } : {}),
      ...(main?.system !== undefined ? { system: main.system } : {}),
      tools: main?.tools ?? [],
      calls: this.calls,
      totals: {
        calls: this.calls.length,
        usage,
        ...(priced ? { costUsd: this.calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0) } : {}),
        ms,
      },
      notes,
    };
  }
}
