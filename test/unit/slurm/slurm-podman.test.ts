// `sweci slurm --runtime podman` on a real two-node Slurm cluster (issue 48). Each element runs
// its task's pytest in the task's image under a Podman service of its own, on a store of this
// file's own that starts empty: the elements and the reference run beside them load the image
// into it at the same time (one loads, the others wait for the store's load lock and find it).
// The array scores exactly as `sweci run --runtime podman --workers 2` does. An element cancelled
// mid-task (scancel signals every process of the job, the Podman service too) leaves no
// container, and `--only-unfinished` then finishes it with nothing lost or doubled.
// Three iterations a task (--max-iterations): the containers and the fault are what is tested
// here; the demo task's full ten would only take longer.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { RUN } from '../cli/batch-fixture';
import { demoImageArchive } from '../../../scripts/demo-image';
import { isAlive, processesUnder } from '../runtime/process-helpers';
import {
  assertAllFinished,
  assertLinesWhole,
  elementLogs,
  gate,
  leftovers,
  readIfThere,
  sleep,
  slurmKit,
  submittedJob,
  waitForArray,
  waitUntil,
  withoutTimes,
  type SlurmKit,
} from './slurm-test-kit';
import { emptyPodmanStore } from '../helpers/podman-store';

let kit: SlurmKit;
let root: string;
let runroot: string;
let stopped = false;

const ITERATIONS = ['--max-iterations', '3'];
const podmanFlags = (): string[] => ['--runtime', 'podman', '--podman-root', root, '--podman-runroot', runroot];

/** `podman` on this file's store. */
function podman(...args: string[]): string {
  const r = spawnSync('podman', ['--root', root, '--runroot', runroot, '--storage-driver', 'overlay', ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, `podman ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Every container in the store (it is this file's alone): id, state and role. */
function containers(): string[] {
  return podman('ps', '-a', '--format', '{{.ID}} {{.State}} {{index .Labels "dev.swe-ci.role"}}').trim().split('\n').filter(Boolean);
}

/**
 * Podman's housekeeping of an exec session whose container is gone, which is nothing an element
 * left running: its monitor (conmon with --exec-attach) outlives the container by its exit delay
 * (300 s by default), holding nothing; the cleanup it runs when the container goes (`podman
 * container cleanup --exec <session> <container>`) ends by itself, and is waited for (60 s at
 * most: one that stays is returned, and fails the check). Everything else under `list` is
 * returned at once.
 */
async function besidesExecHousekeeping(list: () => string[]): Promise<string[]> {
  for (let waited = 0; ; waited += 500) {
    const present = new Set(podman('ps', '-a', '-q', '--no-trunc').split('\n').filter(Boolean));
    const gone = (re: RegExp, p: string): boolean => {
      const m = re.exec(p);
      return m !== null && !present.has(m[1]);
    };
    const left = list().filter((p) => !gone(/\/conmon .*-c ([0-9a-f]{64}) .*--exec-attach/, p));
    const cleaning = left.filter((p) => gone(/\/podman .* container cleanup .*--exec [0-9a-f]{64} ([0-9a-f]{64})/, p));
    if (cleaning.length === 0 || waited >= 60_000) return left;
    await sleep(500);
  }
}

/** No daemon, element, agent or container process left: the kit's check, less Podman's exec housekeeping (above). */
async function stopAndCheck(): Promise<void> {
  stopped = true;
  const daemons = Object.values(kit.cluster.pids());
  await kit.cluster.stop();
  for (const pid of daemons) assert.ok(!isAlive(pid), `daemon ${pid} has exited`);
  assert.deepEqual(await besidesExecHousekeeping(() => processesUnder(kit.fixture.tmp)), []);
}

before(async () => {
  kit = await slurmKit({ imageArchive: demoImageArchive() });
  // Short: Podman's run folder holds sockets (paths under 108 characters).
  root = path.join(kit.fixture.tmp, 'podman');
  runroot = path.join(kit.fixture.tmp, 'pr');
});

after(async () => {
  try {
    if (kit && !stopped) await stopAndCheck();
  } finally {
    // The exec monitors the check lets pass, the store, then the store's folders (with the fixture's).
    if (kit) await emptyPodmanStore({ root, runroot }, kit.fixture.tmp);
  }
  await kit?.dispose();
});

test('sweci slurm --runtime podman --submit scores the demo dataset exactly as sweci run --runtime podman --workers 2 does', async () => {
  const { fixture } = kit;
  const viaSlurm = path.join(fixture.tmp, 'exp-slurm');
  // As long a name as the other: the scripted agents' token counts follow the prompt, which names the folder.
  const viaRun = path.join(fixture.tmp, 'exp-local');
  const submitted = kit.slurm(viaSlurm, ...podmanFlags(), ...ITERATIONS, '--submit', '--max-parallel', '2');
  assert.equal(submitted.code, 0, submitted.err + submitted.out);
  const job = submittedJob(submitted.out);
  const reference = new Promise<{ code: number | null; err: string }>((resolve) => {
    const child = spawn(process.execPath, fixture.runArgs(viaRun, ...podmanFlags(), ...ITERATIONS, '--workers', '2'), {
      cwd: fixture.tmp,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, err }));
  });
  await waitForArray(kit, viaSlurm, job, 900);
  const run = await reference;
  assert.equal(run.code, 0, run.err);

  const tasks = fixture.demo.tasks.map((t) => t.taskId);
  assertAllFinished(kit, viaSlurm, tasks);
  await assertLinesWhole(fixture, viaSlurm, tasks);
  for (const task of tasks) {
    const record = JSON.parse(await fs.readFile(path.join(viaSlurm, task, '.sweci', 'environment.json'), 'utf8')) as { runtime: string };
    assert.equal(record.runtime, 'podman', `${task} ran in Podman`);
  }
  const summaries = [viaSlurm, viaRun].map((experiment) => {
    const r = kit.sweci('summarize', experiment, '--format', 'json');
    assert.equal(r.code, 0, r.err);
    return withoutTimes({ ...(JSON.parse(r.out) as object), experiment: undefined });
  });
  assert.deepEqual(summaries[0], summaries[1]);
  assert.ok(JSON.stringify(summaries[0]).length > 50, 'the summary holds scores');
  // Loaded once into the store, labelled as SWE-CI's, and every container gone with its element.
  assert.equal(podman('images', '-q', '--filter', 'label=dev.swe-ci.loaded-from').trim().split('\n').filter(Boolean).length, 1);
  assert.deepEqual(containers(), []);
  assert.deepEqual(await besidesExecHousekeeping(() => leftovers(kit, fixture.tmp)), []);
});

test('a cancelled element leaves no container (its Podman service is signalled with it); --only-unfinished then loses nothing', async () => {
  const experiment = path.join(kit.fixture.tmp, 'exp-cancel');
  const task = kit.fixture.demo.tasks[0].taskId;
  const held = await gate(kit, 'gate-podman');
  const submit = (...more: string[]): string => {
    const r = kit.slurm(experiment, '--config', held.config, ...podmanFlags(), ...ITERATIONS, '--tasks', task, '--submit', ...more);
    assert.equal(r.code, 0, r.err + r.out);
    return submittedJob(r.out);
  };
  const job = submit();
  const lines = path.join(experiment, task, '.sweci', 'runs', RUN, 'iteration.jsonl');
  await waitUntil(kit, experiment, `${task} is held after a recorded step`, () => held.holds(task), 600);
  assert.ok(readIfThere(lines).split('\n').filter(Boolean).length >= 2, 'a completed step was recorded before the cancel');
  // The element holds containers now (its image's hold, a started spare): what the cancel must not leave.
  assert.ok(containers().length > 0, 'the element has containers in the store');
  kit.command('scancel', [`${job}_0`]);
  await waitForArray(kit, experiment, job, 300);
  assert.deepEqual(containers(), [], `the cancelled element removed its containers; element logs:\n${await elementLogs(experiment)}`);
  assert.deepEqual(await besidesExecHousekeeping(() => leftovers(kit, kit.fixture.tmp)), []);

  await held.open();
  const again = submit('--only-unfinished');
  await waitForArray(kit, experiment, again, 600);
  assertAllFinished(kit, experiment, [task]);
  await assertLinesWhole(kit.fixture, experiment, [task]);
  assert.deepEqual(containers(), []);
  await stopAndCheck();
});
