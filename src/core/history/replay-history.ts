// The human developers' trajectory: each first-parent commit from
// base to target, with the target's tests put in, run like an iteration and recorded in the run
// `human-history` (one iteration.jsonl line per commit, iteration = its position, 0 = base).
// Everything happens in a scratch folder outside the workspace, from the oracle's upstream
// repository, so the agent's workspace never holds upstream code. Commits already recorded
// are skipped: a replay can be stopped and continued, or widened from N commits to all.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PytestSettings } from '../pytest/pytest-settings';
import { loadTargetReport } from '../checkout/run-current-tests';
import { loadReport, saveReport } from '../checkout/report-store';
import { acquireLock } from '../records/process-lock';
import { measuredFields, type MeasuredFields } from '../loop/measured-line';
import { appendIterationRecord, readIterationRecords, replaceIterationRecords, type IterationRecord } from '../loop/iteration-record';
import { HUMAN_HISTORY_RUN } from '../loop/run-name';
import { ARCHIVE, readRunInfo, writeRunInfo, type RunInfo, type RunLayout } from '../loop/run-store';
import { machineSeedStore } from '../pytest/bytecode-seed';
import { runPytest } from '../pytest/run-pytest';
import { passedIds, type TestReport } from '../pytest/test-report';
import type { Confinement, Runtime } from '../runtime/runtime';
import { pytestConfinement } from '../runtime/task-confinement';
import { copyTree } from '../util/copy-tree';
import { AbortError, UserError, isAbortError, throwIfAborted } from '../util/errors';
import { emptyFolder } from '../util/discard';
import { writeFileAtomic } from '../util/fs-atomic';
import { oracleLayout, rawReportFileIn } from '../workspace/layout';
import { readTaskRecord } from '../workspace/materialize';
import { isTestArtifact } from '../workspace/restore-tests';
import { exportTree, pruneTopLevel } from '../workspace/upstream';
import { DEFAULT_HISTORY_COMMITS } from '../loop/loop-settings';
import { regressedIds } from '../../shared/metrics/regressions';
import { listUpstreamCommits, selectPositions, type UpstreamCommit } from './upstream-commits';
import type { TaskFolder } from '../workspace/task-folder';

export interface ReplayHistoryOptions extends PytestSettings {
  task: TaskFolder;
  runtime: Runtime;
  /** Commits after the base to replay: N evenly spaced (default 20, always ending at the target), or 'all'. */
  count?: number | 'all';
  signal?: AbortSignal;
  onEvent?: (event: HistoryEvent) => void;
  /** Where the scratch folder is made; default the system's temp folder (never inside the task). */
  scratchParent?: string;
}

/**
 * A commit about to run. index/total count this call's work (cached commits are not in it);
 * commit/commits name it among the selection: 0 is the base, then developer commit 1 of commits.
 */
export interface CommitStarted {
  type: 'commit-started';
  position: number;
  sha: string;
  subject: string;
  index: number;
  total: number;
  commit: number;
  commits: number;
}

type HistoryEvent =
  | CommitStarted
  | { type: 'pytest-output'; position: number; chunk: string }
  | { type: 'commit-recorded'; record: IterationRecord }
  | { type: 'replay-finished'; ran: number; cached: number; records: IterationRecord[] };

export interface ReplayResult {
  run: typeof HUMAN_HISTORY_RUN;
  /** Every recorded line, by position (cached ones included). */
  records: IterationRecord[];
  /** Commits run by this call. */
  ran: number;
  /** Selected commits that were already recorded. */
  cached: number;
}

const UPSTREAM_AUTHORS = 'upstream developers';

export async function replayHumanHistory(opts: ReplayHistoryOptions): Promise<ReplayResult> {
  const emit = (e: HistoryEvent): void => {
    try {
      opts.onEvent?.(e);
    } catch {
      // A view's bug must not stop the replay.
    }
  };
  const record = await readTaskRecord(opts.task);
  if (!record) throw new UserError(`${opts.task.root} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
  if (record.task.source.kind === 'swe-bench') {
    throw new UserError(
      `${record.task.id} is a SWE-bench instance: it has no upstream commits between a base and a target to replay, so it has no human history; compare agent runs with each other instead.`,
    );
  }
  const oracle = oracleLayout(record.oracleDir);
  const target = await loadTargetReport(record);
  // The developers' code runs as the loop's code under test does: oracle and task state hidden,
  // a network of its own (sweci.pytest.network).
  const confine = pytestConfinement(opts.task, record, opts.network);
  const layout = opts.task.run(HUMAN_HISTORY_RUN);
  // Its own lock: a replay may run next to the loop (it never touches app/), not next to itself.
  await fs.mkdir(layout.dir, { recursive: true });
  const lock = await acquireLock(layout.lockFile, 'the human-history replay');
  let scratch: string | undefined;
  let recorded = new Map<string, IterationRecord>();
  let appended = 0;
  try {
    const commits = await listUpstreamCommits(oracle.upstreamDir, opts.signal);
    const count = opts.count === 'all' ? undefined : (opts.count ?? DEFAULT_HISTORY_COMMITS);
    const positions = selectPositions(commits.length, count);
    await ensureRunInfo(opts.task, commits);

    recorded = new Map((await readIterationRecords(layout.iterationsFile)).map((r) => [r.commit, r]));
    const todo = positions.filter((p) => !recorded.has(commits[p].sha));
    scratch = await fs.mkdtemp(path.join(opts.scratchParent ?? os.tmpdir(), 'sweci-history-'));
    let index = 0;
    for (const position of todo) {
      throwIfAborted(opts.signal);
      const commit = commits[position];
      emit({
        type: 'commit-started',
        position,
        sha: commit.sha,
        subject: commit.subject,
        index: index++,
        total: todo.length,
        commit: positions.indexOf(position),
        commits: positions.length - 1,
      });
      const line = await replayCommit(opts, confine, oracle.upstreamDir, oracle.targetTestsDir, target, commit, position, scratch, emit);
      await appendIterationRecord(layout.iterationsFile, line);
      recorded.set(line.commit, line);
      appended++;
      emit({ type: 'commit-recorded', record: line });
    }
    const records = await normalise(layout, [...recorded.values()], target);
    emit({ type: 'replay-finished', ran: todo.length, cached: positions.length - todo.length, records });
    return { run: HUMAN_HISTORY_RUN, records, ran: todo.length, cached: positions.length - todo.length };
  } catch (err) {
    // A stopped replay keeps the commits it recorded; they are put in position order with their
    // regressions counted, as a finished replay leaves them (a widened one appended them last).
    // Should that fail, the appended lines are whole still, and the next replay rebuilds them.
    if (appended > 0 && (opts.signal?.aborted || isAbortError(err))) await normalise(layout, [...recorded.values()], target).catch(() => undefined);
    // simple-git reports a kill by the signal as its own error; callers test for AbortError.
    if (opts.signal?.aborted && !isAbortError(err)) throw new AbortError();
    throw err;
  } finally {
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
    await lock.release();
  }
}

async function ensureRunInfo(task: TaskFolder, commits: UpstreamCommit[]): Promise<void> {
  if (await readRunInfo(task, HUMAN_HISTORY_RUN)) return;
  const human = { kind: 'human' as const, label: UPSTREAM_AUTHORS };
  const info: RunInfo = {
    schema: 1,
    name: HUMAN_HISTORY_RUN,
    created: new Date().toISOString(),
    kind: 'human-history',
    roles: { architect: human, programmer: human },
    maxIterations: commits.length - 1,
    // The upstream base commit: this run's commits are upstream shas, not app/code commits.
    baseCommit: commits[0].sha,
  };
  await writeRunInfo(task, info);
}

/** One commit: its tree without tests/ and test/, the target's tests/ in, pytest, one line. */
async function replayCommit(
  opts: ReplayHistoryOptions,
  confine: Confinement,
  upstreamDir: string,
  targetTestsDir: string,
  target: TestReport,
  commit: UpstreamCommit,
  position: number,
  scratch: string,
  emit: (e: HistoryEvent) => void,
): Promise<IterationRecord> {
  const started = new Date();
  const code = path.join(scratch, 'code');
  // Emptied, not replaced: a container started ahead for the next run sees this same folder.
  await emptyFolder(code);
  await exportTree(upstreamDir, commit.sha, code, opts.signal);
  // As the reference prepares the base: `.git*`, test/ and tests/ go, the target's tests come in.
  await pruneTopLevel(code, ['test', 'tests']);
  await copyTree(targetTestsDir, path.join(code, 'tests'), { filter: (rel) => !isTestArtifact(rel) });

  const outcome = await runPytest(opts.runtime, {
    python: opts.python,
    codeDir: code,
    reportFile: rawReportFileIn(scratch),
    bytecodeSeedDir: machineSeedStore(),
    timeoutMs: opts.timeoutMs,
    format: opts.format,
    env: opts.env,
    confine,
    signal: opts.signal,
    onOutput: (chunk) => emit({ type: 'pytest-output', position, chunk }),
  });
  if (outcome.kind === 'did-not-run' && outcome.cancelled) throw new AbortError();

  const archive = opts.task.run(HUMAN_HISTORY_RUN).iterationDir(position);
  await fs.mkdir(archive, { recursive: true });
  await writeFileAtomic(path.join(archive, ARCHIVE.pytestOutput), outcome.output);
  const human = { kind: 'human' as const, agent: commit.author || UPSTREAM_AUTHORS, tries: 1 };
  const base: Omit<IterationRecord, keyof MeasuredFields> = {
    architect: human,
    programmer: human,
    iteration: position,
    run: HUMAN_HISTORY_RUN,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    commit: commit.sha,
    regressions: [],
    tampered: [],
    outside_changes: [],
    pytest_time: Math.round(outcome.durationMs) / 1000,
    note: commit.subject,
  };
  if (outcome.kind === 'did-not-run') return { ...measuredFields(undefined, target), ...base, pytest_error: outcome.reason };
  await saveReport(path.join(archive, ARCHIVE.report), outcome.report);
  return { ...measuredFields(outcome.report, target), ...base };
}

/**
 * Lines by position, with regressions counted against the previous line whose pytest ran, by
 * the one definition (metrics/regressions.ts: only tests the target passes count). A widened
 * replay inserts lines between cached ones, so the file is rebuilt when that changes it.
 */
async function normalise(layout: RunLayout, lines: IterationRecord[], target: TestReport): Promise<IterationRecord[]> {
  const scored = passedIds(target);
  const sorted = [...lines].sort((a, b) => a.iteration - b.iteration);
  let previous: Set<string> | undefined;
  const out: IterationRecord[] = [];
  for (const line of sorted) {
    if (line.gap < 0) {
      out.push({ ...line, regressions: [] });
      continue;
    }
    const report = await loadReport(path.join(layout.iterationDir(line.iteration), ARCHIVE.report)).catch(() => undefined);
    const now = report ? passedIds(report) : undefined;
    const regressions = now && previous ? regressedIds(previous, now, scored) : line.regressions;
    out.push({ ...line, regressions });
    if (now) previous = now;
  }
  await replaceIterationRecords(layout.iterationsFile, out);
  return out;
}

/** How a person names the commit: the base, or developer commit k of N (the N the summary counts). */
export function commitStartedName(e: Pick<CommitStarted, 'commit' | 'commits'>): string {
  return e.commit === 0 ? 'the base commit' : `developer commit ${e.commit} of ${e.commits}`;
}
