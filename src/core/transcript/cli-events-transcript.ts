// A try's transcript from the CLI's own event stream, for tries with no calls record from the
// gateway (a run before it existed, or an agent that did not go through it): the JSON events the
// driver saved in the try's log (`<role>-try-<N>.log`), read by the reader of the CLI that printed
// them (its preset's `events`, presets/<id>/events.ts; a log its preset's reader does not know is
// offered to every reader in 'auto' order, presets/auto-detect.ts). A log with no event stream (a custom agent's plain output, aider,
// iFlow) has no transcript. Logs are hostile input: odd shapes are skipped, never thrown on.
import { PRESETS } from '../agents/presets';
import type { AgentPreset } from '../agents/presets/agent-preset';
import { AUTO_EVENT_READERS } from '../agents/presets/auto-detect';
import { readLogEvents } from '../agents/reading/log-events';
import type { DraftCall, EventReader } from '../agents/reading/event-turns';
import type { Transcript, TranscriptCall, TranscriptUsage } from '../../shared/transcript-schema';

export interface CliEventsMeta {
  role: Transcript['role'];
  iteration: number;
  try: number;
  run?: string;
  /** The preset id (or 'custom'): its reader goes first. */
  agent?: string;
}

/** The reader of the preset `agent` names (a preset id, or 'custom': none). */
function ownReader(agent: string | undefined): EventReader | undefined {
  return PRESETS.find((p: AgentPreset) => p.id === agent)?.events;
}

/** Whether the agent (a preset id) prints an event stream a transcript can be read from. */
export function hasEventReader(agent: string): boolean {
  return ownReader(agent) !== undefined;
}

export function transcriptFromCliEvents(logText: string, meta: CliEventsMeta): Transcript | undefined {
  try {
    return readCliEvents(logText, meta);
  } catch {
    // A reader's bug must not break the view that asked: no transcript, as for a log with no stream.
    return undefined;
  }
}

/** transcriptFromCliEvents without its guard: the readers are written never to throw, and the tests hold them to it. */
export function readCliEvents(logText: string, meta: CliEventsMeta): Transcript | undefined {
  const log = readLogEvents(logText);
  if (log.events.length === 0) return undefined;
  const own = ownReader(meta.agent);
  const reader = own?.recognises(log.events) ? own : AUTO_EVENT_READERS.find((r) => r.recognises(log.events));
  if (!reader) return undefined;
  const draft = reader.read(log.events);
  const calls = draft.calls.map(numbered);
  const notes = [...draft.notes];
  if (log.unreadable > 0) notes.push(`${log.unreadable} line${log.unreadable === 1 ? '' : 's'} of the log looked like events but could not be read: skipped.`);
  if (!log.ended) notes.push('The log has no end line: the try is still running, or was stopped before the driver could finish its log.');
  else if (!/^exit code 0$/.test(log.ended.how)) notes.push(`The try ended: ${log.ended.how}.`);
  if (log.error) notes.push(`The CLI's output reported: ${log.error}`);
  const usage = draft.totals?.usage ?? sumUsage(calls);
  if (!usage) notes.push('The stream reports no token counts.');
  const cost = draft.totals?.costUsd ?? sumCost(calls);
  return {
    source: 'cli-events',
    role: meta.role,
    iteration: meta.iteration,
    try: meta.try,
    ...(meta.run !== undefined ? { run: meta.run } : {}),
    ...(meta.agent !== undefined ? { agent: meta.agent } : {}),
    tools: draft.tools,
    calls,
    totals: {
      calls: calls.length,
      usage: usage ?? { input: 0, output: 0, cached: 0, reasoning: 0 },
      ...(cost !== undefined ? { costUsd: cost } : {}),
      ms: draft.totals?.ms ?? log.ended?.ms ?? calls.reduce((a, c) => a + (c.ms ?? 0), 0),
    },
    notes,
  };
}

function numbered(c: DraftCall, i: number): TranscriptCall {
  const toolCalls = c.output.flatMap((o) => (o.kind === 'tool-call' ? [{ ...(o.id !== undefined ? { id: o.id } : {}), name: o.name, input: o.input }] : []));
  return { call: i + 1, ...c, toolCalls };
}

function sumUsage(calls: readonly TranscriptCall[]): TranscriptUsage | undefined {
  const withUsage = calls.filter((c) => c.usage);
  if (withUsage.length === 0) return undefined;
  const total: TranscriptUsage = { input: 0, output: 0, cached: 0, reasoning: 0 };
  for (const { usage } of withUsage) {
    total.input += usage!.input;
    total.output += usage!.output;
    total.cached += usage!.cached;
    total.reasoning += usage!.reasoning;
  }
  return total;
}

function sumCost(calls: readonly TranscriptCall[]): number | undefined {
  const priced = calls.filter((c) => c.costUsd !== undefined);
  return priced.length > 0 ? priced.reduce((a, c) => a + c.costUsd!, 0) : undefined;
}
