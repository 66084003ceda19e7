// A row of a sequence's results matrix: after task i, how each task j ≤ i does on the code task i
// ended with (the share of its tests that pass, or whether it is resolved). Task i's own entry comes from its last pytest run; an earlier task's
// test files are put onto a scratch copy of that code (never into the task folder) and run there.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { instanceResolution, instanceSuccessRate } from '../checkout/instance-target';
import { pytestSelection } from '../checkout/pytest-targets';
import { loadReport } from '../checkout/report-store';
import type { PytestSettings } from '../pytest/pytest-settings';
import type { TestReport } from '../pytest/test-report';
import type { MatrixCells } from './sequence-settings';
import { machineSeedStore } from '../pytest/bytecode-seed';
import { runPytest } from '../pytest/run-pytest';
import type { Runtime } from '../runtime/runtime';
import { pytestConfinement } from '../runtime/task-confinement';
import type { SweBenchInstance } from '../task/swe-bench-instance';
import { copyTree } from '../util/copy-tree';
import { AbortError } from '../util/errors';
import { type TaskRecord } from '../workspace/layout';
import { readTaskRecord, restoreTargetTests } from '../workspace/materialize';
import type { TaskFolder } from '../workspace/task-folder';

export interface RowOptions extends PytestSettings {
  /** Task folders in sequence order; only 0..i are read. */
  tasks: readonly TaskFolder[];
  runtime: Runtime;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** What an entry holds (default: the paper's fraction). */
  cells?: MatrixCells;
}

/** One entry: `report` graded against `instance` as the matrix holds it. */
function cellOf(report: TestReport, instance: SweBenchInstance, cells: MatrixCells = 'fraction'): number | null {
  return cells === 'resolved' ? (instanceResolution(report, instance).resolved ? 1 : 0) : instanceSuccessRate(report, instance);
}

/** Whether the task in `task` ended resolved (its last pytest run, graded as SWE-bench grades); null without a report. */
export async function endedResolved(task: TaskFolder): Promise<boolean | null> {
  const record = await readTaskRecord(task);
  const own = record && instanceOf(record);
  const current = own ? await loadReport(task.current.report) : undefined;
  return own && current ? instanceResolution(current, own).resolved : null;
}

const instanceOf = (record: TaskRecord): SweBenchInstance | undefined => (record.task.source.kind === 'swe-bench' ? record.task.source.instance : undefined);

export async function evaluateRow(i: number, o: RowOptions): Promise<Array<number | null>> {
  const row: Array<number | null> = o.tasks.map(() => null);
  const task = o.tasks[i];
  const record = await readTaskRecord(task);
  const own = record && instanceOf(record);
  if (!record || !own) return row;
  const current = await loadReport(task.current.report);
  if (current) row[i] = cellOf(current, own, o.cells);
  for (let j = 0; j < i; j++) {
    const earlier = await readTaskRecord(o.tasks[j]);
    const instance = earlier && instanceOf(earlier);
    if (!earlier || !instance) continue;
    o.onProgress?.(`re-running ${earlier.task.id}'s tests on ${record.task.id}'s code`);
    row[j] = await resolvedOn(task, record, earlier, instance, o);
  }
  return row;
}

/** `earlier`'s entry on the code of the task in `task`; null when pytest did not run. */
async function resolvedOn(task: TaskFolder, record: TaskRecord, earlier: TaskRecord, instance: SweBenchInstance, o: RowOptions): Promise<number | null> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-cl-'));
  try {
    const code = path.join(scratch, 'code');
    await copyTree(task.codeDir, code, { filter: (rel) => rel !== '.git' });
    await restoreTargetTests(earlier, task, code);
    const selection = await pytestSelection(earlier.testPaths, code);
    const outcome = await runPytest(o.runtime, {
      python: o.python,
      codeDir: code,
      reportFile: path.join(scratch, 'out', 'report'),
      bytecodeSeedDir: machineSeedStore(),
      timeoutMs: o.timeoutMs,
      format: o.format,
      env: o.env,
      confine: pytestConfinement(task, record, o.network),
      signal: o.signal,
      ...selection,
    });
    if (outcome.kind === 'did-not-run') {
      if (outcome.cancelled) throw new AbortError();
      return null;
    }
    return cellOf(outcome.report, instance, o.cells);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
