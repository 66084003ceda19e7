// Previous/Next on a comparison move both sides together, so an aligned pair stays aligned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepPair } from '../../../src/core/inspect/comparison';

/** The reason a step was refused (fails when it moved). */
function refused(r: ReturnType<typeof stepPair>): string {
  if (typeof r !== 'string') assert.fail(`it moved to ${JSON.stringify(r)}`);
  return r;
}

const history = { iterations: [0, 1, 2, 3], at: { run: 'human-history', iteration: 2 } };
const agent = { iterations: [0, 1, 2], at: { run: 'agent-1', iteration: 1 } };

test('both sides move one iteration, each along its own run', () => {
  assert.deepEqual(stepPair(history, agent, 1), { left: { run: 'human-history', iteration: 3 }, right: { run: 'agent-1', iteration: 2 } });
  assert.deepEqual(stepPair(history, agent, -1), { left: { run: 'human-history', iteration: 1 }, right: { run: 'agent-1', iteration: 0 } });
});

test('a side at its run’s end stops both, and says which', () => {
  const atEnd = { ...agent, at: { run: 'agent-1', iteration: 2 } };
  assert.match(refused(stepPair(history, atEnd, 1)), /^agent-1 #2 is its run's last iteration/);
  const atStart = { ...history, at: { run: 'human-history', iteration: 0 } };
  assert.match(refused(stepPair(atStart, agent, -1)), /^human-history base is its run's first iteration/);
});

test('iterations with gaps (a discarded one) are stepped over, not invented', () => {
  const gappy = { iterations: [0, 1, 3], at: { run: 'r', iteration: 1 } };
  assert.deepEqual(stepPair(gappy, agent, 1), { left: { run: 'r', iteration: 3 }, right: { run: 'agent-1', iteration: 2 } });
});
