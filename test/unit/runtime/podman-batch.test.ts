// The demo batch through `--runtime podman` scores exactly as through `--runtime docker` (issue 48):
// the same scripted agents, real pytest in the task's image (loaded from each task's
// image.tar.gz), `sweci summarize --format json` equal once the clocks are dropped. Once as root
// (rootful Podman, the steps run as the sandbox user) and once as a user with subordinate ids
// (rootless Podman), as a cluster user runs it. The batch's three windows of the history are run
// (2, 4 and 4 iterations), not the dataset's first task too: the windows together pass through
// every commit of the history the first task replays whole, and three tasks on two workers are a
// queue as four are; its ten more iterations in each of the three runs only made the file longer.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { writeScriptedSettings } from '../helpers/scripted-settings';
import { demoImageArchive, dockerForTests } from '../helpers/docker';
import { PODMAN_TEST_STORE, ROOTLESS_USER } from '../helpers/podman';
import { DEMO_BATCH_TASK_IDS, type DemoDataset } from '../../../scripts/demo-dataset';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');

/** The summary without what differs between two runs of the same agents: the folder and the clocks. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'experiment' && !/(Sec|Seconds|Ms|At|_time|time)$/.test(k))
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}

/** The tasks run: the batch's windows (see the header). */
const TASKS = DEMO_BATCH_TASK_IDS;
let tmp: string;
let demo: DemoDataset;
let config: string;

function sweci(args: string[], as?: { user: string; home: string }): { code: number | null; out: string; err: string } {
  const [command, argv] = as
    ? ['runuser', ['-u', as.user, '--', 'env', `HOME=${as.home}`, `XDG_CACHE_HOME=${as.home}/.cache`, 'XDG_RUNTIME_DIR=', process.execPath, cli, ...args]]
    : [process.execPath, [cli, ...args]];
  const r = spawnSync(command, argv, { encoding: 'utf8', cwd: tmp, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function run(experiment: string, more: string[], as?: { user: string; home: string }): unknown {
  const args = [
    'run',
    '--dataset',
    demo.datasetDir,
    '--experiment',
    experiment,
    '--run',
    'scripted',
    '--config',
    config,
    '--workers',
    '2',
    '--tasks',
    TASKS.join(','),
    ...more,
  ];
  const done = sweci(args, as);
  assert.equal(done.code, 0, `sweci run ${more.join(' ')} failed:\n${done.out}\n${done.err}`);
  assert.match(done.out, /finished: 3 solved/, done.out);
  const json = sweci(['summarize', experiment, '--format', 'json'], as);
  assert.equal(json.code, 0, json.err);
  return comparable(JSON.parse(json.out));
}

describe('the demo batch through Podman scores as through Docker (real engines)', () => {
  let docker: unknown;

  before(async () => {
    await dockerForTests();
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-podman-batch-')));
    demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { batch: true, imageArchive: demoImageArchive() });
    config = await writeScriptedSettings(demo, tmp);
    // Experiment folders of one length: the scripted agents' token counts follow their prompts, which name the folder.
    docker = run(path.join(tmp, 'exp-d'), ['--runtime', 'docker']);
  });

  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('as root: rootful Podman, summarize JSON equal to Docker’s', () => {
    const podman = run(path.join(tmp, 'exp-p'), [
      '--runtime',
      'podman',
      '--podman-root',
      PODMAN_TEST_STORE.root,
      '--podman-runroot',
      PODMAN_TEST_STORE.runroot,
    ]);
    assert.deepEqual(podman, docker);
    const record = JSON.parse(spawnSync('cat', [path.join(tmp, 'exp-p', TASKS[0], '.sweci', 'environment.json')], { encoding: 'utf8' }).stdout) as {
      runtime: string;
    };
    assert.equal(record.runtime, 'podman', 'the task records where it ran');
  });

  test(`as a user with subordinate ids (${ROOTLESS_USER}): rootless Podman, summarize JSON equal to Docker’s`, async () => {
    const who = spawnSync('id', ['-u', ROOTLESS_USER], { encoding: 'utf8' });
    assert.equal(who.status, 0, `no user ${ROOTLESS_USER}: run "bash scripts/setup.sh" (scripts/podman-setup.sh makes it)`);
    const home = spawnSync('sh', ['-c', `getent passwd ${ROOTLESS_USER} | cut -d: -f6`], { encoding: 'utf8' }).stdout.trim();
    // The user reads the dataset and the scripted agents' files, and writes its experiment and its own store.
    await fs.chmod(tmp, 0o755);
    const experiment = path.join(tmp, 'exp-u');
    const store = path.join(home, '.sweci-test-podman');
    await fs.mkdir(experiment);
    const uid = Number(who.stdout.trim());
    await fs.chown(experiment, uid, uid);
    const runroot = path.join(os.tmpdir(), `sweci-rl-${uid}`);
    await fs.mkdir(runroot, { recursive: true, mode: 0o700 });
    await fs.chown(runroot, uid, uid);
    // This machine has cgroup v1, where rootless Podman cannot hold limits: the run says so unless
    // they are set to 0 (podman-preflight.test.ts checks the refusal).
    const v1 = !(await fs.stat('/sys/fs/cgroup/cgroup.controllers').catch(() => undefined));
    const limits = v1 ? ['--max-memory-mb', '0', '--max-processes', '0'] : [];
    const podman = run(experiment, ['--runtime', 'podman', '--podman-root', path.join(store, 'root'), '--podman-runroot', runroot, ...limits], {
      user: ROOTLESS_USER,
      home,
    });
    assert.deepEqual(podman, docker);
    const st = await fs.stat(path.join(experiment, TASKS[0], 'app'));
    assert.equal(st.uid, uid, 'what the steps wrote is the user’s own');
  });
});
