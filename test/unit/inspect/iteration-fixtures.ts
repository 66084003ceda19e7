// An iteration as the iteration view gets it, for the tests of its pages: a loop run's #2 of 3,
// scored, with nothing else recorded unless a test says so.
import type { IterationDetails } from '../../../src/core/inspect/iteration-details';
import type { IterationRecord } from '../../../src/core/loop/iteration-record';

export function iterationRecord(over: Partial<IterationRecord> = {}): IterationRecord {
  return {
    gap: 3,
    pytest: { passed: 7 },
    iteration: 2,
    run: 'agent-1',
    started_at: '',
    finished_at: '',
    commit: 'abcdef1234567890',
    passed: 7,
    target_passed: 10,
    regressions: [],
    tampered: [],
    outside_changes: [],
    ...over,
  };
}

export function iterationDetails(over: Partial<IterationDetails> = {}): IterationDetails {
  return {
    run: 'agent-1',
    runKind: 'loop',
    iteration: 2,
    iterations: [0, 1, 2, 3],
    record: iterationRecord(),
    newlyPassing: [],
    newlyRegressed: [],
    steps: [],
    files: [],
    hasCodeChanges: true,
    transcripts: [],
    ...over,
  };
}
