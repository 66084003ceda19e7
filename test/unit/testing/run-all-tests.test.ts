// The plan of `npm test` (test/run-all-tests.ts): every job's prerequisites exist, the unit tier's
// lanes are each run once, the solo lane starts only once every other job has ended, and the two
// tiers that drive a VS Code never overlap; SWECI_TEST_SERIAL's plan is one chain in the same order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JOBS, schedule } from '../../run-all-tests';

/** Every job `name` waits for, directly or not. */
function before(jobs: ReturnType<typeof schedule>, name: string): Set<string> {
  const seen = new Set<string>();
  const visit = (n: string) => {
    for (const dep of jobs.find((j) => j.name === n)?.after ?? []) {
      if (!seen.has(dep)) {
        seen.add(dep);
        visit(dep);
      }
    }
  };
  visit(name);
  return seen;
}

describe('the npm test plan', () => {
  const jobs = schedule(JOBS, false);

  test('every prerequisite is a job, and none waits on itself', () => {
    const names = new Set(jobs.map((j) => j.name));
    assert.equal(names.size, jobs.length);
    for (const job of jobs) {
      for (const dep of job.after) assert.ok(names.has(dep), `${job.name} waits for ${dep}, which is no job`);
      assert.equal(before(jobs, job.name).has(job.name), false, `${job.name} waits on itself`);
    }
  });

  test("the unit tier's three lanes run once each, and the solo lane after every other job", () => {
    const lanes = jobs.flatMap((j) => (j.env?.SWECI_UNIT_LANES ?? '').split(',').filter(Boolean));
    assert.deepEqual([...lanes].sort(), ['pool', 'serial', 'solo']);
    const solo = jobs.find((j) => j.env?.SWECI_UNIT_LANES === 'solo')!;
    assert.deepEqual(
      [...before(jobs, solo.name)].sort(),
      jobs
        .filter((j) => j !== solo)
        .map((j) => j.name)
        .sort(),
    );
  });

  test('integration and e2e never overlap: e2e waits for integration', () => {
    assert.ok(before(jobs, 'e2e').has('integration'));
  });

  test('serial: one chain in the plan order', () => {
    const chain = schedule(JOBS, true);
    assert.deepEqual(
      chain.map((j) => j.after),
      chain.map((_, i) => (i === 0 ? [] : [chain[i - 1].name])),
    );
    assert.deepEqual(
      chain.map((j) => j.name),
      JOBS.map((j) => j.name),
    );
  });
});
