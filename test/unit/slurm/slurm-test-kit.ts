// What the Slurm end-to-end tests share: the demo batch dataset (test/unit/cli/batch-fixture.ts)
// beside a real two-node cluster, `sweci slurm` and the Slurm commands with the cluster's
// environment (elements inherit the submitter's), waiting for an array to end with the element
// logs at hand when it does not, and the checks every case ends with.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { batchFixture, cli, RUN, type BatchFixture } from '../cli/batch-fixture';
import { isAlive, processesUnder } from '../runtime/process-helpers';
import { startSlurmCluster, type SlurmCluster } from '../../harness/slurm-cluster';

export interface SlurmKit {
  fixture: BatchFixture;
  cluster: SlurmCluster;
  env: NodeJS.ProcessEnv;
  /** `sweci <args>` in the fixture's folder with the cluster's environment. */
  sweci: (...args: string[]) => { code: number | null; out: string; err: string };
  /** `sweci slurm` with the scripted agents' run flags (as fixture.runArgs gives `sweci run`), into `experiment`. */
  slurm: (experiment: string, ...more: string[]) => { code: number | null; out: string; err: string };
  /** A Slurm command (squeue, scontrol, scancel …) against the cluster. */
  command: (name: string, args: string[]) => string;
  dispose: () => Promise<void>;
}

export async function slurmKit(opts: { imageArchive?: string } = {}): Promise<SlurmKit> {
  const fixture = await batchFixture(opts);
  // Short: munge's socket path lives under it and must stay under 108 characters.
  const cluster = await startSlurmCluster(path.join(fixture.tmp, 'c'));
  const env = { ...process.env, ...cluster.env };
  const sweci: SlurmKit['sweci'] = (...args) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: fixture.tmp, env });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  return {
    fixture,
    cluster,
    env,
    sweci,
    slurm: (experiment, ...more) => sweci('slurm', ...fixture.runArgs(experiment).slice(2), ...more),
    command: (name, args) => execFileSync(name, args, { env, encoding: 'utf8' }),
    dispose: async () => {
      await cluster.stop();
      await fixture.dispose();
    },
  };
}

/** The job id `sweci slurm --submit` printed. */
export function submittedJob(out: string): string {
  const id = /^submitted job (\d+):/m.exec(out)?.[1];
  assert.ok(id, `a job id in: ${out}`);
  return id;
}

/** Every element log of the experiment's arrays, for a failure's message. */
export async function elementLogs(experiment: string): Promise<string> {
  const logs = path.join(experiment, 'slurm', 'logs');
  const names = await fs.readdir(logs).catch(() => [] as string[]);
  const texts = await Promise.all(names.sort().map(async (n) => `--- ${n}\n${await fs.readFile(path.join(logs, n), 'utf8')}`));
  return texts.join('\n');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `ok` every half second; past `seconds`, throws with `what`, squeue and the element logs. */
export async function waitUntil(kit: SlurmKit, experiment: string, what: string, ok: () => boolean, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ok()) {
    if (Date.now() > deadline) {
      const queue = kit.command('squeue', ['-h', '-o', '%i %T %N %r']);
      throw new Error(`not within ${seconds} s: ${what}\nsqueue:\n${queue}\nelement logs:\n${await elementLogs(experiment)}`);
    }
    await sleep(500);
  }
}

/** Waits until Slurm holds nothing of the array `job` (`squeue -h -j` empty). */
export function waitForArray(kit: SlurmKit, experiment: string, job: string, seconds: number): Promise<void> {
  return waitUntil(kit, experiment, `array ${job} has ended`, () => kit.command('squeue', ['-h', '-j', job]).trim() === '', seconds);
}

interface StatusJson {
  tasks: { task: string; state: string; finished: boolean; slurm?: { element: string; state?: string; node?: string; restarts?: number } }[];
  resubmit?: string;
  live: number;
}

export function slurmStatusJson(kit: SlurmKit, experiment: string): StatusJson {
  const r = kit.sweci('slurm', 'status', experiment, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as StatusJson;
}

/** `sweci slurm status --json` says every one of `tasks` finished, and nothing is left to resubmit. */
export function assertAllFinished(kit: SlurmKit, experiment: string, tasks: readonly string[]): StatusJson {
  const status = slurmStatusJson(kit, experiment);
  assert.deepEqual(
    status.tasks.map((t) => [t.task, t.finished]),
    [...tasks].sort().map((t) => [t, true]),
    JSON.stringify(status, null, 1),
  );
  assert.equal(status.resubmit, undefined);
  return status;
}

/** Each task's iteration.jsonl holds iterations 0..N, each exactly once, in order: nothing lost, nothing doubled. */
export async function assertLinesWhole(fixture: BatchFixture, experiment: string, tasks: readonly string[]): Promise<void> {
  for (const task of tasks) {
    const iterations = (await fixture.lines(experiment, task)).map((l) => l.iteration);
    assert.ok(iterations.length > 0, `${task} has lines`);
    assert.deepEqual(
      iterations,
      iterations.map((_, i) => i),
      `${task}: ${RUN}'s iteration.jsonl holds each iteration once`,
    );
  }
}

const parentOf = (pid: string) => /^\d+ \(.*\) \S+ (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? '';

/** Processes under `folder` other than the cluster's daemons (and slurmctld's own helper, slurmscriptd): what an ended array must not leave. */
export function leftovers(kit: SlurmKit, folder: string): string[] {
  const daemons = new Set(Object.values(kit.cluster.pids()).map(String));
  return processesUnder(folder).filter((p) => {
    const pid = p.split(' ')[0];
    try {
      return !daemons.has(pid) && !(daemons.has(parentOf(pid)) && p.includes('slurmscriptd'));
    } catch {
      return false; // ended while we looked
    }
  });
}

/** Stops the cluster and checks that nothing under the fixture's folder runs any more: no daemon, no element, no agent. */
export async function stopAndCheckNothingLeft(kit: SlurmKit): Promise<void> {
  const daemons = Object.values(kit.cluster.pids());
  await kit.cluster.stop();
  for (const pid of daemons) assert.ok(!isAlive(pid), `daemon ${pid} has exited`);
  assert.deepEqual(processesUnder(kit.fixture.tmp), []);
}

export function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export interface Gate {
  /** A settings file: the fixture's, with the Programmer behind the gate. */
  config: string;
  /** Whether `task`'s Programmer is held at its second step (so its first step is recorded). */
  holds: (task: string) => boolean;
  /** Opens the gate for every task, now and later. */
  open: () => Promise<void>;
}

/**
 * The scripted Programmer behind a gate the test opens: each task's first step runs, its second
 * waits (after saying so in a file naming its folder) until the test writes the release file.
 * Calls are counted per working folder, so each task is held on its own.
 */
export async function gate(kit: SlurmKit, name: string): Promise<Gate> {
  const dir = path.join(kit.fixture.tmp, name);
  await fs.mkdir(dir, { recursive: true });
  const release = path.join(dir, 'release');
  const settings = JSON.parse(await fs.readFile(kit.fixture.config, 'utf8')) as Record<string, unknown>;
  const programmer = String(settings['sweci.programmer.customCommand']);
  const script = path.join(dir, 'gated.py');
  await fs.writeFile(
    script,
    [
      'import hashlib, os, shlex, sys, time',
      `gate, release = ${JSON.stringify(dir)}, ${JSON.stringify(release)}`,
      'key = hashlib.sha1(os.getcwd().encode()).hexdigest()[:16]',
      "calls = os.path.join(gate, 'calls-' + key)",
      "with open(calls, 'a') as f:",
      "    f.write('call\\n')",
      "if open(calls).read().count('call') > 1 and not os.path.exists(release):",
      "    with open(os.path.join(gate, 'held-' + key), 'w') as f:",
      '        f.write(os.getcwd())',
      '    while not os.path.exists(release):',
      '        time.sleep(0.2)',
      `command = shlex.split(${JSON.stringify(programmer)})`,
      'os.execvp(command[0], command + sys.argv[1:])',
      '',
    ].join('\n'),
  );
  settings['sweci.programmer.customCommand'] = `python3 ${JSON.stringify(script)}`;
  settings['sweci.sandboxReadablePaths'] = [...(settings['sweci.sandboxReadablePaths'] as string[]), dir];
  settings['sweci.sandboxWritablePaths'] = [...((settings['sweci.sandboxWritablePaths'] as string[] | undefined) ?? []), dir];
  const config = path.join(dir, 'settings.json');
  await fs.writeFile(config, JSON.stringify(settings));
  return {
    config,
    holds: (task) =>
      readdirSync(dir)
        .filter((n) => n.startsWith('held-'))
        .some((n) => readIfThere(path.join(dir, n)).split(path.sep).includes(task)),
    open: () => fs.writeFile(release, ''),
  };
}

/** A summary without what differs between two runs of the same agents: its clocks and durations. */
export function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (value && typeof value === 'object') {
    const kept = Object.entries(value).filter(([key]) => !/time|_at$|duration|seconds/i.test(key));
    return Object.fromEntries(kept.map(([key, v]) => [key, withoutTimes(v)]));
  }
  return value;
}
