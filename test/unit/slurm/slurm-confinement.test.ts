// Confinement in a Slurm element: where the compute node refuses bubblewrap's namespaces, `sweci
// run` refuses to start, naming the Slurm job and what the nodes need, as it refuses in a pod;
// --allow-unconfined runs anyway, marked not isolated. The node is real: sweci runs inside a
// bubblewrap sandbox made with --disable-userns, where no further user namespace can be made.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { findTrustedProgram } from '../../../src/core/util/trusted-program';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { missingSandbox } from '../helpers/require-sandbox';
import { writeScriptedSettings } from '../helpers/scripted-settings';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');

describe('sweci run in a Slurm element without user namespaces', () => {
  let tmp: string;
  let demo: DemoDataset;
  let config: string;
  const bwrap = findTrustedProgram('bwrap');

  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-slurm-confine-')));
    demo = await demoDatasetFixture(path.join(tmp, 'dataset'));
    config = await writeScriptedSettings(demo, tmp);
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  /** `sweci run` of one iteration on a node where user namespaces cannot be made, SLURM_JOB_ID as given. */
  const runOnNode = (experiment: string, env: NodeJS.ProcessEnv, ...more: string[]) => {
    const args = ['--unshare-user', '--disable-userns', '--dev-bind', '/', '/', '--', process.execPath, cli, 'run'];
    const run = [
      '--dataset',
      demo.datasetDir,
      '--experiment',
      experiment,
      '--run',
      'scripted',
      '--config',
      config,
      '--runtime',
      'local',
      '--max-iterations',
      '1',
    ];
    const r = spawnSync(bwrap!, [...args, ...run, ...more], { encoding: 'utf8', env });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  test('refuses to run the agents unconfined, naming the Slurm job and what the nodes need; --allow-unconfined runs, not isolated', async (t) => {
    if (!bwrap) return missingSandbox(t, 'bubblewrap is not installed, so no node without user namespaces can be made');
    const { SLURM_JOB_ID: _job, ...outside } = process.env;
    const experiment = path.join(tmp, 'exp');

    const refused = runOnNode(experiment, { ...outside, SLURM_JOB_ID: '4242' });
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(
      refused.err,
      /Refusing to run: bubblewrap cannot make its namespaces on this compute node \(in Slurm job 4242: .+\), so the agents would run unconfined\. The nodes must allow unprivileged user namespaces .*ask the cluster admins.*--allow-unconfined/,
    );
    assert.equal(await fs.stat(experiment).catch(() => undefined), undefined, 'nothing recorded, not even the experiment folder');

    // Outside Slurm the same node gets the container and pod advice instead.
    const elsewhere = runOnNode(experiment, outside);
    assert.equal(elsewhere.code, 1, elsewhere.out + elsewhere.err);
    assert.match(elsewhere.err, /Refusing to run: bubblewrap cannot make its namespaces here .*Kubernetes pod/);
    assert.doesNotMatch(elsewhere.err, /Slurm/);

    const allowed = runOnNode(experiment, { ...outside, SLURM_JOB_ID: '4242' }, '--allow-unconfined');
    assert.equal(allowed.code, 0, allowed.out + allowed.err);
    const jsonl = await fs.readFile(path.join(experiment, demo.taskId, '.sweci', 'runs', 'scripted', 'iteration.jsonl'), 'utf8');
    // Line 0 is the base's measurement; line 1 the first iteration the agents ran.
    const first = JSON.parse(jsonl.trim().split('\n')[1]) as { isolation: string };
    assert.equal(first.isolation, 'none');
  });
});
