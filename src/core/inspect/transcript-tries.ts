// Where a run's transcripts are: every agent try that left a calls record
// (`<role>-try-<N>.calls.jsonl`), in a completed iteration's archive or, while the iteration is in
// progress, in pending/. Read by the Transcript panel (its quick pick, Previous/Next, the live
// try), the Iterations view and the exported report. Pure reading.
import { promises as fs, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentRole } from '../agents/agent-driver';
import { readJournal } from '../loop/journal';
import { ARCHIVE, readRunInfo, type RunInfo } from '../loop/run-store';
import { hasEventReader } from '../transcript/cli-events-transcript';
import { readTryTranscript } from '../transcript/read-transcript';
import type { Transcript } from '../../shared/transcript-schema';
import { iterationOfDirName, type TaskFolder } from '../workspace/task-folder';
import { CALLS_SUFFIX } from '../agents/model-route';

export interface TryRef {
  run: string;
  iteration: number;
  role: AgentRole;
  try: number;
}

export interface TryLocation extends TryRef {
  /** The folder holding the try's files: iter-NNN/, or pending/ while its iteration runs. */
  dir: string;
  pending: boolean;
}

const CALLS_FILE = /^(architect|programmer)-try-([1-9]\d{0,3})\.calls\.jsonl$/;
const LOG_FILE = /^(architect|programmer)-try-([1-9]\d{0,3})\.log$/;

/** The roles whose agent prints an event stream into its log: their tries have a transcript without a calls record. */
export function rolesWithEventLogs(info: Pick<RunInfo, 'roles'> | undefined): AgentRole[] {
  return (['architect', 'programmer'] as const).filter((role) => {
    const r = info?.roles[role];
    return r?.kind === 'agent' && r.preset !== undefined && hasEventReader(r.preset);
  });
}

/**
 * The tries a folder's file names have a transcript for, architect first, then by try: each with
 * a calls record, and each log of a role in `eventLogs` (see rolesWithEventLogs).
 */
export function triesIn(names: readonly string[], eventLogs: readonly AgentRole[] = []): { role: AgentRole; try: number }[] {
  const seen = new Set<string>();
  return names
    .flatMap((n) => {
      const m = CALLS_FILE.exec(n) ?? LOG_FILE.exec(n);
      if (!m || (!n.endsWith(CALLS_SUFFIX) && !eventLogs.includes(m[1] as AgentRole))) return [];
      const key = `${m[1]}:${m[2]}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ role: m[1] as AgentRole, try: Number(m[2]) }];
    })
    .sort(compareRoleTry);
}

function compareRoleTry(a: { role: AgentRole; try: number }, b: { role: AgentRole; try: number }): number {
  return (a.role === b.role ? 0 : a.role === 'architect' ? -1 : 1) || a.try - b.try;
}

/** Order along a run: iteration, then role (the Architect first), then try. */
export function compareTries(a: TryRef, b: TryRef): number {
  return a.iteration - b.iteration || compareRoleTry(a, b);
}

const names = (dir: string): Promise<string[]> => fs.readdir(dir).catch(() => []);

/** The iteration pending/ holds (its journal says), if any. */
async function pendingIteration(pendingDir: string): Promise<number | undefined> {
  return (await readJournal(pendingDir).catch(() => undefined))?.iteration;
}

/** Every try of the run with a calls record, in order; the iteration in progress last. */
export async function listTries(task: TaskFolder, run: string): Promise<TryLocation[]> {
  const layout = task.run(run);
  const logs = rolesWithEventLogs(await readRunInfo(task, run).catch(() => undefined));
  const out: TryLocation[] = [];
  for (const entry of (await names(layout.dir)).sort()) {
    const iteration = iterationOfDirName(entry);
    if (iteration === undefined) continue;
    const dir = path.join(layout.dir, entry);
    for (const t of triesIn(await names(dir), logs)) out.push({ run, iteration, ...t, dir, pending: false });
  }
  const pending = await pendingIteration(layout.pendingDir);
  if (pending !== undefined && !out.some((t) => t.iteration === pending)) {
    for (const t of triesIn(await names(layout.pendingDir), logs)) out.push({ run, iteration: pending, ...t, dir: layout.pendingDir, pending: true });
  }
  return out.sort(compareTries);
}

const namesSync = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/**
 * The tries of the run's completed iterations (none of pending/), in order, synchronously and with
 * the run's info already read: for a reader of every run of an experiment (the Inspect export).
 */
export function listArchivedTriesSync(task: TaskFolder, info: RunInfo): TryLocation[] {
  const layout = task.run(info.name);
  const logs = rolesWithEventLogs(info);
  const out: TryLocation[] = [];
  for (const entry of namesSync(layout.dir).sort()) {
    const iteration = iterationOfDirName(entry);
    if (iteration === undefined) continue;
    const dir = path.join(layout.dir, entry);
    for (const t of triesIn(namesSync(dir), logs)) out.push({ run: info.name, iteration, ...t, dir, pending: false });
  }
  return out.sort(compareTries);
}

/** Where one try's files are now: its iteration's archive once completed, else pending/. */
export async function findTry(task: TaskFolder, ref: TryRef): Promise<TryLocation | undefined> {
  const layout = task.run(ref.run);
  const logs = rolesWithEventLogs(await readRunInfo(task, ref.run).catch(() => undefined));
  const listed = (list: string[]) => triesIn(list, logs).some((t) => t.role === ref.role && t.try === ref.try);
  const archived = layout.iterationDir(ref.iteration);
  if (listed(await names(archived))) return { ...ref, dir: archived, pending: false };
  if ((await pendingIteration(layout.pendingDir)) === ref.iteration && listed(await names(layout.pendingDir)))
    return { ...ref, dir: layout.pendingDir, pending: true };
  return undefined;
}

/** The try of the iteration in progress whose calls record changed last: the one running now. */
export async function latestPendingTry(task: TaskFolder, run: string): Promise<TryLocation | undefined> {
  const layout = task.run(run);
  const iteration = await pendingIteration(layout.pendingDir);
  if (iteration === undefined) return undefined;
  let best: { t: TryLocation; mtime: number } | undefined;
  for (const t of triesIn(await names(layout.pendingDir))) {
    const stat = await fs.stat(path.join(layout.pendingDir, ARCHIVE.agentCalls(t.role, t.try))).catch(() => undefined);
    if (stat && (!best || stat.mtimeMs >= best.mtime)) best = { t: { run, iteration, ...t, dir: layout.pendingDir, pending: true }, mtime: stat.mtimeMs };
  }
  return best?.t;
}

/** The try's transcript, with the agent the run recorded for its role. */
export async function loadTranscript(task: TaskFolder, at: TryLocation): Promise<Transcript | undefined> {
  const info = await readRunInfo(task, at.run).catch(() => undefined);
  const role = info?.roles[at.role];
  const agent = role?.kind === 'agent' ? (role.preset ?? 'custom') : undefined;
  return readTryTranscript({
    iterDir: at.dir,
    role: at.role,
    try: at.try,
    iteration: at.iteration,
    run: at.run,
    pending: at.pending,
    ...(agent ? { agent } : {}),
  });
}
