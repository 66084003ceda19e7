// A try's transcript from its calls record on disk: an archived iteration's iter-NNN/ or a running
// step's pending/, where the gateway appends a line as each call ends. The file is read as a
// stream, a line at a time, so a long try's record (hundreds of MB of repeated history) is never
// held whole; lines are hostile input: one that is not a call is skipped and said, a half-written
// last line (the gateway is appending it) is skipped silently.
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentRole } from '../agents/agent-driver';
import { ARCHIVE } from '../loop/run-store';
import { gatewayCallSchema, type GatewayCall } from '../records/gateway-call';
import { describeSchemaProblem } from '../records/schema-problem';
import { UserError, errorMessage } from '../util/errors';
import { TranscriptBuilder, type TranscriptMeta } from './calls-transcript';
import { transcriptFromCliEvents } from './cli-events-transcript';
import type { Transcript } from '../../shared/transcript-schema';

export interface TryTranscriptRequest {
  /** The iteration's folder: iter-NNN/, or pending/ while it runs. */
  iterDir: string;
  role: AgentRole;
  try: number;
  iteration: number;
  run?: string;
  agent?: string;
  /** The iteration has not finished (pending/): the try may still be running. */
  pending?: boolean;
}

/** A log larger than this is not read for a transcript (a runaway agent's output, not a conversation). */
const MAX_LOG_BYTES = 64 * 2 ** 20;

/** Calls are taken in the order they began, though lines are in the order they ended: this many may wait for an earlier one. */
const REORDER_WINDOW = 64;

/**
 * The try's transcript: from its calls record, or, where it has none (an agent that did not go
 * through the gateway, a run recorded before it), from the CLI's own event stream in its log.
 * Undefined when neither holds one.
 */
export async function readTryTranscript(req: TryTranscriptRequest): Promise<Transcript | undefined> {
  const meta: TranscriptMeta = {
    role: req.role,
    iteration: req.iteration,
    try: req.try,
    ...(req.run !== undefined ? { run: req.run } : {}),
    ...(req.agent !== undefined ? { agent: req.agent } : {}),
  };
  const file = path.join(req.iterDir, ARCHIVE.agentCalls(req.role, req.try));
  const builder = new TranscriptBuilder(meta);
  const notes: string[] = [];
  const found = await readCallsFile(file, builder, notes);
  if (!found) return fromLog(path.join(req.iterDir, ARCHIVE.agentLog(req.role, req.try)), meta, req.pending);
  if (req.pending) notes.unshift('The iteration has not finished (it is running, or stopped before its end): a call shows once it has ended.');
  return builder.finish(notes);
}

/** Feeds the file's calls to the builder in the order they began; false when there is no file. */
async function readCallsFile(file: string, builder: TranscriptBuilder, notes: string[]): Promise<boolean> {
  const waiting = new Map<number, GatewayCall>();
  let next = 1;
  const release = (force: boolean) => {
    for (;;) {
      let call = waiting.get(next);
      if (!call && (force || waiting.size > REORDER_WINDOW) && waiting.size > 0) {
        // A call that never came (still running, or lost): go on with the earliest that did.
        next = Math.min(...waiting.keys());
        call = waiting.get(next);
      }
      if (!call) return;
      waiting.delete(next++);
      builder.add(call);
    }
  };
  const skipped: string[] = [];
  const seen = new Set<number>();
  let lineNo = 0;
  const take = (line: string) => {
    lineNo++;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push(`line ${lineNo}: not JSON`);
      return;
    }
    const parsed = gatewayCallSchema.safeParse(value);
    if (!parsed.success) {
      skipped.push(`line ${lineNo}: ${describeSchemaProblem(parsed.error)}`);
      return;
    }
    // The raw answer is for replays only: not kept while the rest is read.
    const { raw: _raw, ...call } = parsed.data;
    if (seen.has(call.call)) {
      skipped.push(`line ${lineNo}: call ${call.call} again`);
      return;
    }
    seen.add(call.call);
    if (call.call < next) {
      // Later than the calls waiting could hold it back for: placed where it came.
      builder.add(call);
      return;
    }
    waiting.set(call.call, call);
    release(false);
  };

  let rest = '';
  try {
    const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest + chunk;
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) take(line);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new UserError(`Cannot read ${file} (${errorMessage(err)}). Check its permissions.`, { cause: err });
  }
  // `rest` is a line without its newline: being written, or what a crash left. Not a call yet.
  release(true);
  if (skipped.length > 0) {
    const shown = skipped.slice(0, 5).join('; ');
    notes.push(`${skipped.length} line${skipped.length === 1 ? '' : 's'} of ${path.basename(file)} skipped (${shown}${skipped.length > 5 ? '; …' : ''}).`);
  }
  return true;
}

async function fromLog(logFile: string, meta: TranscriptMeta, pending?: boolean): Promise<Transcript | undefined> {
  const stat = await fs.stat(logFile).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_LOG_BYTES) return undefined;
  const text = await fs.readFile(logFile, 'utf8').catch(() => undefined);
  const transcript = text === undefined ? undefined : transcriptFromCliEvents(text, meta);
  if (transcript && pending) transcript.notes.unshift('The iteration has not finished (it is running, or stopped before its end).');
  return transcript;
}
