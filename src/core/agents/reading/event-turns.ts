// What every CLI's event stream comes down to: turns (one per model answer), each with what the
// agent added before it (the prompt, tool results) and what the model answered. Each CLI's reader
// (presets/<id>/events.ts) feeds a Turns in stream order; it starts a turn when the model answers
// after tool results, matches tool results to their calls, and joins streamed text.
import type { TranscriptItem, TranscriptUsage } from '../../../shared/transcript-schema';

/** One turn before numbering: the transcript call without what is derived (its number, toolCalls). */
export interface DraftCall {
  model?: string;
  input: TranscriptItem[];
  output: TranscriptItem[];
  usage?: TranscriptUsage;
  costUsd?: number;
  ms?: number;
  stopReason?: string;
  error?: string;
  truncated?: string;
  side?: boolean;
}

/** What a reader made of a stream. */
export interface Draft {
  calls: DraftCall[];
  tools: { name: string; description?: string }[];
  /** The CLI's own totals (its final result event), where it prints them; else the turns' sums. */
  totals?: { usage?: TranscriptUsage; costUsd?: number; ms?: number };
  notes: string[];
}

/** A reader of one CLI's events: whether they are its, and the turns they hold. */
export interface EventReader {
  recognises(events: readonly Record<string, unknown>[]): boolean;
  read(events: readonly Record<string, unknown>[]): Draft;
}

export class Turns {
  readonly calls: DraftCall[] = [];
  private current: DraftCall | undefined;
  private pending: TranscriptItem[] = [];
  private readonly names = new Map<string, string>();

  constructor(private readonly side = false) {}

  /** A turn the CLI opened (begin) and has not closed (end): what comes is its, tool results included. */
  private open = false;

  /** The turn the model is answering in; a new one when there is none or the agent added something since. */
  turn(): DraftCall {
    if (!this.current || (this.pending.length > 0 && !this.open)) {
      this.begin();
      this.open = false;
    }
    return this.current!;
  }

  /** Starts a turn whatever came before (a CLI that marks its turns). */
  begin(): DraftCall {
    this.current = { input: this.pending, output: [], ...(this.side ? { side: true } : {}) };
    this.pending = [];
    this.calls.push(this.current);
    this.open = true;
    return this.current;
  }

  /** The CLI closed its turn: what the model answers next is a new one. */
  end(): void {
    this.open = false;
  }

  /** The turn under way, if any (usage and errors that arrive after its answer). */
  get last(): DraftCall | undefined {
    return this.current;
  }

  /** Something the model answered; text right after text of the same kind joins it (streamed deltas). */
  answer(item: TranscriptItem, join = false): void {
    const out = this.turn().output;
    const prev = out[out.length - 1];
    if (join && prev?.kind === 'text' && item.kind === 'text' && prev.role === item.role) {
      prev.text += item.text;
      return;
    }
    if (join && prev?.kind === 'reasoning' && item.kind === 'reasoning') {
      prev.text += item.text;
      return;
    }
    if (item.kind === 'tool-call' && item.id !== undefined) this.names.set(item.id, item.name);
    out.push(item);
  }

  /** Something the agent adds before the next turn: a tool's result (named after its call), the prompt. */
  add(item: TranscriptItem): void {
    if (item.kind === 'tool-result' && item.name === undefined && item.id !== undefined) {
      const name = this.names.get(item.id);
      if (name !== undefined) item = { ...item, name };
    }
    this.pending.push(item);
  }

  /**
   * The turns; what the agent added after the last answer (the try ended before the model
   * answered it) becomes a last turn with no answer, marked as cut.
   */
  finish(): DraftCall[] {
    if (this.pending.length > 0) {
      const cut: DraftCall = { input: this.pending, output: [], truncated: 'the log ends before the model answered', ...(this.side ? { side: true } : {}) };
      this.calls.push(cut);
      this.pending = [];
    }
    return this.calls;
  }
}

// Plain readers of hostile JSON: a value of the expected type, else undefined.

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Above any real count or amount: a bound that keeps sums of thousands of them exact and finite. */
const MAX_FIGURE = 2 ** 40;

/** A token count: a non-negative number up to the bound, rounded; else undefined. */
export function count(v: unknown): number | undefined {
  return typeof v === 'number' && v >= 0 && v <= MAX_FIGURE ? Math.round(v) : undefined;
}

/** A non-negative amount up to the bound (cost, milliseconds, a timestamp's milliseconds). */
export function amount(v: unknown): number | undefined {
  return typeof v === 'number' && v >= 0 && v <= MAX_FIGURE * 1024 ? v : undefined;
}

/** A usage where at least one figure is there; the others 0. */
export function usageOf(input?: number, output?: number, cached?: number, reasoning?: number): TranscriptUsage | undefined {
  if (input === undefined && output === undefined && cached === undefined && reasoning === undefined) return undefined;
  return { input: input ?? 0, output: output ?? 0, cached: cached ?? 0, reasoning: reasoning ?? 0 };
}

/** Adds numbers where present; undefined when none is. */
export function plus(...values: (number | undefined)[]): number | undefined {
  let total: number | undefined;
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v;
  return total;
}

/** A tool call's arguments as the CLI printed them: parsed when they are JSON text. */
export function toolInput(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? {};
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** A tool result's content as text: a string, or the text blocks of a content array, else its JSON. */
export function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) {
    return v
      .map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : isObj(b) && typeof b.type === 'string' ? `[${b.type}]` : JSON.stringify(b)))
      .join('\n');
  }
  return JSON.stringify(v);
}
