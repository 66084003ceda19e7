// Everything the iteration view shows about one iteration of a run, read from the run's files:
// its scores, the tests it newly passed and newly regressed, its requirement.xml next to the one
// before it, what each role did, and the files it archived. Pure reading: no writes.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadReport } from '../checkout/report-store';
import { classify, type NonPassedEntry } from '../gap/non-passed';
import type { IterationRecord, RoleStepRecord } from '../loop/iteration-record';
import { ARCHIVE, type RunInfo } from '../loop/run-store';
import { baselineOf, normalizedChange } from '../../shared/metrics/normalized-change';
import { passedIds, type TestReport } from '../pytest/test-report';
import { oracleLayout } from '../workspace/layout';
import { readTaskRecord } from '../workspace/task-record';
import { reportRows, type IterationReport } from './report-rows';
import { runRevisions } from './revisions';
import { rolesWithEventLogs, triesIn } from './transcript-tries';
import type { TaskFolder } from '../workspace/task-folder';

export interface ArchivedFile {
  label: string;
  file: string;
  /** The test report: the view shows it as a table (its raw JSON stays a click away). */
  report?: true;
}

export interface RoleStepDetails {
  role: 'architect' | 'programmer';
  step: RoleStepRecord;
}

export interface IterationDetails {
  run: string;
  runKind: RunInfo['kind'];
  iteration: number;
  /** The run's iterations in order, for stepping. */
  iterations: number[];
  record: IterationRecord;
  /** a(c) against the run's line 0; undefined when either pytest run did not run. */
  change?: number;
  /** Scored tests passing now that did not at the last iteration before whose pytest ran. */
  newlyPassing: string[];
  /** Scored tests that passed at the last iteration before whose pytest ran and do not now. */
  newlyRegressed: string[];
  /** The iteration's requirement.xml archive, and the previous iteration's (for a diff). */
  requirement?: { file: string; text: string; previousFile?: string; previousIteration?: number; changed: boolean };
  steps: RoleStepDetails[];
  /** Logs, prompts, report and pytest output archived with the iteration. */
  files: ArchivedFile[];
  /** Whether the iteration has code changes to show (it is not the base). */
  hasCodeChanges: boolean;
  /** The agent tries whose model calls were recorded: each has a transcript. */
  transcripts: { role: 'architect' | 'programmer'; try: number }[];
}

async function readText(file: string): Promise<string | undefined> {
  return fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
}

export async function reportOf(task: TaskFolder, run: string, r: IterationRecord): Promise<TestReport | undefined> {
  if (r.gap < 0) return undefined;
  return loadReport(path.join(task.run(run).iterationDir(r.iteration), ARCHIVE.report)).catch(() => undefined);
}

/** The target's report, from the task's oracle; undefined when it is missing. */
export async function targetReport(task: TaskFolder): Promise<TestReport | undefined> {
  const record = await readTaskRecord(task);
  return record ? loadReport(oracleLayout(record.oracleDir).targetReportFile).catch(() => undefined) : undefined;
}

export async function loadIterationDetails(task: TaskFolder, run: string, iteration: number): Promise<IterationDetails> {
  const { info, records } = await runRevisions(task, run);
  const i = records.findIndex((r) => r.iteration === iteration);
  if (i < 0) throw new Error(`Run ${run} has no iteration ${iteration}.`);
  const record = records[i];
  const layout = task.run(run);
  const dir = layout.iterationDir(iteration);

  const baseline = baselineOf(records[0]);
  const change = baseline && record.gap >= 0 ? normalizedChange(record.pytest.passed ?? 0, baseline) : undefined;

  // The comparison point is the last earlier iteration whose pytest ran, as for regressions.
  let newlyPassing: string[] = [];
  const earlier = records
    .slice(0, i)
    .reverse()
    .find((r) => r.gap >= 0);
  const target = await targetReport(task);
  const now = await reportOf(task, run, record);
  if (target && now && earlier) {
    const before = await reportOf(task, run, earlier);
    const passedBefore = before ? passedIds(before) : new Set<string>();
    const passedNow = passedIds(now);
    newlyPassing = [...passedIds(target)].filter((id) => passedNow.has(id) && !passedBefore.has(id)).sort();
  }

  let requirement: IterationDetails['requirement'];
  const reqFile = path.join(dir, ARCHIVE.requirement);
  const reqText = await readText(reqFile);
  if (reqText !== undefined) {
    const prev = records
      .slice(0, i)
      .reverse()
      .find((r) => r.iteration > 0);
    const prevFile = prev && path.join(layout.iterationDir(prev.iteration), ARCHIVE.requirement);
    const prevText = prevFile ? await readText(prevFile) : undefined;
    requirement = {
      file: reqFile,
      text: reqText,
      previousFile: prevText === undefined ? undefined : prevFile,
      previousIteration: prevText === undefined ? undefined : prev?.iteration,
      changed: prevText !== reqText,
    };
  }

  const steps: RoleStepDetails[] = [];
  if (record.architect) steps.push({ role: 'architect', step: record.architect });
  if (record.programmer) steps.push({ role: 'programmer', step: record.programmer });

  const files: ArchivedFile[] = [];
  const names = (await fs.readdir(dir).catch(() => [] as string[])).sort();
  const add = (name: string, label: string, extra: Partial<ArchivedFile> = {}) => {
    if (names.includes(name)) files.push({ label, file: path.join(dir, name), ...extra });
  };
  for (const n of names.filter((n) => n.endsWith('.prompt.md'))) add(n, n.replace('.prompt.md', ' prompt'));
  for (const n of names.filter((n) => n.endsWith('.log'))) add(n, n.replace(/\.log$/, '').replace('-try-', ' log, try '));
  add(ARCHIVE.pytestOutput, 'pytest output');
  add(ARCHIVE.report, 'test report', { report: true });
  add(ARCHIVE.summary, 'summary.jsonl');

  return {
    run,
    runKind: info.kind,
    iteration,
    iterations: records.map((r) => r.iteration),
    record,
    change,
    newlyPassing,
    newlyRegressed: [...record.regressions].sort(),
    requirement,
    steps,
    files,
    hasCodeChanges: i > 0,
    transcripts: triesIn(names, rolesWithEventLogs(info)),
  };
}

/** The iteration's test report as rows, failures first; why not, when pytest did not run or its report is gone. */
export async function loadIterationReport(task: TaskFolder, d: Pick<IterationDetails, 'run' | 'record'>): Promise<IterationReport> {
  const file = path.join(task.run(d.run).iterationDir(d.record.iteration), ARCHIVE.report);
  const raw = await fs
    .access(file)
    .then(() => true)
    .catch(() => false);
  if (d.record.gap < 0) return { file, raw, missing: `pytest did not run at this iteration${d.record.pytest_error ? `: ${d.record.pytest_error}` : ''}.` };
  // A damaged report (an unisolated run's records are only as safe as its code) is named, not thrown.
  const report = await loadReport(file).catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
  if (typeof report === 'string') return { file, raw, missing: `Its report cannot be read: ${report}` };
  if (!report) return { file, raw, missing: 'This iteration archived no test report.' };
  return { file, raw, rows: reportRows(report) };
}

/** The iteration after (+1) or before (−1) `iteration` in `iterations`; undefined at either end. */
export function stepIteration(iterations: readonly number[], iteration: number, direction: 1 | -1): number | undefined {
  const i = iterations.indexOf(iteration);
  if (i < 0) return undefined;
  return iterations[i + direction];
}

export interface IterationNonPassed {
  entries: NonPassedEntry[];
  counts: { passedNow: number; passedByTarget: number; gap: number };
}

/**
 * The non-passed tests as they were at an iteration, from its archived report, classified as the
 * current code's are. Undefined when pytest did not run there or the report is gone.
 */
export async function iterationNonPassed(task: TaskFolder, run: string, iteration: number): Promise<IterationNonPassed | undefined> {
  const { records } = await runRevisions(task, run);
  const record = records.find((r) => r.iteration === iteration);
  const [target, report] = await Promise.all([targetReport(task), record ? reportOf(task, run, record) : undefined]);
  if (!target || !report) return undefined;
  const entries = classify(report, target);
  const scored = passedIds(target);
  return { entries, counts: { passedNow: scored.size - entries.length, passedByTarget: scored.size, gap: entries.length } };
}
