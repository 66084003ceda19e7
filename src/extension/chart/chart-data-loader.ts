// TEMPORARY node-side stand-in for loadChartData / loadHeatmap of src/core/chart-data (being
// built in another change): reads each run's iteration.jsonl and archived reports into the
// chart's data. Deleted when the core's loader lands.
import * as path from 'node:path';
import { loadReport } from '../../core/checkout/report-store';
import { readIterationRecords, type IterationRecord } from '../../core/loop/iteration-record';
import { iterDir, listRuns, runLayout, ARCHIVE, type RunSummary } from '../../core/loop/run-store';
import { baselineOf, normalizedChange } from '../../core/metrics/normalized-change';
import type { ChartData, ChartPoint, ChartSeries, Heatmap, RunKind, RunMetricsRow } from '../../shared/chart-data-adapter';

function kindOf(summary: RunSummary): RunKind {
  if (summary.info.kind === 'human-history') return 'human-history';
  return summary.info.roles.architect.kind === 'human' || summary.info.roles.programmer.kind === 'human' ? 'human' : 'agent';
}

function pointOf(r: IterationRecord, line0: IterationRecord): ChartPoint {
  const base = baselineOf(line0);
  const crashed = r.gap < 0;
  const passed = crashed ? null : (r.passed ?? r.target_passed - r.gap);
  return {
    iteration: r.iteration,
    a: crashed || !base || passed === null ? null : normalizedChange(r.pytest.passed ?? 0, base),
    passed,
    targetPassed: r.target_passed,
    gap: r.gap,
    regressions: r.regressions.length,
    crashed,
    tokensIn: (r.architect?.input_tokens ?? 0) + (r.programmer?.input_tokens ?? 0),
    tokensOut: (r.architect?.output_tokens ?? 0) + (r.programmer?.output_tokens ?? 0),
    timeSec: (r.architect?.execution_time ?? 0) + (r.programmer?.execution_time ?? 0) + (r.pytest_time ?? 0),
    commit: r.commit,
    ...(r.note ? { note: r.note } : {}),
  };
}

function metricsOf(s: ChartSeries): RunMetricsRow {
  const regressions = s.points.reduce((n, p) => n + p.regressions, 0);
  const last = s.points[s.points.length - 1];
  return {
    run: s.run,
    kind: s.kind,
    solved: s.points.some((p) => p.gap === 0),
    zeroRegression: regressions === 0,
    regressions,
    finalA: last ? last.a : null,
    iterations: Math.max(0, s.points.length - 1),
    tokensIn: s.points.reduce((n, p) => n + p.tokensIn, 0),
    tokensOut: s.points.reduce((n, p) => n + p.tokensOut, 0),
    timeSec: s.points.reduce((n, p) => n + p.timeSec, 0),
  };
}

export async function loadChartData(taskDir: string): Promise<ChartData> {
  const series: ChartSeries[] = [];
  for (const summary of await listRuns(taskDir)) {
    const records = await readIterationRecords(runLayout(taskDir, summary.info.name).iterationsFile);
    if (records.length === 0) continue;
    series.push({ run: summary.info.name, kind: kindOf(summary), points: records.map((r) => pointOf(r, records[0])) });
  }
  const metrics = series.map(metricsOf);
  return { series, metrics, maxIterations: Math.max(0, ...metrics.map((m) => m.iterations)) };
}

export async function loadHeatmap(taskDir: string, run: string): Promise<Heatmap> {
  const layout = runLayout(taskDir, run);
  const records = await readIterationRecords(layout.iterationsFile);
  const perIteration: Array<Map<string, string> | undefined> = [];
  const tests = new Set<string>();
  for (const r of records) {
    const report = await loadReport(path.join(iterDir(layout, r.iteration), ARCHIVE.report)).catch(() => undefined);
    if (!report) {
      perIteration.push(undefined);
      continue;
    }
    const m = new Map<string, string>();
    for (const t of report.tests) {
      m.set(t.nodeid, t.outcome === 'passed' || t.outcome === 'xpassed' ? 'p' : t.outcome === 'error' ? 'e' : 'f');
      tests.add(t.nodeid);
    }
    perIteration.push(m);
  }
  const ids = [...tests].sort();
  let cells = '';
  for (const id of ids) for (const m of perIteration) cells += m?.get(id) ?? 'm';
  return { run, tests: ids, iterations: records.map((r) => r.iteration), cells };
}
