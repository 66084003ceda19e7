// Where a run lives on disk: .sweci/runs/<run>/ with run.json, iteration.jsonl,
// one iter-NNN/ archive per completed iteration, and pending/ for the iteration in progress.
import { existsSync, promises as fs, readdirSync } from 'node:fs';
import type { AgentRole, AgentSettings } from '../agents/agent-driver';
import { SecretMask } from '../util/secret-mask';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';
import { readIterationRecords, readIterationRecordsSync, roleKind, type IterationRecord } from './iteration-record';
import { journalFile, readJournal, readJournalSync, type Journal, type PendingStep } from './journal';
import type { RunFlag } from '../../shared/metrics/run-flags';
import { scoreFlags } from '../../shared/metrics/scored-line';
import { assertRunName, runBranch, slugifyRunName } from './run-name';
import type { TaskFolder } from '../workspace/task-folder';
import { compareStamps } from '../util/stamp-order';
import { errorMessage } from '../util/errors';

export const DEFAULT_MAX_ITERATIONS = 20;

export type { RunLayout } from '../workspace/task-folder';

/** Names of the files in an iteration's archive (and in pending/ while it runs). */
export const ARCHIVE = {
  requirement: 'requirement.xml',
  /** Our TestReport of this iteration's pytest run. */
  report: 'report.json',
  summary: 'summary.jsonl',
  pytestOutput: 'pytest-output.txt',
  /** `git diff` of app/code from the previous iteration's commit. */
  codeDiff: 'code.diff',
  prompt: (role: AgentRole): string => `${role}.prompt.md`,
  agentLog: (role: AgentRole, tryNumber: number): string => `${role}-try-${tryNumber}.log`,
  /** The try's model calls as the gateway saw them, one JSON line each. */
  agentCalls: (role: AgentRole, tryNumber: number): string => `${role}-try-${tryNumber}.calls.jsonl`,
} as const;

/** Who plays a role, as recorded in run.json: labels and limits, never environment values. */
const roleInfoSchema = z.object({
  kind: roleKind,
  label: z.string(),
  preset: z.string().optional(),
  command: z.string().optional(),
  model: z.string().optional(),
  timeoutSec: z.number().optional(),
  maxTries: z.number().optional(),
});
export type RoleInfo = z.infer<typeof roleInfoSchema>;

export const runInfoSchema = z.object({
  schema: z.literal(1),
  name: z.string(),
  created: z.string(),
  /** 'loop': agents/humans iterating in app/code; 'human-history': a replay of upstream commits. */
  kind: z.enum(['loop', 'human-history']),
  roles: z.object({ architect: roleInfoSchema, programmer: roleInfoSchema }),
  maxIterations: z.number(),
  /** app/code commit the run started from (the base). */
  baseCommit: z.string(),
  /** app/code branch holding the iteration commits (loop runs). */
  branch: z.string().optional(),
});
export type RunInfo = z.infer<typeof runInfoSchema>;

const runFile = jsonRecordFile({ schema: runInfoSchema, whenDamaged: "Delete the run's folder to start it over." });

/**
 * `secrets`: the role's environment values (settings env and API keys). A command line or a
 * model name that contains one is recorded with *** in its place.
 */
export function roleInfo(settings: AgentSettings, label: string, secrets: Iterable<string> = []): RoleInfo {
  const hide = new SecretMask(secrets);
  if (settings.kind === 'human') return { kind: 'human', label };
  const info: RoleInfo = { kind: 'agent', label: hide.mask(label) };
  if (settings.kind === 'preset') info.preset = settings.preset;
  else info.command = hide.mask(settings.command);
  if (settings.model) info.model = hide.mask(settings.model);
  if (settings.timeoutSec !== undefined) info.timeoutSec = settings.timeoutSec;
  if (settings.maxTries !== undefined) info.maxTries = settings.maxTries;
  return info;
}

export async function readRunInfo(task: TaskFolder, run: string): Promise<RunInfo | undefined> {
  return runFile.read(task.run(run).runFile);
}

export function readRunInfoSync(task: TaskFolder, run: string): RunInfo | undefined {
  return runFile.readSync(task.run(run).runFile);
}

export async function writeRunInfo(task: TaskFolder, info: RunInfo): Promise<void> {
  await runFile.write(task.run(info.name).runFile, info);
}

/** A run as a list of runs shows it. */
export interface RunSummary {
  info: RunInfo;
  /** Completed iterations (complete lines − 1, as the reference counts epochs). */
  iterations: number;
  lastGap?: number;
  solved: boolean;
  /** The flags its scores rest on as measured (metrics/scored-line.ts): a solved run with one is not plainly solved. */
  scoreFlags: RunFlag[];
  /** The iteration in progress (after a cancel or a crash), and its last completed step. */
  pending?: { iteration: number; lastCompletedStep?: PendingStep };
}

/** A run's summary with the lines it was made from, for a reader that needs both (the file is read once). */
export interface RunWithRecords {
  summary: RunSummary;
  records: IterationRecord[];
}

export async function readRunSummary(task: TaskFolder, run: string): Promise<RunSummary | undefined> {
  return (await readRun(task, run))?.summary;
}

/** The run's summary and lines (undefined when the folder holds no run.json); a damaged record throws. */
export async function readRun(task: TaskFolder, run: string): Promise<RunWithRecords | undefined> {
  const info = await readRunInfo(task, run);
  if (!info) return undefined;
  const layout = task.run(run);
  const records: IterationRecord[] = await readIterationRecords(layout.iterationsFile);
  // Most runs have no iteration in progress, so no pending/: that is looked up, not read and failed.
  const journal = existsSync(journalFile(layout.pendingDir)) ? await readJournal(layout.pendingDir).catch(() => undefined) : undefined;
  return runWithRecords(info, records, journal);
}

/**
 * readRun, synchronously: for the experiment readers, which read thousands of runs, where a
 * promise per file costs more than reading it.
 */
export function readRunSync(task: TaskFolder, run: string): RunWithRecords | undefined {
  const info = readRunInfoSync(task, run);
  if (!info) return undefined;
  const layout = task.run(run);
  const records = readIterationRecordsSync(layout.iterationsFile);
  let journal: Journal | undefined;
  try {
    journal = existsSync(journalFile(layout.pendingDir)) ? readJournalSync(layout.pendingDir) : undefined;
  } catch {
    journal = undefined;
  }
  return runWithRecords(info, records, journal);
}

function runWithRecords(info: RunInfo, records: IterationRecord[], journal: Journal | undefined): RunWithRecords {
  const last = records[records.length - 1];
  const iterations = Math.max(0, records.length - 1);
  const summary: RunSummary = {
    info,
    iterations,
    lastGap: last?.gap,
    solved: records.some((r) => r.gap === 0),
    scoreFlags: scoreFlags(records),
    pending: journal && journal.iteration === records.length ? { iteration: journal.iteration, lastCompletedStep: journal.lastCompletedStep } : undefined,
  };
  return { summary, records };
}

/** Every run of the task, oldest first. Folders without a run.json are skipped. */
export async function listRuns(task: TaskFolder): Promise<RunSummary[]> {
  return (await listRunsWithRecords(task)).map((r) => r.summary);
}

/** listRuns, each run with its lines. */
export async function listRunsWithRecords(task: TaskFolder): Promise<RunWithRecords[]> {
  let names: string[];
  try {
    names = await fs.readdir(task.runsDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: RunWithRecords[] = [];
  for (const name of names.sort()) {
    const run = await readRun(task, name).catch(() => undefined);
    if (run) out.push(run);
  }
  return out.sort((a, b) => compareStamps(a.summary.info.created, b.summary.info.created) || a.summary.info.name.localeCompare(b.summary.info.name));
}

/**
 * listRunsWithRecords, synchronously, with the folders that hold a run that cannot be read and why
 * (an export reads every run of thousands of tasks: a promise per small file costs more than the read).
 */
export function listRunsWithRecordsSync(task: TaskFolder): { runs: RunWithRecords[]; unreadable: Array<{ run: string; reason: string }> } {
  let names: string[];
  try {
    names = readdirSync(task.runsDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], unreadable: [] };
    throw err;
  }
  const runs: RunWithRecords[] = [];
  const unreadable: Array<{ run: string; reason: string }> = [];
  for (const name of names.sort()) {
    try {
      const run = readRunSync(task, name);
      if (run) runs.push(run);
    } catch (err) {
      unreadable.push({ run: name, reason: errorMessage(err) });
    }
  }
  runs.sort((a, b) => compareStamps(a.summary.info.created, b.summary.info.created) || a.summary.info.name.localeCompare(b.summary.info.name));
  return { runs, unreadable };
}

/** A run name not yet used on this task, from a hint such as the agent's label. */
export async function suggestRunName(task: TaskFolder, hint = 'run'): Promise<string> {
  const stem = slugifyRunName(hint).slice(0, 56) || 'run';
  const used = new Set(await fs.readdir(task.runsDir).catch(() => [] as string[]));
  for (let i = 1; ; i++) {
    const name = `${stem}-${i}`;
    if (!used.has(name)) {
      assertRunName(name);
      return name;
    }
  }
}

export { runBranch };
