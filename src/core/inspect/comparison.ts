// Two iterations side by side, possibly of different runs (an agent's #5 against the developers'
// #5): their scores, and the scored tests on which they differ.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readIterationRecords, type IterationRecord } from '../loop/iteration-record';
import { ARCHIVE } from '../loop/run-store';
import { baselineOf, normalizedChange } from '../../shared/metrics/normalized-change';
import { passedIds } from '../pytest/test-report';
import { UserError } from '../util/errors';
import { reportOf, stepIteration, targetReport } from './iteration-details';
import { revisionLabel, type Revision } from './revisions';
import type { TaskFolder } from '../workspace/task-folder';

export interface ComparedSide {
  run: string;
  iteration: number;
  label: string;
  record: IterationRecord;
  change?: number;
  /** The run's iterations in order, for stepping both sides together. */
  iterations: number[];
  /** Whether the iteration archived a requirement.xml (the base and a replay of the developers' commits have none). */
  hasRequirement: boolean;
}

export interface Comparison {
  left: ComparedSide;
  right: ComparedSide;
  /** Scored tests the left side passes and the right side does not. */
  onlyLeft: string[];
  /** Scored tests the right side passes and the left side does not. */
  onlyRight: string[];
  /** False when either pytest run did not run (or its report is gone): no per-test difference. */
  testsCompared: boolean;
}

type Ref = Pick<Revision, 'run' | 'iteration'>;

async function side(task: TaskFolder, ref: Ref): Promise<ComparedSide> {
  const records = await readIterationRecords(task.run(ref.run).iterationsFile);
  const record = records.find((r) => r.iteration === ref.iteration);
  if (!record) throw new UserError(`Run ${ref.run} has no iteration ${ref.iteration}.`);
  const baseline = records[0] && baselineOf(records[0]);
  const change = baseline && record.gap >= 0 ? normalizedChange(record.pytest.passed ?? 0, baseline) : undefined;
  const hasRequirement = await fs
    .access(path.join(task.run(ref.run).iterationDir(ref.iteration), ARCHIVE.requirement))
    .then(() => true)
    .catch(() => false);
  return {
    run: ref.run,
    iteration: ref.iteration,
    label: revisionLabel(ref.run, ref.iteration),
    record,
    change,
    iterations: records.map((r) => r.iteration),
    hasRequirement,
  };
}

/** Where Previous (−1) or Next (+1) takes the comparison, or why it cannot move. */
export function comparisonStep(c: Pick<Comparison, 'left' | 'right'>, direction: 1 | -1): { left: Ref; right: Ref } | string {
  return stepPair({ iterations: c.left.iterations, at: c.left }, { iterations: c.right.iterations, at: c.right }, direction);
}

export async function loadComparison(task: TaskFolder, left: Ref, right: Ref): Promise<Comparison> {
  const [l, r] = await Promise.all([side(task, left), side(task, right)]);
  const [target, lr, rr] = await Promise.all([targetReport(task), reportOf(task, l.run, l.record), reportOf(task, r.run, r.record)]);
  if (!target || !lr || !rr) return { left: l, right: r, onlyLeft: [], onlyRight: [], testsCompared: false };
  const scored = [...passedIds(target)].sort();
  const pl = passedIds(lr);
  const pr = passedIds(rr);
  return {
    left: l,
    right: r,
    onlyLeft: scored.filter((id) => pl.has(id) && !pr.has(id)),
    onlyRight: scored.filter((id) => pr.has(id) && !pl.has(id)),
    testsCompared: true,
  };
}

/**
 * Both sides of a comparison one iteration along their runs, together, so an aligned comparison
 * (the developers' #5 against the agent's #5) stays aligned. Returns why it cannot move when
 * either side is at its run's end.
 */
export function stepPair(
  left: { iterations: readonly number[]; at: Ref },
  right: { iterations: readonly number[]; at: Ref },
  direction: 1 | -1,
): { left: Ref; right: Ref } | string {
  const l = stepIteration(left.iterations, left.at.iteration, direction);
  const r = stepIteration(right.iterations, right.at.iteration, direction);
  const end = direction > 0 ? 'last' : 'first';
  if (l === undefined) return `${revisionLabel(left.at.run, left.at.iteration)} is its run's ${end} iteration: the comparison cannot move both sides.`;
  if (r === undefined) return `${revisionLabel(right.at.run, right.at.iteration)} is its run's ${end} iteration: the comparison cannot move both sides.`;
  return { left: { run: left.at.run, iteration: l }, right: { run: right.at.run, iteration: r } };
}

/** The iteration numbers a run has recorded, in order. */
export async function runIterations(task: TaskFolder, run: string): Promise<number[]> {
  return (await readIterationRecords(task.run(run).iterationsFile)).map((r) => r.iteration);
}
