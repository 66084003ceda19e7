// One task of a batch: check it out into the experiment (once), replay its human history when
// asked, then run or continue its loop run. Everything it records is a normal task folder; the
// task's batch state file says what the folder cannot (why it failed, that it is done).
import { checkOutTask, TargetDidNotRunError } from '../checkout/check-out-task';
import { commitStartedName, replayHumanHistory } from '../history/replay-history';
import { loadBaseRun } from '../checkout/base-report';
import { readIterationRecords, type IterationRecord } from '../loop/iteration-record';
import { acquireLock, type HeldLock } from '../records/process-lock';
import type { LoopEvent } from '../loop/loop-types';
import { runLoop, startRun } from '../loop/run-loop';
import type { TaskFolder } from '../workspace/task-folder';
import { readRunInfo, readRunSummary } from '../loop/run-store';
import { historyRequest, loopRequest } from '../loop/loop-request';
import { BudgetExhaustedError } from '../gateway/budget';
import { taskBudget } from './cost-budgets';
import { replaySourceFor } from './replay-source';
import { baselineOf, normalizedChange } from '../../shared/metrics/normalized-change';
import { scoreFlags } from '../../shared/metrics/scored-line';
import { openTaskEnvironment, type TaskEnvironment } from '../runtime/task-environment';
import { imageArchiveOf, type TaskSpec } from '../task/task-spec';
import { isAbortError, UserError, errorMessage } from '../util/errors';
import { readEnvironmentRecord } from '../workspace/environment-record';
import { readTaskRecord } from '../workspace/materialize';
import type { BatchEvent, BatchSettings } from './batch-types';
import { experimentLayout } from './experiment';
import { readTaskStatus, writeTaskStatus } from './task-status';
import { FINISHED_STATES, type TaskState, type TaskStatus } from '../records/task-status-file';
import { evictTaskImage } from '../runtime/docker/image-budget';
import { openImageEngine } from '../runtime/image-engine';
import { agentsMask } from '../loop/role-setup';
import type { SecretMask } from '../util/secret-mask';

const LOCK_PURPOSE = 'sweci run';

/** A task that cannot be initialised the reference's way: it is reported and never retried. */
class InitialisationFailure extends Error {}

/** The batch's listener, made safe: a display's bug must not stop the batch. */
export function batchEmitter(s: Pick<BatchSettings, 'onEvent'>): (e: BatchEvent) => void {
  return (e) => {
    try {
      s.onEvent?.(e);
    } catch {
      // ignored, see above
    }
  };
}

export async function runBatchTask(spec: TaskSpec, s: BatchSettings): Promise<TaskStatus> {
  const emit = batchEmitter(s);
  const layout = experimentLayout(s.experimentDir);
  let lock: HeldLock;
  try {
    lock = await acquireLock(layout.lockFile(spec.id), LOCK_PURPOSE, spec.id);
  } catch (err) {
    // Another process runs this task: say so, write nothing (its worker owns the state file).
    const status: TaskStatus = {
      schema: 1,
      task: spec.id,
      state: 'busy',
      updated: new Date().toISOString(),
      reason: errorMessage(err),
    };
    emit({ type: 'task-status', status });
    return status;
  }
  const task = new TaskProgress(spec.id, s, emit);
  try {
    const status = await runLocked(spec, s, task);
    if (s.evictImages && FINISHED_STATES.includes(status.state)) await evictImage(layout.task(spec.id), s, task);
    return status;
  } finally {
    await lock.release();
  }
}

/** The task's state as the display and the state file see it; this worker is its one writer. */
class TaskProgress {
  status: Omit<TaskStatus, 'schema' | 'updated'>;
  private readonly mask: SecretMask;
  constructor(
    readonly id: string,
    private readonly s: BatchSettings,
    readonly emit: (e: BatchEvent) => void,
  ) {
    this.status = { task: id, state: 'queued' };
    this.mask = agentsMask(s.settings.agents, s.secretEnv);
  }

  /** Writes and announces a new state, after every earlier write (writes land in call order). */
  set(state: TaskState, extra: Partial<Omit<TaskStatus, 'schema' | 'updated' | 'task' | 'state'>> = {}): Promise<TaskStatus> {
    const next = this.chain.then(() => this.write(state, extra));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** After an iteration: iterations, gap and a(c) from the run's records (queued like `set`). */
  follow(iterationsFile: string): void {
    this.chain = this.chain.then(async () => this.write('running', progressOf(await readIterationRecords(iterationsFile)))).catch(() => undefined);
  }

  private chain: Promise<unknown> = Promise.resolve();

  private async write(state: TaskState, extra: Partial<TaskStatus>): Promise<TaskStatus> {
    this.status = { ...this.status, state, ...extra };
    if (state !== 'failed' && state !== 'init-failed' && state !== 'cancelled' && state !== 'budget-exhausted') delete this.status.reason;
    // A reason quotes errors, and errors quote command lines: masked as every record is.
    else if (this.status.reason !== undefined) this.status.reason = this.mask.mask(this.status.reason);
    await writeTaskStatus(this.s.experimentDir, this.status);
    const full: TaskStatus = { schema: 1, ...this.status, updated: new Date().toISOString() };
    this.emit({ type: 'task-status', status: full });
    return full;
  }

  activity(activity: string): void {
    this.emit({ type: 'task-activity', task: this.id, activity });
  }
}

async function runLocked(spec: TaskSpec, s: BatchSettings, task: TaskProgress): Promise<TaskStatus> {
  const layout = experimentLayout(s.experimentDir);
  const folder = layout.task(spec.id);
  const previous = await readTaskStatus(s.experimentDir, spec.id);
  if (previous?.state === 'init-failed') return task.set('init-failed', { reason: previous.reason });
  const finished = await finishedState(folder, s.run);
  if (finished) return task.set(finished.state, finished.progress);

  let env: TaskEnvironment | undefined;
  try {
    env = await openTaskEnvironment(
      s.settings.runtime,
      { imageArchive: imageArchiveOf(spec), recorded: await readEnvironmentRecord(folder) },
      { hostPython: s.settings.pytest.python, signal: s.signal, onProgress: (m) => task.activity(m) },
    );
    if (!(await readTaskRecord(folder)) || !(await loadBaseRun(folder))) await checkOut(spec, s, env, task);
    if (s.humanHistory) await humanHistory(folder, s, env, task);
    await s.beforeLoop?.(folder);
    return await loop(folder, s, env, task);
  } catch (err) {
    if (s.signal.aborted || isAbortError(err)) return task.set('cancelled', { reason: 'stopped' });
    if (err instanceof InitialisationFailure) return task.set('init-failed', { reason: err.message });
    if (err instanceof BudgetExhaustedError) return task.set('budget-exhausted', { reason: err.message });
    return task.set('failed', { reason: errorMessage(err) });
  } finally {
    await env?.dispose().catch(() => undefined);
  }
}

/**
 * --evict-images: a finished task's image goes (the one its folder records), when SWE-CI loaded
 * it and no container uses it (another task open on the same image keeps it). A failure to
 * remove it is said and does not change the task's state.
 */
async function evictImage(folder: TaskFolder, s: BatchSettings, task: TaskProgress): Promise<void> {
  const record = await readEnvironmentRecord(folder).catch(() => undefined);
  if ((record?.runtime !== 'docker' && record?.runtime !== 'podman') || !record.imageId) return;
  try {
    // Podman: the store this run names (a record does not say which store its image went to).
    const engine = await openImageEngine(s.settings.runtime, record.runtime, s.signal);
    try {
      const removed = await evictTaskImage(engine.conn, record.imageId);
      if (removed) task.activity(`removed its image ${record.image ?? record.imageId} (--evict-images)`);
    } finally {
      await engine.release();
    }
  } catch (err) {
    task.activity(`could not remove its image ${record.image ?? record.imageId}: ${errorMessage(err)}`);
  }
}

/** The run's end state when it has one: gap 0, or its maximum of iterations, with nothing pending. */
async function finishedState(folder: TaskFolder, run: string): Promise<{ state: TaskState; progress: Partial<TaskStatus> } | undefined> {
  const summary = await readRunSummary(folder, run).catch(() => undefined);
  if (!summary || summary.pending || summary.info.kind !== 'loop') return undefined;
  const done = summary.solved ? 'solved' : summary.iterations >= summary.info.maxIterations ? 'max-iterations' : undefined;
  if (!done) return undefined;
  const records = await readIterationRecords(folder.run(run).iterationsFile);
  return { state: done, progress: progressOf(records) };
}

/** Iterations, gap and a(c) of the run's last line. */
function progressOf(records: readonly IterationRecord[]): Partial<TaskStatus> {
  const last = records[records.length - 1];
  const baseline = records[0] ? baselineOf(records[0]) : undefined;
  if (!last) return {};
  const passed = last.gap >= 0 ? (last.pytest.passed ?? 0) : 0;
  const flags = scoreFlags(records);
  return {
    iterations: records.length - 1,
    gap: last.gap,
    ...(baseline ? { a: normalizedChange(passed, baseline) } : {}),
    ...(flags.length > 0 ? { flags } : {}),
  };
}

async function checkOut(spec: TaskSpec, s: BatchSettings, env: TaskEnvironment, task: TaskProgress): Promise<void> {
  const layout = experimentLayout(s.experimentDir);
  await task.set('checking-out');
  const result = await checkOutTask(spec, {
    ...s.settings.pytest,
    python: env.python,
    task: layout.task(spec.id),
    oracleDir: layout.oracleDir(spec.id),
    runtime: env.tests,
    environment: env.record,
    runTests: true,
    signal: s.signal,
    onProgress: (m) => task.activity(m),
  }).catch((err: unknown) => {
    // The target's own tests cannot run: the reference drops the task at initialisation.
    if (err instanceof TargetDidNotRunError) throw new InitialisationFailure(err.message);
    throw err;
  });
  if (s.signal.aborted) throw new UserError('stopped');
  if (result.current?.run.kind !== 'ran') {
    throw new InitialisationFailure(`pytest did not run on the base: ${result.current?.run.reason ?? 'no report'}`);
  }
}

async function humanHistory(folder: TaskFolder, s: BatchSettings, env: TaskEnvironment, task: TaskProgress): Promise<void> {
  const record = await readTaskRecord(folder);
  if (!record) throw new UserError(`${folder.root} has no task record.`);
  await task.set('human-history');
  await replayHumanHistory({
    ...historyRequest(s.settings, env),
    task: folder,
    signal: s.signal,
    onEvent: (e) => {
      if (e.type === 'commit-started') task.activity(`human history: ${commitStartedName(e)}`);
    },
  });
}

async function loop(folder: TaskFolder, s: BatchSettings, env: TaskEnvironment, task: TaskProgress): Promise<TaskStatus> {
  const iterationsFile = folder.run(s.run).iterationsFile;
  const exists = !!(await readRunInfo(folder, s.run));
  await task.set('running', exists ? progressOf(await readIterationRecords(iterationsFile)) : {});
  const onEvent = (event: LoopEvent) => {
    task.emit({ type: 'loop-event', task: task.id, event });
    if (event.type === 'step-started') {
      task.activity(`iteration ${event.iteration} · ${event.step}${event.try > 1 ? ` (try ${event.try})` : ''}`);
    } else if (event.type === 'iteration-recorded') {
      // The state file follows the run line by line; its records stay the truth.
      task.follow(iterationsFile);
    }
  };
  // This task's budget and the experiment's, and a replay's recording of this task.
  const budgets = [await taskBudget(folder, s.run, s.cost?.maxCostPerTask), s.experimentBudget].filter((b) => b !== undefined);
  const replay = s.replayFrom ? await replaySourceFor(s.replayFrom, task.id, folder) : undefined;
  const request = loopRequest(s.settings, env, { secretEnv: s.secretEnv, budgets, ...(replay ? { replay } : {}) });
  const opts = { ...request, task: folder, run: s.run, signal: s.signal, onEvent, ...(s.traceParent ? { traceParent: s.traceParent } : {}) };
  const result = exists ? await runLoop(opts) : await startRun(opts);
  const progress = progressOf(await readIterationRecords(iterationsFile));
  if (result.reason === 'solved' || result.reason === 'max-iterations') return task.set(result.reason, progress);
  if (result.reason === 'cancelled') return task.set('cancelled', { ...progress, reason: 'stopped' });
  return task.set('failed', { ...progress, reason: `the loop stopped: ${result.reason}` });
}
