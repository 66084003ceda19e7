// The node side of the chart: reads a task's runs (iteration.jsonl, run.json) and builds the JSON
// the webview draws. The per-test heatmap, which reads the archived reports and the oracle's, is
// load-heatmap.ts: the experiment readers score runs through this module and load none of that.
import { promises as fs } from 'node:fs';
import type { IterationRecord } from '../loop/iteration-record';
import { DEFAULT_MAX_ITERATIONS, listRunsWithRecords, listRunsWithRecordsSync, readRunSummary, type RunInfo, type RunWithRecords } from '../loop/run-store';
import { normalizedChange, type Baseline } from '../../shared/metrics/normalized-change';
import { averageRow, referencePassed, summarize } from '../../shared/metrics/reference-summary';
import { lineUsage, runMetricsOf } from '../../shared/metrics/run-metrics';
import { lineFlags, runFlags } from '../../shared/metrics/run-flags';
import { scoredLines, type ScoringRules } from '../../shared/metrics/scored-line';
import { errorMessage } from '../util/errors';
import type { ChartData, ChartPoint, ChartRun, ChartRunKind } from '../../shared/chart-types';
import type { TaskFolder } from '../workspace/task-folder';

export * from '../../shared/chart-types';

export interface ChartDataOptions {
  /** γ for the metrics rows; default 1. */
  gamma?: number;
  /** N instead of the one derived from the runs. */
  maxIterations?: number;
  /** How flagged lines are scored (sweci.integrity.keepFlagged, excludeHarnessTampering, scoreTargetTestsOnly). */
  scoring?: ScoringRules;
}

/** Every run of the task as chart series, with its comparison row. */
export async function loadChartData(task: TaskFolder, opts: ChartDataOptions = {}): Promise<ChartData> {
  return (await loadChartRuns(task, opts)).data;
}

/** A task's runs as the chart draws them, with each run's lines as scored and its run.json, by run. */
export interface ChartRuns {
  data: ChartData;
  lines: Map<string, IterationRecord[]>;
  infos: Map<string, RunInfo>;
}

/** loadChartData, with each run's lines as scored, by run (for a reader that needs more of them than the chart shows). */
export async function loadChartRuns(task: TaskFolder, opts: ChartDataOptions = {}): Promise<ChartRuns> {
  const skipped: ChartData['skipped'] = [];
  // The lines as listing the runs read them (each iteration.jsonl is read once).
  const listing = await listRunsWithRecords(task);
  // The listing leaves out a run it cannot read (a corrupt iteration.jsonl, say): say which and why.
  const listed = new Set(listing.map((r) => r.summary.info.name));
  for (const name of (await fs.readdir(task.runsDir).catch(() => [] as string[])).sort()) {
    if (listed.has(name)) continue;
    await readRunSummary(task, name).catch((err) => skipped.push({ run: name, reason: errorMessage(err) }));
  }
  return chartRunsOf(listing, skipped, opts);
}

/** loadChartRuns, synchronously: for a reader of every run of thousands of tasks (the Inspect export), where a promise per small file costs more than the read. */
export function loadChartRunsSync(task: TaskFolder, opts: ChartDataOptions = {}): ChartRuns {
  const { runs, unreadable } = listRunsWithRecordsSync(task);
  return chartRunsOf(runs, unreadable, opts);
}

/** The runs listed (and those that could not be read) scored as the chart scores them. */
function chartRunsOf(listing: readonly RunWithRecords[], unreadable: ChartData['skipped'], opts: ChartDataOptions): ChartRuns {
  const gamma = opts.gamma ?? 1;
  const loaded: Array<{ info: RunInfo; records: IterationRecord[]; pending: boolean }> = [];
  const skipped: ChartData['skipped'] = [...unreadable];
  for (const { summary, records: lines } of listing) {
    try {
      const records = scoredLines(lines, opts.scoring);
      loaded.push({ info: summary.info, records, pending: summary.pending !== undefined });
    } catch (err) {
      // One run that cannot be scored must not hide the other runs.
      skipped.push({ run: summary.info.name, reason: errorMessage(err) });
    }
  }
  const maxIterations = opts.maxIterations ?? scoredIterations(loaded);
  const runs = loaded.map(({ info, records, pending }) => chartRun(info, records, pending, maxIterations, gamma, opts.scoring));
  const maxX = Math.max(maxIterations, ...runs.flatMap((r) => r.points.map((p) => p.iteration)));
  const data: ChartData = {
    maxIterations,
    maxX,
    gamma,
    runs,
    average: averageRow(loaded.map(({ records }) => summarize(records, maxIterations))),
    skipped,
  };
  return {
    data,
    lines: new Map(loaded.map(({ info, records }) => [info.name, records])),
    infos: new Map(loaded.map(({ info }) => [info.name, info])),
  };
}

/** N: the largest loop maxIterations; a human-history run counts with its replayed commits. */
export function scoredIterations(runs: ReadonlyArray<{ info: RunInfo; records: readonly IterationRecord[] }>): number {
  return scoredIterationsOf(runs.map(({ info, records }) => ({ info, lines: records.length })));
}

/** scoredIterations from each run's number of lines. */
export function scoredIterationsOf(runs: ReadonlyArray<{ info: RunInfo; lines: number }>): number {
  const ns = runs.map(({ info, lines }) => (info.kind === 'human-history' ? lines - 1 : info.maxIterations));
  const n = Math.max(0, ...ns.filter((v) => Number.isInteger(v)));
  return n >= 1 ? n : DEFAULT_MAX_ITERATIONS;
}

export function runKind(info: RunInfo, records: readonly IterationRecord[]): ChartRunKind {
  if (info.kind === 'human-history') return 'human-history';
  const steps = records.flatMap((r) => [r.architect, r.programmer]).filter((s) => s !== undefined);
  if (steps.length > 0) return steps.every((s) => s.kind === 'human') ? 'human' : 'agent';
  return info.roles.architect.kind === 'human' && info.roles.programmer.kind === 'human' ? 'human' : 'agent';
}

function runLabel(info: RunInfo): string {
  const { architect, programmer } = info.roles;
  return architect.label === programmer.label ? architect.label : `architect: ${architect.label} · programmer: ${programmer.label}`;
}

export function chartPoint(r: IterationRecord, baseline: Baseline | undefined): ChartPoint {
  const crashed = r.gap < 0;
  const { tokensIn, tokensOut, timeSec } = lineUsage(r);
  const point: ChartPoint = {
    iteration: r.iteration,
    a: crashed || !baseline ? null : normalizedChange(referencePassed(r), baseline),
    passed: crashed ? null : (r.passed ?? null),
    targetPassed: r.target_passed,
    pytestPassed: crashed ? null : referencePassed(r),
    gap: r.gap,
    regressions: r.regressions?.length ?? 0,
    crashed,
    tokensIn,
    tokensOut,
    timeSec,
    commit: r.commit,
    finishedAt: r.finished_at,
  };
  if (crashed && r.pytest_error) point.pytestError = r.pytest_error;
  if (r.harness_tampering?.length) point.harnessTampering = r.harness_tampering;
  if (r.inflated?.length) point.inflated = r.inflated_count ?? r.inflated.length;
  const flags = lineFlags(r);
  if (flags.length) point.flags = flags;
  if (r.note) point.note = r.note;
  return point;
}

export function chartRun(info: RunInfo, records: IterationRecord[], pending: boolean, maxIterations: number, gamma: number, scoring?: ScoringRules): ChartRun {
  const { run, kind, label, created, runMaxIterations, baseline, ...rest } = scoredChartRun(info, records, pending, maxIterations, gamma, scoring);
  // The chart's field order (every JSON output's): the points after the baseline.
  return { run, kind, label, created, runMaxIterations, baseline, points: records.map((r) => chartPoint(r, baseline ?? undefined)), ...rest };
}

/** chartRun without its points (the experiment readers count lines, they never draw them), summarised once. */
export function scoredChartRun(
  info: RunInfo,
  records: IterationRecord[],
  pending: boolean,
  maxIterations: number,
  gamma: number,
  scoring?: ScoringRules,
): Omit<ChartRun, 'points'> {
  const summary = summarize(records, maxIterations);
  const baseline = summary ? { init: summary.init, target: summary.target } : undefined;
  return {
    run: info.name,
    kind: runKind(info, records),
    label: runLabel(info),
    created: info.created,
    runMaxIterations: info.maxIterations,
    baseline: baseline ?? null,
    evoA: summary ? summary.a : [],
    metrics: runMetricsOf(records, { maxIterations, gamma, ...(scoring ? { scoring } : {}) }, summary),
    pending,
    flags: runFlags(records),
  };
}
