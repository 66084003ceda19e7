// sweci transcript: what an agent did in one try — each model call, what it added, what the model
// answered and the tools it ran — from the try's gateway calls record, as text, markdown or json.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentRole } from '../../core/agents/agent-driver';
import { readIterationRecords, type IterationRecord } from '../../core/loop/iteration-record';
import { readJournal } from '../../core/loop/journal';
import { ARCHIVE, listRuns, type RunSummary } from '../../core/loop/run-store';
import { loadTranscript, triesIn } from '../../core/inspect/transcript-tries';
import { formatTranscript, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../core/transcript/format-transcript';
import { UserError } from '../../core/util/errors';
import { iterationDirName, iterationOfDirName, taskFolder, type RunLayout, type TaskFolder } from '../../core/workspace/task-folder';

export interface TranscriptValues {
  run?: string;
  iteration?: string;
  role?: string;
  try?: string;
  format?: string;
}

const ROLES: readonly AgentRole[] = ['architect', 'programmer'];

function wholeNumber(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${flag} must be a whole number of ${min} or more, not "${text}".`);
  return n;
}

/** The run asked for, or the task's latest loop run (as the status bar picks it). */
async function chooseRun(task: TaskFolder, asked: string | undefined): Promise<RunSummary> {
  const runs = await listRuns(task);
  if (asked !== undefined) {
    const run = runs.find((r) => r.info.name === asked);
    if (!run) throw new UserError(`${task.root} has no run named "${asked}"${runs.length ? `; its runs: ${runs.map((r) => r.info.name).join(', ')}` : ''}.`);
    return run;
  }
  const loops = runs.filter((r) => r.info.kind === 'loop');
  const latest = loops[loops.length - 1];
  if (!latest) {
    throw new UserError(
      runs.length
        ? `${task.root} has no loop run (only ${runs.map((r) => r.info.name).join(', ')}, which no agent played). Run the loop first.`
        : `${task.root} has no runs yet: run the loop first (sweci run, or SWE-CI: Start Loop in VS Code).`,
    );
  }
  return latest;
}

/** Iterations an agent may have played in: archived ones (1 and up) and the one in progress. */
async function iterationsOf(layout: RunLayout): Promise<{ archived: number[]; pending?: number }> {
  const names = await fs.readdir(layout.dir).catch(() => [] as string[]);
  const archived = names
    .map(iterationOfDirName)
    .filter((n): n is number => n !== undefined && n >= 1)
    .sort((a, b) => a - b);
  const journal = await readJournal(layout.pendingDir).catch(() => undefined);
  return journal && !archived.includes(journal.iteration) ? { archived, pending: journal.iteration } : { archived };
}

function listed(iterations: { archived: number[]; pending?: number }): string {
  const all = [...iterations.archived.map(String), ...(iterations.pending !== undefined ? [`${iterations.pending} (in progress)`] : [])];
  return all.length ? `its iterations: ${all.join(', ')}` : 'it has no iteration yet besides the base run';
}

/** The tries of `role` recorded in the folder (a log or a calls record each), in order. */
async function triesOf(dir: string, role: AgentRole): Promise<number[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return triesIn(names, [role]).flatMap((t) => (t.role === role ? [t.try] : []));
}

async function recordOf(iterationsFile: string, iteration: number): Promise<IterationRecord | undefined> {
  const records = await readIterationRecords(iterationsFile).catch(() => [] as IterationRecord[]);
  return records.find((r) => r.iteration === iteration);
}

/** Why a try that ran has no calls record, from what its log says of its model route. */
async function whyNoCalls(logFile: string, role: AgentRole, tryNumber: number): Promise<string> {
  const log = await fs.readFile(logFile, 'utf8').catch(() => undefined);
  const where = `its log: ${logFile}`;
  if (log === undefined) return `No transcript for the ${role}'s try ${tryNumber}: it has no calls record and no log.`;
  if (/^# endpoint: /m.test(log))
    return `No transcript for the ${role}'s try ${tryNumber}: it went through SWE-CI's model gateway but made no model call there (it failed before, or called its model another way). See ${where}`;
  return (
    `No transcript for the ${role}'s try ${tryNumber}: the agent did not reach its model through SWE-CI's gateway, so no call was recorded ` +
    `(a custom agent with no model endpoint, or a CLI on its own login: set sweci.agents.baseUrl, or --base-url, to record the calls). See ${where}`
  );
}

export async function transcriptCommand(dir: string, values: TranscriptValues): Promise<number> {
  const format = (values.format ?? 'text') as TranscriptFormat;
  if (!TRANSCRIPT_FORMATS.includes(format)) throw new UserError(`--format must be one of ${TRANSCRIPT_FORMATS.join(', ')}, not "${values.format}".`);
  const role = values.role as AgentRole | undefined;
  if (!role || !ROLES.includes(role))
    throw new UserError(`transcript needs --role architect or --role programmer${values.role ? `, not "${values.role}"` : ''}.`);
  const iteration = wholeNumber('--iteration', values.iteration, 0);
  const asked = wholeNumber('--try', values.try, 1);

  const task = taskFolder(path.resolve(dir));
  if (!existsSync(task.taskFile)) throw new UserError(`${task.root} is not a SWE-CI task folder (no .sweci/task.json).`);
  const run = await chooseRun(task, values.run);
  const layout = task.run(run.info.name);
  const iterations = await iterationsOf(layout);
  if (iteration === undefined) throw new UserError(`transcript needs --iteration <n>: run ${run.info.name}, ${listed(iterations)}.`);
  if (iteration === 0) throw new UserError(`Iteration 0 is the checkout's base run: no agent played in it. Run ${run.info.name}, ${listed(iterations)}.`);
  const pending = iterations.pending === iteration;
  if (!pending && !iterations.archived.includes(iteration)) throw new UserError(`Run ${run.info.name} has no iteration ${iteration}: ${listed(iterations)}.`);
  const folder = pending ? layout.pendingDir : layout.iterationDir(iteration);

  const tries = await triesOf(folder, role);
  if (tries.length === 0) {
    const step = (await recordOf(layout.iterationsFile, iteration))?.[role];
    const who = run.info.roles[role];
    if (step?.kind === 'human' || (!step && who.kind === 'human'))
      throw new UserError(`A human played the ${role} in iteration ${iteration} of run ${run.info.name}: there is no agent transcript.`);
    throw new UserError(
      pending
        ? `The ${role} has not started in iteration ${iteration} of run ${run.info.name} yet (it is in progress).`
        : `No try of the ${role} is recorded in iteration ${iteration} of run ${run.info.name} (${iterationDirName(iteration)} holds no ${role}-try-* file).`,
    );
  }
  const tryNumber = asked ?? tries[tries.length - 1];
  if (!tries.includes(tryNumber))
    throw new UserError(`The ${role} made no try ${tryNumber} in iteration ${iteration} of run ${run.info.name}; its tries: ${tries.join(', ')}.`);

  const transcript = await loadTranscript(task, { run: run.info.name, iteration, role, try: tryNumber, dir: folder, pending });
  if (!transcript) throw new UserError(await whyNoCalls(path.join(folder, ARCHIVE.agentLog(role, tryNumber)), role, tryNumber));
  process.stdout.write(formatTranscript(transcript, format));
  return 0;
}
