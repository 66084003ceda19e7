// A task sequence (SWE-Bench-CL): its tasks run in order in one experiment folder, each from its
// own base commit, with the agents' memory folder carried from task to task when memory is on.
// After each task the earlier tasks' tests are re-run on its code to fill the results matrix.
// Running the same command again continues: finished rows are kept, the first unfinished task
// resumes. A task that fails (not "solved" or out of iterations) stops the sequence: the tasks
// after it would learn from a memory it never finished.
import * as path from 'node:path';
import type { BatchSettings } from '../batch/batch-types';
import { experimentLayout } from '../batch/experiment';
import { batchEmitter, runBatchTask } from '../batch/run-batch-task';
import { readTaskStatus } from '../batch/task-status';
import { FINISHED_STATES, type TaskStatus } from '../records/task-status-file';
import { readIterationRecords } from '../loop/iteration-record';
import { openTaskEnvironment } from '../runtime/task-environment';
import type { TaskSpec } from '../task/task-spec';
import { UserError } from '../util/errors';
import { readEnvironmentRecord } from '../workspace/environment-record';
import { acquireLock } from '../records/process-lock';
import { emptyClResults, readClResults, writeClResults, type ClResults } from './cl-results';
import { endedResolved, evaluateRow } from './evaluate-row';
import type { MatrixCells } from './sequence-settings';
import { carryMemoryIn, carryMemoryOut } from './memory-folder';
import type { TaskFolder } from '../workspace/task-folder';

export interface SequenceSettings extends BatchSettings {
  sequenceId: string;
  memory: boolean;
  /** What the results matrix holds (default: the paper's fraction). */
  cells?: MatrixCells;
}

export interface SequenceResult {
  statuses: Array<TaskStatus | undefined>;
  results: ClResults;
}

export async function runSequence(specs: readonly TaskSpec[], s: SequenceSettings): Promise<SequenceResult> {
  const layout = experimentLayout(s.experimentDir);
  const ids = specs.map((t) => t.id);
  const lock = await acquireLock(path.join(layout.statusDir, 'sequence.lock'), 'sweci run --sequence', s.sequenceId);
  const emit = batchEmitter(s);
  try {
    const cells = s.cells ?? 'fraction';
    let results = (await readClResults(s.experimentDir)) ?? emptyClResults(s.sequenceId, ids, s.memory, cells);
    if (results.sequence !== s.sequenceId || JSON.stringify(results.tasks) !== JSON.stringify(ids) || results.memory !== s.memory) {
      throw new UserError(
        `${layout.dir} holds the results of another sequence (${results.sequence}, ${results.tasks.length} tasks). Give another --experiment folder.`,
      );
    }
    if (results.cells !== cells) {
      throw new UserError(
        `${layout.dir}'s results matrix holds ${results.cells === 'resolved' ? 'resolved (1 or 0)' : 'success rates'}, not ${cells === 'resolved' ? 'resolved (1 or 0)' : 'success rates'}: continue it with --matrix ${results.cells} (sweci.sequence.matrix), or give another --experiment folder.`,
        { setting: 'sequence.matrix' },
      );
    }
    const statuses: Array<TaskStatus | undefined> = [];
    const tasks = ids.map((id) => layout.task(id));
    for (const [i, spec] of specs.entries()) {
      if (s.signal.aborted) break;
      if (results.matrix[i]) {
        statuses[i] = await readTaskStatus(s.experimentDir, spec.id);
        continue;
      }
      const status = await runBatchTask(spec, { ...s, beforeLoop: s.memory ? (dir) => carryMemoryIn(s.experimentDir, dir) : undefined });
      statuses[i] = status;
      if (s.signal.aborted || !FINISHED_STATES.includes(status.state)) break;
      if (s.memory && status.state !== 'init-failed') await carryMemoryOut(tasks[i], s.experimentDir);
      emit({ type: 'task-activity', task: spec.id, activity: "re-running the earlier tasks' tests" });
      const row = await measureRow(i, tasks, s, (m) => emit({ type: 'task-activity', task: spec.id, activity: m }));
      if (s.signal.aborted) break;
      const run = await runOf(tasks[i], s.run, row[i] === null ? null : await endedResolved(tasks[i]));
      results = {
        ...results,
        matrix: results.matrix.map((r, k) => (k === i ? row : r)),
        runs: results.runs.map((r, k) => (k === i ? run : r)),
      };
      await writeClResults(s.experimentDir, results);
    }
    return { statuses, results };
  } finally {
    await lock.release();
  }
}

async function measureRow(i: number, tasks: readonly TaskFolder[], s: SequenceSettings, onProgress: (m: string) => void): Promise<Array<number | null>> {
  const env = await openTaskEnvironment(
    s.settings.runtime,
    { recorded: await readEnvironmentRecord(tasks[i]) },
    { hostPython: s.settings.pytest.python, signal: s.signal },
  );
  try {
    return await evaluateRow(i, { ...s.settings.pytest, python: env.python, tasks, runtime: env.tests, signal: s.signal, onProgress, cells: s.cells });
  } finally {
    await env.dispose().catch(() => undefined);
  }
}

/** The time the task's iterations took (from its records) and whether it ended resolved. */
async function runOf(task: TaskFolder, run: string, resolved: boolean | null): Promise<ClResults['runs'][number]> {
  const records = await readIterationRecords(task.run(run).iterationsFile).catch(() => []);
  const seconds = records
    .filter((r) => r.iteration > 0)
    .reduce((sum, r) => sum + Math.max(0, (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000), 0);
  return resolved === null ? null : { seconds, resolved };
}
