// One line of iteration.jsonl: the reference harness's fields (gap, pytest, architect,
// programmer) plus ours. A line is written only when its iteration is complete, with one
// append of the whole line; a reader ignores a trailing partial line, so a crash cannot
// half-record an iteration.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../util/fs-atomic';
import { parseJsonLines, readIfPresent, readIfPresentSync } from '../records/record-file';
import { describeSchemaProblem } from '../records/schema-problem';
import { isPlainIterationLine } from './iteration-line-check';

export const roleKind = z.enum(['agent', 'human']);
export type RoleKind = z.infer<typeof roleKind>;

/** What one role did in an iteration. The snake_case keys are the reference's. */
export const roleStepRecordSchema = z.object({
  /** Seconds: all tries of an agent, or the wall time until a human submitted. */
  execution_time: z.number().optional(),
  /** Tokens the model read, cached ones included: at the wire (the gateway) when `usage_source` says so, else as the agent reported them. */
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  /** Of the input, read from the model's cache; of the output, reasoning (the wire only). */
  cached_tokens: z.number().optional(),
  reasoning_tokens: z.number().optional(),
  /** Dollars, from sweci.agents.prices and the wire's tokens; absent when any call's model had no price (unknown). */
  cost_usd: z.number().optional(),
  /** Model calls of all tries through the gateway. */
  model_calls: z.number().optional(),
  /** Where the token counts come from: `wire` (the gateway counted them); absent: the agent's own report. */
  usage_source: z.literal('wire').optional(),
  /** The agent's own report, kept beside the wire's (a CLI may leave calls out). */
  agent_reported: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional(), cost_usd: z.number().optional() }).optional(),
  /** What the agent could reach: only its model (`model-only`), everything (`open`: flagged network-open), nothing (`none`), or it was not confined. */
  network: z.enum(['model-only', 'open', 'none', 'not-confined']).optional(),
  kind: roleKind,
  /** The agent's label (preset, custom command) or "human". */
  agent: z.string(),
  /** Attempts made (1 for a human). */
  tries: z.number(),
  /** Why each failed try failed ("try 1: exited 0 but the model call failed: …"), when any did. */
  failed_tries: z.array(z.string()).optional(),
  /** What a preset agent was allowed to do, e.g. "every action accepted (confined)". */
  permissions: z.string().optional(),
  /**
   * Code changes an architect agent made that were thrown away: the architect writes
   * requirement.xml only (the reference runs it in a container whose code is not copied out).
   */
  discarded_changes: z.array(z.string()).optional(),
  /**
   * What was in app/ besides code/, non-passed/, requirement.xml and memory/ (CLI settings,
   * hooks, notes, a large file), removed before this step's tries, between them and after the
   * step: nothing is carried from one step or role to the next but the protocol's files.
   */
  removed_from_app: z.array(z.string()).optional(),
});
export type RoleStepRecord = z.infer<typeof roleStepRecordSchema>;

/** pytest-json-report's `summary` object; `{}` when pytest did not run. */
const pytestSummary = z.record(z.string(), z.number());
export type PytestSummary = z.infer<typeof pytestSummary>;

const paths = z.array(z.string());

/** One line of iteration.jsonl. Key order is the line's: the reference's `gap` and `pytest` first. */
export const iterationRecordSchema = z.object({
  /** Size of the non-passed set; −1 when pytest did not run (crash, timeout, no report). */
  gap: z.number(),
  pytest: pytestSummary,
  architect: roleStepRecordSchema.optional(),
  programmer: roleStepRecordSchema.optional(),
  /** 0 = the base run at checkout; k = the k-th iteration of the run. */
  iteration: z.number().int().nonnegative(),
  run: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  /** app/code commit of this iteration (for a human-history replay: the upstream sha). */
  commit: z.string(),
  /** Tests passed now among those the target passes; null when pytest did not run. */
  passed: z.number().nullable(),
  /** Tests the target passes. */
  target_passed: z.number(),
  /** Tests the target passes that passed in the last iteration whose pytest ran and do not pass now (metrics/regressions.ts regressedIds). */
  regressions: paths,
  /** Files under tests/ an agent changed; restored before pytest, never scored. */
  tampered: paths,
  /** Paths outside app/code (relative to the task folder) an agent changed. */
  outside_changes: paths,
  /**
   * Files of this iteration's code, outside tests/, that change how pytest collects or reports
   * tests compared with the base (conftest.py, pytest's config sections, sitecustomize, .pth).
   * Scored like any code unless sweci.integrity.excludeHarnessTampering is on.
   */
  harness_tampering: paths.optional(),
  /**
   * Passed node ids that neither the target nor the base run passed (metrics/inflated.ts), at
   * most 50 listed: tests the code under test added to its own score. Flagged, scored as the
   * reference scores them unless sweci.integrity.scoreTargetTestsOnly is on.
   */
  inflated: paths.optional(),
  /** How many such ids there were (the list may be cut). */
  inflated_count: z.number().optional(),
  /** Files over sweci.integrity.maxFileMb, or past sweci.integrity.maxIterationMb together: left out of the commit, the diff and so the score. */
  oversized: paths.optional(),
  /** Why pytest did not run, when gap is −1. */
  pytest_error: z.string().optional(),
  /** Seconds the pytest run took. */
  pytest_time: z.number().optional(),
  /** A short note for views, e.g. an upstream commit's subject in a human-history replay. */
  note: z.string().optional(),
  /**
   * How the agents and pytest of this iteration were kept from the oracle and the records: the
   * weakest of them ('none': not isolated, so the score rests on the agents' good faith).
   */
  isolation: z.enum(['container', 'sandbox', 'none']).optional(),
  /**
   * `host` when the sandboxed code under test had this machine's network (sweci.pytest.network):
   * its loopback services, abstract sockets and every host it reaches. Flagged not isolated.
   */
  pytest_network: z.enum(['host']).optional(),
});
export type IterationRecord = z.infer<typeof iterationRecordSchema>;

const WHEN_DAMAGED = 'Remove that line (and the ones after it) to continue the run from the iteration before it.';

/**
 * Parses iteration.jsonl text. A final line without its newline is a crash's leftover: ignored.
 * The lines the harness writes pass a hand-written check (iteration-line-check.ts); any other goes
 * through the schema, which alone refuses a line.
 */
function parseIterationLines(text: string, file: string): IterationRecord[] {
  return parseJsonLines(text, file, iterationRecordSchema, WHEN_DAMAGED, isPlainIterationLine);
}

/** The complete lines of `file`; [] when it does not exist. */
export async function readIterationRecords(file: string): Promise<IterationRecord[]> {
  const text = await readIfPresent(file);
  return text === undefined ? [] : parseIterationLines(text, file);
}

/** readIterationRecords, synchronously. */
export function readIterationRecordsSync(file: string): IterationRecord[] {
  const text = readIfPresentSync(file);
  return text === undefined ? [] : parseIterationLines(text, file);
}

/** One JSON line, newline included. */
function formatIterationLine(record: IterationRecord): string {
  const checked = iterationRecordSchema.safeParse(record);
  // The loop, the replay and the batch all build lines; one that fails the schema is a bug.
  if (!checked.success) throw new Error(`refusing to write an iteration line: ${describeSchemaProblem(checked.error)}`);
  return JSON.stringify(checked.data) + '\n';
}

/**
 * Appends `record` as one line with a single write, flushed before returning. A partial line a
 * crash left at the end is cut off first, so the new line never fuses with it.
 */
export async function appendIterationRecord(file: string, record: IterationRecord): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, 'a+');
  try {
    const { size } = await handle.stat();
    if (size > 0) {
      const keep = await completeLength(handle, size);
      if (keep < size) await handle.truncate(keep);
    }
    await handle.appendFile(formatIterationLine(record), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the whole file with `records`, written whole then renamed (a reader sees the old
 * lines or the new ones). Only for a run whose lines are rebuilt, not appended: the human-history
 * replay, whose widened replays insert lines between cached ones. Unchanged text is not rewritten.
 */
export async function replaceIterationRecords(file: string, records: readonly IterationRecord[]): Promise<void> {
  const text = records.map(formatIterationLine).join('');
  const current = await fs.readFile(file, 'utf8').catch(() => '');
  if (text !== current) await writeFileAtomic(file, text);
}

/** Length of the file up to and including its last newline. */
async function completeLength(handle: fs.FileHandle, size: number): Promise<number> {
  const chunk = 64 * 1024;
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk);
    const buf = Buffer.alloc(end - start);
    await handle.read(buf, 0, buf.length, start);
    const nl = buf.lastIndexOf(0x0a);
    if (nl >= 0) return start + nl + 1;
    end = start;
  }
  return 0;
}
