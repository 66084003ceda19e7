// The pod `sweci k8s` writes, as a cluster runs it: the container's exact command and args from
// the generated Job (with $(JOB_COMPLETION_INDEX) substituted as the kubelet does), in a container
// of the real Docker engine, on the demo dataset, with a hostile scripted Architect. With the
// engine's default security options the sandbox cannot start, and the run must refuse rather
// than put the agent beside the oracle unconfined; with the options the Job's securityContext
// maps to, the agent is confined and reads neither the oracle nor the records.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { k8sJobManifest } from '../../../src/core/k8s/k8s-manifest';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';
import { buildImage } from '../helpers/build-image';
import { fixturesDir, repoRoot } from '../helpers/repo-root';

const POD_IMAGE = 'sweci/pod-test:test';
const DATASET = '/data/dataset';
const EXPERIMENT = '/data/experiment';
const RUN = 'pod';

/** The Job's container securityContext, as `docker run` options (the pod's command on this Docker engine). */
const SANDBOX_DOCKER_OPTIONS = [
  '--security-opt',
  'seccomp=unconfined',
  '--security-opt',
  'apparmor=unconfined',
  '--security-opt',
  'systempaths=unconfined',
] as const;

/** Peeks at what no agent may see, then plays the scripted Architect (so the iteration goes on). */
const HOSTILE_ARCHITECT = [
  'import os, runpy',
  'def peek(p):',
  '    try:',
  '        if os.path.isdir(p): return "dir %s" % sorted(os.listdir(p))',
  '        return "file %d bytes" % len(open(p, "rb").read())',
  '    except OSError as e:',
  '        return "unreadable %d" % e.errno',
  `for p in ['../.sweci/task.json', '../.sweci/runs/${RUN}/iteration.jsonl', '../.sweci/history.git', '${EXPERIMENT}/oracles', '${DATASET}']:`,
  '    print("peek", p, peek(p), flush=True)',
  "runpy.run_path('/agents/architect.py', run_name='__main__')",
].join('\n');

let conn: DockerConnection;
let tmp: string;
let demo: DemoDataset;

/** The pod's container: command and args, as the generated Job has them. */
function podCommand(): { cmd: string[]; securityContext: unknown; hostUsers: unknown } {
  const manifest = k8sJobManifest({
    name: 'sweci-pod-test',
    image: POD_IMAGE,
    taskCount: 1,
    parallelism: 1,
    datasetPath: DATASET,
    experimentPath: EXPERIMENT,
    runArgs: ['--config', '/cfg/settings.json', '--run', RUN, '--max-iterations', '1'],
    memoryMb: 0,
    cpus: 0,
    results: { kind: 'volume', claimName: 'results', experimentSubPath: 'exp', datasetSubPath: 'ds' },
  }) as { spec: { template: { spec: { hostUsers: unknown; containers: { command: string[]; args: string[]; securityContext: unknown }[] } } } };
  const pod = manifest.spec.template.spec;
  const [c] = pod.containers;
  // The kubelet's $(VAR) expansion, for the one variable the Job sets.
  const args = c.args.map((a) => a.replace('$(JOB_COMPLETION_INDEX)', '0'));
  return { cmd: [...c.command, ...args], securityContext: c.securityContext, hostUsers: pod.hostUsers };
}

async function runPod(experimentDir: string, securityOpt: readonly string[]): Promise<{ code: number; output: string }> {
  // `docker run --security-opt` as the engine's API takes it: systempaths=unconfined is no masked
  // and no read-only /proc paths (what the docker CLI sends for it).
  const options: string[] = [];
  let unmasked = false;
  for (let i = 0; i < securityOpt.length; i += 2) {
    if (securityOpt[i + 1] === 'systempaths=unconfined') unmasked = true;
    else options.push(securityOpt[i + 1]);
  }
  const container = await conn.docker.createContainer({
    Image: POD_IMAGE,
    Cmd: podCommand().cmd,
    Env: ['JOB_COMPLETION_INDEX=0'],
    HostConfig: {
      Binds: [`${demo.datasetDir}:${DATASET}:ro`, `${experimentDir}:${EXPERIMENT}`, `${path.join(tmp, 'cfg')}:/cfg:ro`],
      SecurityOpt: options,
      ...(unmasked ? { MaskedPaths: [], ReadonlyPaths: [] } : {}),
    },
  });
  try {
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    const logs = await container.logs({ stdout: true, stderr: true });
    // The multiplexed stream's 8-byte frame headers, dropped.
    let output = '';
    for (let at = 0; at + 8 <= logs.length;) {
      const size = logs.readUInt32BE(at + 4);
      output += logs.subarray(at + 8, at + 8 + size).toString('utf8');
      at += 8 + size;
    }
    return { code: StatusCode, output };
  } finally {
    await container.remove({ force: true });
  }
}

describe('a Kubernetes pod of sweci k8s, run in a container of the real engine', () => {
  before(async () => {
    conn = await dockerForTests();
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-pod-')));
    demo = await demoDatasetFixture(path.join(tmp, 'dataset'));
    await fs.mkdir(path.join(tmp, 'cfg'));
    await fs.writeFile(path.join(tmp, 'cfg', 'hostile-architect.py'), HOSTILE_ARCHITECT);
    await fs.writeFile(
      path.join(tmp, 'cfg', 'settings.json'),
      JSON.stringify({
        'sweci.architect.agent': 'custom',
        'sweci.architect.customCommand': 'python3 /cfg/hostile-architect.py',
        'sweci.programmer.agent': 'custom',
        'sweci.programmer.customCommand': 'python3 /agents/edit.py',
        'sweci.sandboxReadablePaths': ['/agents'],
      }),
    );
    // The pod's image: the task's image with sweci (this machine's node and the built CLI) and the scripted agents.
    const dockerfile = [
      `FROM ${DEMO_IMAGE}`,
      'COPY node /usr/local/bin/node',
      'COPY dist /opt/sweci/dist',
      'COPY agents /agents',
      `RUN printf '#!/bin/sh\\nexec /usr/local/bin/node /opt/sweci/dist/cli.js "$@"\\n' > /usr/local/bin/sweci && chmod 755 /usr/local/bin/sweci`,
      '',
    ].join('\n');
    await buildImage(conn, POD_IMAGE, dockerfile, { node: process.execPath, dist: path.join(repoRoot, 'dist'), agents: path.join(fixturesDir, 'agents') });
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the Job asks for what the sandbox needs', () => {
    const { securityContext, hostUsers } = podCommand();
    assert.equal(hostUsers, false);
    assert.deepEqual(securityContext, { seccompProfile: { type: 'Unconfined' }, appArmorProfile: { type: 'Unconfined' }, procMount: 'Unmasked' });
  });

  test("with the engine's default security options the pod refuses to start: exit non-zero, nothing recorded, the cause named", async () => {
    const experiment = path.join(tmp, 'refused');
    await fs.mkdir(experiment);
    const r = await runPod(experiment, []);
    assert.notEqual(r.code, 0, r.output);
    assert.match(
      r.output,
      /Refusing to run: bubblewrap cannot make its namespaces here \(.+\), so the agents would run unconfined\. In a container or a Kubernetes pod, allow user namespaces/,
    );
    assert.deepEqual(await fs.readdir(experiment), [], 'nothing recorded');
  });

  test("with the options the Job's securityContext maps to, the agent is confined: isolation sandbox, no oracle, no records", async () => {
    const experiment = path.join(tmp, 'confined');
    await fs.mkdir(experiment);
    const r = await runPod(experiment, SANDBOX_DOCKER_OPTIONS);
    assert.equal(r.code, 0, r.output);
    const task = demo.tasks[0].taskId;
    const lines = (await fs.readFile(path.join(experiment, task, '.sweci', 'runs', RUN, 'iteration.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { iteration: number; isolation?: string });
    assert.deepEqual(
      lines.map((l) => l.iteration),
      [0, 1],
    );
    assert.equal(lines[1].isolation, 'sandbox');
    const log = await fs.readFile(path.join(experiment, task, '.sweci', 'runs', RUN, 'iter-001', 'architect-try-1.log'), 'utf8');
    const peeks = log.split('\n').filter((l) => l.startsWith('peek '));
    assert.equal(peeks.length, 5, log);
    for (const p of peeks) assert.match(p, / unreadable 2$/, `${p}: not there for the agent`);
  });
});
