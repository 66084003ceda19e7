// How the Transcript panel writes a call's numbers: time, money, tokens, and the totals so far.
// No DOM, so unit tests run it in node.
import type { TranscriptCall } from '../src/shared/transcript-schema';
import { formatTokens } from '../src/shared/metrics/metric-format';

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const sec = ms / 1000;
  if (sec < 60) return `${sec.toFixed(1)} s`;
  const m = Math.floor(sec / 60);
  return `${m} min ${Math.round(sec % 60)} s`;
}

/** Dollars with the digits a small call needs (a call often costs a fraction of a cent). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** All the tokens a call moved: every prompt token read (cached ones included) and every one written. */
export function callTokens(call: TranscriptCall): number {
  return call.usage ? call.usage.input + call.usage.output : 0;
}

export interface RunningTotal {
  tokens: number;
  /** Undefined while no call so far had a price. */
  costUsd?: number;
  ms: number;
}

/** After each call: the tokens, cost and time of the calls up to and including it. */
export function runningTotals(calls: readonly TranscriptCall[]): RunningTotal[] {
  let tokens = 0;
  let cost: number | undefined;
  let ms = 0;
  return calls.map((c) => {
    tokens += callTokens(c);
    if (c.costUsd !== undefined) cost = (cost ?? 0) + c.costUsd;
    ms += c.ms ?? 0;
    return { tokens, ...(cost === undefined ? {} : { costUsd: cost }), ms };
  });
}

/** The numbers of a call's header: tokens in (cached) and out, time, cost. */
export function callFigures(call: TranscriptCall): string[] {
  const out: string[] = [];
  if (call.usage) {
    const u = call.usage;
    out.push(`${formatTokens(u.input)} in${u.cached ? ` (${formatTokens(u.cached)} cached)` : ''}`);
    out.push(`${formatTokens(u.output)} out${u.reasoning ? ` (${formatTokens(u.reasoning)} reasoning)` : ''}`);
  }
  if (call.ms !== undefined) out.push(formatMs(call.ms));
  if (call.costUsd !== undefined) out.push(formatUsd(call.costUsd));
  return out;
}

/** The running total after a call, as its header ends. */
export function totalText(t: RunningTotal): string {
  return `total ${formatTokens(t.tokens)} tokens${t.costUsd === undefined ? '' : ` · ${formatUsd(t.costUsd)}`}`;
}

/** A path as the agent wrote it, from its app/ folder on (the sandbox's folders before it say nothing). */
export function shortPath(p: string): string {
  const i = p.lastIndexOf('/app/');
  return i >= 0 ? p.slice(i + 1) : p;
}

/** Argument names that hold a path: shown from app/ on, and first. */
const PATH_ARG = /(?:^|_)(?:file_?path|path|absolute_path|filename|file)$|^filePath$/;

/**
 * A tool call's arguments on one line, when they are a few short words (Claude Code's Read,
 * Glob, Grep; gemini's read_file): its path first, then `name value`. Undefined for anything
 * longer, nested or multi-line, which is better read as JSON.
 */
export function argsLine(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length === 0 || entries.length > 4) return undefined;
  const parts: { path: boolean; text: string }[] = [];
  for (const [name, value] of entries) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) return undefined;
    const text = String(value);
    if (text.includes('\n')) return undefined;
    const path = typeof value === 'string' && PATH_ARG.test(name);
    parts.push({ path, text: path ? shortPath(text) : `${name} ${text}` });
  }
  const line = [...parts.filter((p) => p.path), ...parts.filter((p) => !p.path)].map((p) => p.text).join(' · ');
  return line.length > 200 ? undefined : line;
}
