// The demo batch dataset through a real two-node Slurm cluster: `sweci slurm --submit
// --max-parallel 2` with the scripted agents gives exactly the scores `sweci run --workers 2`
// gives on the same dataset and agents, and `sweci slurm status` says every task finished.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
  stopAndCheckNothingLeft,
  assertAllFinished,
  assertLinesWhole,
  leftovers,
  slurmKit,
  submittedJob,
  waitForArray,
  withoutTimes,
  type SlurmKit,
} from './slurm-test-kit';

let kit: SlurmKit;

before(async () => {
  kit = await slurmKit();
});
after(() => kit?.dispose());

test('sweci slurm --submit --max-parallel 2 scores the demo dataset exactly as sweci run --workers 2 does', async () => {
  const { fixture } = kit;
  const viaSlurm = path.join(fixture.tmp, 'exp-slurm');
  // As long a name as the other: the scripted agents' token counts follow the prompt, which names the folder.
  const viaRun = path.join(fixture.tmp, 'exp-local');
  const submitted = kit.slurm(viaSlurm, '--submit', '--max-parallel', '2');
  assert.equal(submitted.code, 0, submitted.err + submitted.out);
  const job = submittedJob(submitted.out);
  // The reference beside it, while the cluster runs: the same dataset and agents, two workers.
  const reference = new Promise<{ code: number | null; err: string }>((resolve) => {
    const child = spawn(process.execPath, fixture.runArgs(viaRun, '--workers', '2'), { cwd: fixture.tmp, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, err }));
  });
  await waitForArray(kit, viaSlurm, job, 600);
  const run = await reference;
  assert.equal(run.code, 0, run.err);

  const tasks = fixture.demo.tasks.map((t) => t.taskId);
  const status = assertAllFinished(kit, viaSlurm, tasks);
  assert.deepEqual(new Set(status.tasks.map((t) => t.slurm?.element.split('_')[0])), new Set([job]));
  await assertLinesWhole(fixture, viaSlurm, tasks);

  const summaries = [viaSlurm, viaRun].map((experiment) => {
    const r = kit.sweci('summarize', experiment, '--format', 'json');
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out) as { experiment: string };
    assert.equal(summary.experiment, experiment);
    return withoutTimes({ ...summary, experiment: undefined });
  });
  assert.deepEqual(summaries[0], summaries[1]);
  assert.ok(JSON.stringify(summaries[0]).length > 50, 'the summary holds scores');
  assert.deepEqual(leftovers(kit, fixture.tmp), []);
  await stopAndCheckNothingLeft(kit);
});
