// The chart's per-test heatmap of a run: every test the target passes (the oracle's target
// report) against each iteration's archived pytest report.
import * as path from 'node:path';
import { loadReport } from '../checkout/report-store';
import { readIterationRecords } from '../loop/iteration-record';
import { ARCHIVE, readRunInfo } from '../loop/run-store';
import { buildTransitionMatrix, encodeCells, regressedTests, type ReportTests } from '../../shared/metrics/transitions';
import { passedIds } from '../pytest/test-report';
import { UserError } from '../util/errors';
import { oracleLayout } from '../workspace/layout';
import { readTaskRecord } from '../workspace/task-record';
import type { HeatmapData } from '../../shared/chart-types';
import type { TaskFolder } from '../workspace/task-folder';

/**
 * The per-test heatmap of `run`: the status of every test the target passes (the oracle's
 * target report) in each iteration's archived report (iter-NNN/report.json; iter-000 = the
 * base). An iteration whose pytest did not run, or whose report is missing, is a column of
 * 'missing' with ran = false.
 */
export async function loadHeatmap(task: TaskFolder, run: string): Promise<HeatmapData> {
  const record = await readTaskRecord(task);
  if (!record) throw new UserError(`${task.root} is not a SWE-CI task folder (no .sweci/task.json).`);
  const targetFile = oracleLayout(record.oracleDir).targetReportFile;
  const target = await loadReport(targetFile);
  if (!target) throw new UserError(`The target's report is missing (${targetFile}). Check the task out again to rebuild its oracle.`);
  if (!(await readRunInfo(task, run))) throw new UserError(`There is no run "${run}" in ${task.root}.`);
  const layout = task.run(run);
  const records = await readIterationRecords(layout.iterationsFile);
  const columns: Array<{ iteration: number; report: ReportTests | undefined }> = [];
  for (const r of records) {
    const report = r.gap < 0 ? undefined : await loadReport(path.join(layout.iterationDir(r.iteration), ARCHIVE.report)).catch(() => undefined);
    columns.push({ iteration: r.iteration, report });
  }
  const matrix = buildTransitionMatrix(passedIds(target), columns);
  return {
    run,
    tests: matrix.tests,
    columns: matrix.columns,
    cells: encodeCells(matrix.cells),
    regressions: regressedTests(matrix),
  };
}
