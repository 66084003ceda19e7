// One iteration k of a run: architect → programmer → restore tests → pytest → non-passed →
// commit → archive → append the line (last). Each completed step is journalled in pending/,
// so a cancelled or crashed iteration continues from its last completed step and is recorded
// once, or not at all.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentRole } from '../agents/agent-driver';
import type { SecretMask } from '../util/secret-mask';
import type { Isolation } from '../runtime/runtime';
import { runPytestStep } from '../checkout/run-current-tests';
import { saveReport } from '../checkout/report-store';
import { passedIds, type TestReport } from '../pytest/test-report';
import { regressedIds } from '../../shared/metrics/regressions';
import { inflatedIds, MAX_INFLATED_LISTED } from '../../shared/metrics/inflated';
import { writeFileAtomic } from '../util/fs-atomic';
import { readAgentFile } from '../util/agent-file';
import { MAX_REQUIREMENT_BYTES } from '../requirement/validate-requirement';
import { exportCommit } from '../workspace/history-store';
import { restoreTargetTests } from '../workspace/materialize';
import { type TaskRecord } from '../workspace/layout';
import type { CodeRepo } from './code-repo';
import { findHarnessTampering } from './harness-tampering';
import { DEFAULT_MAX_FILE_MB, DEFAULT_MAX_ITERATION_MB } from './integrity-settings';
import { appendIterationRecord, type IterationRecord } from './iteration-record';
import { readJournal, writeJournal, type Journal, type StepDone } from './journal';
import type { LoopEvent, LoopOptions } from './loop-types';
import { runRoleStep } from './role-step';
import { measuredFields } from './measured-line';
import { ARCHIVE, type RunLayout } from './run-store';

export interface IterationContext {
  opts: LoopOptions;
  record: TaskRecord;
  layout: RunLayout;
  target: TestReport;
  repo: CodeRepo;
  branch: string;
  signal: AbortSignal;
  emit: (event: LoopEvent) => void;
  /** Passed node ids of the last iteration whose pytest ran (regressions are counted against it). */
  lastRan?: Set<string>;
  /** Passed node ids of the run's base (line 0): a pass the target lacks but the base had is not inflation. */
  basePassed?: Set<string>;
  /** The roles' environment values and API keys: never in an archived file or the line. */
  secrets: SecretMask;
}

/** `tamperedBy`: which role's step (or the code it left) changed each restored test file. */
export type IterationOutcome = { kind: 'recorded'; record: IterationRecord; tamperedBy: TamperedBy } | { kind: 'paused'; after: AgentRole };
export type TamperedBy = Record<AgentRole, string[]>;

const union = (...lists: string[][]): string[] => [...new Set(lists.flat())].sort();

/** code.diff is cut here (a last line says so): an archive stays readable whatever was committed. */
export const MAX_DIFF_BYTES = 16 * 1024 * 1024;

function sizeLimits(opts: LoopOptions): { file: number; total: number } {
  return { file: (opts.maxFileMb ?? DEFAULT_MAX_FILE_MB) * 2 ** 20, total: (opts.maxIterationMb ?? DEFAULT_MAX_ITERATION_MB) * 2 ** 20 };
}

const ISOLATION_ORDER: Isolation[] = ['none', 'sandbox', 'container'];

function weakestIsolation(list: Isolation[]): Isolation {
  return list.reduce((a, b) => (ISOLATION_ORDER.indexOf(b) < ISOLATION_ORDER.indexOf(a) ? b : a), 'container');
}

/** Agents' isolation (a human plays in the open editor: nothing to confine). */
function agentIsolations(ctx: IterationContext): Isolation[] {
  return (['architect', 'programmer'] as const).flatMap((role) => {
    const setup = ctx.opts.roles[role];
    return setup.settings.kind !== 'human' && setup.driver ? [setup.driver.isolation] : [];
  });
}

/**
 * Runs (or continues) iteration `iteration`, which starts from `startCommit`. A journal in
 * pending/ for this iteration is continued; any other pending/ is stale and replaced.
 */
export async function runIteration(ctx: IterationContext, iteration: number, startCommit: string): Promise<IterationOutcome> {
  const { layout } = ctx;
  const task = ctx.opts.task;
  let journal = await readJournal(layout.pendingDir);
  // A step this call marks begun in a journal write it makes anyway (one fsync fewer) is not a restart.
  let marked: AgentRole | undefined;
  if (!journal || journal.iteration !== iteration || journal.startCommit !== startCommit) {
    await fs.rm(layout.pendingDir, { recursive: true, force: true });
    await fs.mkdir(layout.pendingDir, { recursive: true });
    journal = { schema: 1, run: layout.run, iteration, started_at: new Date().toISOString(), startCommit, begun: ['architect'] };
    marked = 'architect';
    await writeJournal(layout.pendingDir, journal);
  }
  const j: Journal = journal;

  if (!j.architect) {
    j.architect = await roleStep(ctx, j, 'architect', marked === 'architect');
    await keepRequirement(task.requirementFile, path.join(layout.pendingDir, ARCHIVE.requirement));
    const pause = ctx.opts.stopAfterStep === 'architect';
    if (!pause && !(j.begun ?? []).includes('programmer')) {
      j.begun = [...(j.begun ?? []), 'programmer'];
      marked = 'programmer';
    }
    await writeJournal(layout.pendingDir, j);
    if (pause) return { kind: 'paused', after: 'architect' };
  } else if (!j.programmer) {
    // The programmer works from the requirement the architect wrote, whatever happened since. An
    // agent may have made app/requirement.xml a link (to the run's records): rename replaces the
    // link, where a copy would write through it.
    await writeFileAtomic(task.requirementFile, await fs.readFile(path.join(layout.pendingDir, ARCHIVE.requirement)));
  }

  if (!j.programmer) {
    const done = await roleStep(ctx, j, 'programmer', marked === 'programmer');
    // Step (c): the target's tests go back before anything else looks at the code.
    done.tampered = union(done.tampered, await restoreTargetTests(ctx.record, task));
    j.programmer = done;
    await writeJournal(layout.pendingDir, j);
    if (ctx.opts.stopAfterStep === 'programmer') return { kind: 'paused', after: 'programmer' };
  }

  if (!j.result) {
    j.result = await testAndCommit(ctx, j);
    await writeJournal(layout.pendingDir, j);
  }
  const record = j.result;
  await archiveAndAppend(layout, record);
  // The Architect's changes are undone after its step; what else was restored is the Programmer's.
  const architect = j.architect?.tampered ?? [];
  return { kind: 'recorded', record, tamperedBy: { architect, programmer: record.tampered.filter((p) => !architect.includes(p)) } };
}

/** `markedNow`: this call wrote `role` into begun just before; otherwise begun means an earlier call started it. */
async function roleStep(ctx: IterationContext, j: Journal, role: AgentRole, markedNow: boolean): Promise<StepDone> {
  // Any file of this step already in pending/ means it ran before and was interrupted.
  const names = await fs.readdir(ctx.layout.pendingDir).catch(() => [] as string[]);
  const restarted = names.some((n) => n.startsWith(`${role}-`)) || (!markedNow && (j.begun ?? []).includes(role));
  if (!(j.begun ?? []).includes(role)) {
    j.begun = [...(j.begun ?? []), role];
    await writeJournal(ctx.layout.pendingDir, j);
  }
  return runRoleStep({
    task: ctx.opts.task,
    run: ctx.layout.run,
    iteration: j.iteration,
    role,
    setup: ctx.opts.roles[role],
    humanStep: ctx.opts.humanStep,
    signal: ctx.signal,
    emit: ctx.emit,
    pendingDir: ctx.layout.pendingDir,
    repo: ctx.repo,
    branch: ctx.branch,
    startCommit: j.startCommit,
    restarted,
    record: ctx.record,
  });
}

/**
 * Steps (c)–(g): commit, then pytest on a clean checkout of that commit, non-passed; the archive
 * files go into pending/. What is scored is exactly what is committed: nothing ignored or
 * untracked in app/code (bytecode, build output) reaches the run.
 */
async function testAndCommit(ctx: IterationContext, j: Journal): Promise<IterationRecord> {
  const { layout, repo } = ctx;
  const task = ctx.opts.task;
  const run = layout.run;

  // (g) One commit per iteration; a resumed iteration whose commit exists reuses it.
  const scoring = task.scoringCodeDir;
  let unchanged = false;
  let exported = false;
  let journaling: Promise<void> = Promise.resolve();
  if (!j.commit) {
    const head = await repo.head();
    const message = `iteration ${j.iteration}`;
    if (head.sha !== j.startCommit && (await repo.parent(head.sha)) === j.startCommit && (await repo.subject(head.sha)) === message) {
      j.commit = head.sha;
    } else {
      // The scoring checkout is written from the same index while git commits it.
      const made = await repo.commitAll(message, sizeLimits(ctx.opts), scoring);
      j.commit = made.sha;
      j.oversized = made.oversized;
      // Known only when git status was asked (see commitAll); otherwise the diff says it.
      unchanged = made.changed?.length === 0;
      exported = true;
    }
    journaling = writeJournal(layout.pendingDir, j);
  }
  const commit = j.commit;
  // The journal's fsync and the checkout (when commitAll did not write it) side by side: a crash
  // before either is done finds the commit again by its parent and message (above).
  await Promise.all([journaling, exported ? undefined : exportCommit(task, commit, scoring, ctx.signal)]);
  // The next agent's app/code/.git, made while pytest runs (a failure is retried before that agent).
  const syncing = repo.syncWorkingRepo().catch(() => undefined);
  // git's part of the archive and of the harness check needs only the commits: it runs beside pytest.
  const pending = layout.pendingDir;
  const diffing = settled(
    unchanged
      ? writeFileAtomic(path.join(pending, ARCHIVE.codeDiff), '')
      : repo.diffToFile(j.startCommit, commit, path.join(pending, ARCHIVE.codeDiff), MAX_DIFF_BYTES),
  );
  const sinceBase = settled(repo.changedBetween(ctx.record.baseCommit, commit));

  ctx.emit({ type: 'step-started', run, iteration: j.iteration, step: 'pytest', try: 1 });
  const started = Date.now();
  const result = await runPytestStep({
    ...ctx.opts.pytest,
    task,
    codeDir: scoring,
    record: ctx.record,
    runtime: ctx.opts.runtime,
    signal: ctx.signal,
    target: ctx.target,
    nonPassedWhenNotRun: 'all',
    onOutput: (chunk) => ctx.emit({ type: 'pytest-output', run, iteration: j.iteration, chunk }),
  });
  ctx.emit({
    type: 'step-finished',
    run,
    iteration: j.iteration,
    step: 'pytest',
    try: 1,
    ok: result.run.kind === 'ran',
    durationMs: Date.now() - started,
    message: result.run.reason,
  });

  // (h) The archive, staged in pending/ until the line is written.
  // An agent (or the code it wrote) may echo a secret it was given; the archive is what gets
  // kept and shared. The requirement is redacted only now: the programmer has used it. The files
  // are independent of each other: written side by side.
  const keep = (name: string): string => path.join(pending, name);
  await Promise.all([
    writeFileAtomic(keep(ARCHIVE.pytestOutput), ctx.secrets.mask(result.output)),
    unwrap(diffing).then(() => redactFile(keep(ARCHIVE.codeDiff), ctx.secrets)),
    result.report ? saveReport(keep(ARCHIVE.report), result.report).then(() => redactFile(keep(ARCHIVE.report), ctx.secrets)) : undefined,
    fs.copyFile(task.summaryFile, keep(ARCHIVE.summary)).then(() => redactFile(keep(ARCHIVE.summary), ctx.secrets)),
    redactFile(keep(ARCHIVE.requirement), ctx.secrets),
  ]);

  await syncing;
  const changed = await unwrap(sinceBase);
  const source = { changedBetween: () => Promise.resolve(changed), fileAt: (c: string, rel: string) => repo.fileAt(c, rel) };
  const harness = await findHarnessTampering(source, ctx.record.baseCommit, commit, result.run.integrity ?? []);
  // The report stream's own evidence names no file: it is flagged as it says.
  if (result.run.tampering) harness.push(result.run.tampering);

  const now = result.report ? passedIds(result.report) : undefined;
  const regressions = now && ctx.lastRan ? regressedIds(ctx.lastRan, now, passedIds(ctx.target)) : [];
  const inflated = now ? inflatedIds(now, passedIds(ctx.target), ctx.basePassed) : [];
  const record: IterationRecord = {
    ...measuredFields(result.report, ctx.target),
    ...(j.architect ? { architect: j.architect.record } : {}),
    ...(j.programmer ? { programmer: j.programmer.record } : {}),
    iteration: j.iteration,
    run,
    started_at: j.started_at,
    finished_at: new Date().toISOString(),
    commit,
    regressions,
    tampered: union(j.architect?.tampered ?? [], j.programmer?.tampered ?? [], result.restoredTests),
    outside_changes: union(j.architect?.outside ?? [], j.programmer?.outside ?? []),
    harness_tampering: harness,
    ...(j.oversized?.length ? { oversized: j.oversized } : {}),
    ...(inflated.length ? { inflated: inflated.slice(0, MAX_INFLATED_LISTED), inflated_count: inflated.length } : {}),
    ...(result.run.kind === 'did-not-run' ? { pytest_error: ctx.secrets.mask(result.run.reason ?? 'pytest did not run.') } : {}),
    pytest_time: Math.round(result.run.durationMs) / 1000,
    isolation: weakestIsolation([ctx.opts.runtime.isolation, ...agentIsolations(ctx)]),
    // The code under test had this machine's network (sweci.pytest.network): flagged not isolated.
    ...(ctx.opts.runtime.isolation === 'sandbox' && ctx.opts.pytest.network === 'host' ? { pytest_network: 'host' as const } : {}),
  };
  return record;
}

/** A promise whose failure waits to be looked at (no unhandled rejection while pytest runs). */
type Settled<T> = Promise<{ ok: true; value: T } | { ok: false; error: unknown }>;

function settled<T>(p: Promise<T>): Settled<T> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

async function unwrap<T>(s: Settled<T>): Promise<T> {
  const r = await s;
  if (!r.ok) throw r.error;
  return r.value;
}

/** The Architect's requirement.xml into the archive: read without following a link, and sized first. */
async function keepRequirement(from: string, to: string): Promise<void> {
  const read = await readAgentFile(from, MAX_REQUIREMENT_BYTES);
  // The step's own check read this same file a moment ago, with every agent process gone since.
  if (read.kind !== 'ok') throw new Error(`${from} changed after the Architect's step was checked (${read.kind}); run the iteration again.`);
  await writeFileAtomic(to, read.data);
}

async function redactFile(file: string, secrets: SecretMask): Promise<void> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const clean = secrets.mask(text);
  if (clean !== text) await writeFileAtomic(file, clean);
}

/**
 * pending/ becomes iter-NNN/ (one rename), then the line is appended, then the journal copy in
 * the archive is dropped. A crash between any two of these is finished by `recoverArchived`.
 */
export async function archiveAndAppend(layout: RunLayout, record: IterationRecord): Promise<void> {
  const dest = layout.iterationDir(record.iteration);
  await fs.rm(dest, { recursive: true, force: true });
  await fs.rename(layout.pendingDir, dest);
  await appendIterationRecord(layout.iterationsFile, record);
  await fs.rm(path.join(dest, 'journal.json'), { force: true });
}

/**
 * After a crash between the archive's rename and the append: the archive holds the finished
 * line in its journal; append it. Returns the record when it did.
 */
export async function recoverArchived(layout: RunLayout, iteration: number): Promise<IterationRecord | undefined> {
  const dir = layout.iterationDir(iteration);
  const journal = await readJournal(dir);
  if (!journal?.result || journal.iteration !== iteration) return undefined;
  await appendIterationRecord(layout.iterationsFile, journal.result);
  await fs.rm(path.join(dir, 'journal.json'), { force: true });
  return journal.result;
}
