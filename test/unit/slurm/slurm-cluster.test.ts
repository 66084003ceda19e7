// The real two-node Slurm cluster the Slurm tests run on (test/harness/slurm-cluster.ts over
// scripts/slurm-cluster.sh): a job array runs one element per node, user namespaces work inside
// a job (bubblewrap needs them), a killed node takes its job with it, and stop leaves no daemon.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSlurmCluster, type SlurmCluster } from '../../harness/slurm-cluster';
import { isAlive, processesUnder } from '../runtime/process-helpers';

let cluster: SlurmCluster;
let dir: string;
let work: string;

const slurm = (command: string, args: string[]) => execFileSync(command, args, { env: { ...process.env, ...cluster.env }, encoding: 'utf8' });

async function waitFor(what: string, ok: () => boolean, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}\nsqueue:\n${slurm('squeue', [])}\nsinfo -N:\n${slurm('sinfo', ['-N'])}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

before(async () => {
  // Short: munge's socket path (under the folder) must stay under 108 characters.
  dir = mkdtempSync(path.join('/tmp', 'sweci-slurm-'));
  work = path.join(dir, 'work');
  execFileSync('mkdir', ['-p', work]);
  cluster = await startSlurmCluster(path.join(dir, 'cluster'));
});

after(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('both nodes answer idle, each with its own slurmd, under a munged of the cluster', () => {
  assert.deepEqual(cluster.nodes, ['n1', 'n2']);
  assert.equal(cluster.env.SLURM_CONF, cluster.conf);
  const states = slurm('sinfo', ['-N', '-h', '-o', '%N %t']).trim().split('\n').sort();
  assert.deepEqual(states, ['n1 idle', 'n2 idle']);
  const pids = cluster.pids();
  assert.deepEqual(Object.keys(pids).sort(), ['munged', 'slurmctld', 'slurmd-n1', 'slurmd-n2']);
  for (const pid of Object.values(pids)) assert.ok(isAlive(pid), `pid ${pid} runs`);
});

test('a job array runs one element per node, and user namespaces work inside a job', async () => {
  // Each element holds its node's one CPU for a moment, so the other runs on the other node.
  const script = [
    `echo "$SLURM_ARRAY_TASK_ID $SLURMD_NODENAME" > ${work}/element-$SLURM_ARRAY_TASK_ID`,
    `if unshare -U -r true; then echo ok; else echo failed; fi > ${work}/unshare-$SLURM_ARRAY_TASK_ID`,
    'sleep 2',
  ].join('; ');
  const jobId = slurm('sbatch', ['--parsable', '--array=0-1', `--output=${work}/log-%a.txt`, '--wrap', script]).trim();
  assert.match(jobId, /^\d+$/);
  await waitFor('the array has ended (squeue -h empty)', () => slurm('squeue', ['-h']).trim() === '', 60);
  const ran = [0, 1].map((i) =>
    readFileSync(path.join(work, `element-${i}`), 'utf8')
      .trim()
      .split(' '),
  );
  assert.deepEqual(
    ran.map(([index]) => index),
    ['0', '1'],
  );
  assert.deepEqual(ran.map(([, node]) => node).sort(), ['n1', 'n2']);
  for (const i of [0, 1]) assert.equal(readFileSync(path.join(work, `unshare-${i}`), 'utf8').trim(), 'ok');
});

test('killNode kills that node slurmd and the job running there, and restart brings the node back', async () => {
  const pidFile = path.join(work, 'job.pid');
  const jobId = slurm('sbatch', ['--parsable', '-w', 'n1', `--output=${work}/held.txt`, '--wrap', `echo $$ > ${pidFile}; exec sleep 300`]).trim();
  await waitFor('the job runs on n1', () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 30);
  const jobPid = Number(readFileSync(pidFile, 'utf8').trim());
  const slurmd = cluster.pids()['slurmd-n1'];
  assert.ok(isAlive(jobPid) && isAlive(slurmd));
  await cluster.killNode('n1');
  assert.ok(!isAlive(slurmd), 'slurmd of n1 is gone');
  assert.ok(!isAlive(jobPid), 'the job that ran on n1 is gone with it');
  assert.ok(isAlive(cluster.pids()['slurmd-n2']), 'n2 still runs');
  await cluster.restart();
  const restarted = cluster.pids()['slurmd-n1'];
  assert.notEqual(restarted, slurmd);
  assert.ok(isAlive(restarted));
  slurm('scancel', [jobId]);
  await waitFor('the job is cancelled', () => slurm('squeue', ['-h']).trim() === '', 30);
});

test('stop cancels the jobs and leaves no daemon or job process it started', async () => {
  slurm('sbatch', ['--parsable', '--array=0-1', `--output=${work}/long-%a.txt`, '--wrap', 'exec sleep 300']);
  await waitFor('both elements run', () => slurm('squeue', ['-h', '-t', 'R']).trim().split('\n').filter(Boolean).length === 2, 60);
  const pids = Object.values(cluster.pids());
  assert.equal(pids.length, 4);
  await cluster.stop();
  for (const pid of pids) assert.ok(!isAlive(pid), `pid ${pid} has exited`);
  assert.deepEqual(processesUnder(dir), []);
  assert.deepEqual(cluster.pids(), {});
});
