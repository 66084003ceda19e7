// The fields of an iteration line that a pytest run measured against the target gives: gap,
// pytest's summary, passed and target_passed. One computation for every line — the base's when a
// run is created, an agent iteration's, a developer commit's in the human-history replay — so
// they cannot drift apart. No report (pytest did not run): gap −1, {} and null, as the reference
// records a crash.
import { nonPassedIds } from '../gap/non-passed';
import { passedIds, type TestReport } from '../pytest/test-report';
import type { IterationRecord } from './iteration-record';

export type MeasuredFields = Pick<IterationRecord, 'gap' | 'pytest' | 'passed' | 'target_passed'>;

export function measuredFields(report: TestReport | undefined, target: TestReport): MeasuredFields {
  const targetPassed = passedIds(target).size;
  if (!report) return { gap: -1, pytest: {}, passed: null, target_passed: targetPassed };
  const gap = nonPassedIds(report, target).length;
  return { gap, pytest: { ...report.summary }, passed: targetPassed - gap, target_passed: targetPassed };
}
