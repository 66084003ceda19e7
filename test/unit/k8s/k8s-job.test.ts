// The Kubernetes Job for a benchmark run: the manifest passes the Job schema (kubernetes-models),
// says what it should, and its commands run as meant: the container's command and args, with
// Kubernetes' $(VAR) expansion applied, are run for real against a stub `sweci` that records its
// argv, under the real /bin/sh for the sync variant.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Job } from 'kubernetes-models/batch/v1/Job';
import type { K8sJobOptions } from '../../../src/core/k8s/k8s-job-options';
import { k8sJobName } from '../../../src/core/k8s/k8s-job-name';
import { k8sJobManifest } from '../../../src/core/k8s/k8s-manifest';
import { k8sReadme } from '../../../src/core/k8s/k8s-readme';
import { UserError } from '../../../src/core/util/errors';

// ---- fixtures ----

/** Words that break naive quoting: spaces, both quotes, $-expansions (shell's and Kubernetes'), globs. */
const AWKWARD = `it's a "test" $(whoami) $HOME $$ \\ * \`id\` ;|&`;
const AWKWARD_DATASET = `/data/my "odd" set's/ds $(JOB_COMPLETION_INDEX)`;

function options(overrides: Partial<K8sJobOptions> = {}): K8sJobOptions {
  return {
    name: 'sweci-demo',
    image: 'registry.example.com/sweci:1.0',
    taskCount: 3,
    parallelism: 8,
    datasetPath: '/data/dataset',
    experimentPath: '/data/experiment',
    runArgs: ['--agent', 'claude-code', '--max-iterations', '5'],
    memoryMb: 8192,
    cpus: 2,
    results: { kind: 'volume', claimName: 'sweci-results', experimentSubPath: 'experiments/demo', datasetSubPath: 'dataset' },
    ...overrides,
  };
}

const SYNC_COMMAND = 'printf \'%s\\n\' "$(echo synced)" >> "$SYNC_OUT"; exit "${SYNC_EXIT:-0}"';

function syncOptions(overrides: Partial<K8sJobOptions> = {}): K8sJobOptions {
  return options({ results: { kind: 'sync', command: SYNC_COMMAND }, secretName: 'sweci-keys', cpus: 0, ...overrides });
}

/** Throws (with the schema's message) when the object is not a valid Job. */
function validateJob(manifest: Record<string, unknown>): void {
  new Job(manifest).validate();
}

// ---- reading the manifest ----

interface Container {
  name: string;
  command: string[];
  args: string[];
  env: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  envFrom?: { secretRef: { name: string } }[];
  resources?: { limits: Record<string, string>; requests: Record<string, string> };
  volumeMounts: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
  securityContext?: Record<string, unknown>;
}
interface Volume {
  name: string;
  emptyDir?: object;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
}
interface PodSpec {
  restartPolicy: string;
  automountServiceAccountToken: boolean;
  hostUsers?: boolean;
  containers: Container[];
  volumes: Volume[];
}
interface JobShape {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels: Record<string, string> };
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    backoffLimit: number;
    backoffLimitPerIndex: number;
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

function shape(manifest: Record<string, unknown>): JobShape {
  return manifest as unknown as JobShape;
}
function podOf(manifest: Record<string, unknown>): PodSpec {
  return shape(manifest).spec.template.spec;
}
function containerOf(manifest: Record<string, unknown>): Container {
  const containers = podOf(manifest).containers;
  assert.equal(containers.length, 1);
  return containers[0];
}
function mountAt(manifest: Record<string, unknown>, mountPath: string): Container['volumeMounts'][number] {
  const mount = containerOf(manifest).volumeMounts.find((m) => m.mountPath === mountPath);
  assert.ok(mount, `a mount at ${mountPath}`);
  return mount;
}
function volumeNamed(manifest: Record<string, unknown>, name: string): Volume {
  const volume = podOf(manifest).volumes.find((v) => v.name === name);
  assert.ok(volume, `a volume ${name}`);
  return volume;
}

// ---- running the container's command for real ----

/** Kubernetes' expansion of command and args: `$$` is `$`, `$(NAME)` a defined variable's value. */
function expandLikeKubernetes(s: string, env: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '$' || i + 1 >= s.length) {
      out += s[i];
    } else if (s[i + 1] === '$') {
      out += '$';
      i += 1;
    } else if (s[i + 1] === '(' && s.indexOf(')', i + 2) !== -1) {
      const end = s.indexOf(')', i + 2);
      const name = s.slice(i + 2, end);
      out += name in env ? env[name] : `$(${name})`;
      i = end;
    } else {
      out += '$';
    }
  }
  return out;
}

let tmp: string;
let binDir: string;

/**
 * A stand-in for sweci: writes its argv (NUL-separated) to $STUB_ARGV. With STUB_MODE=sleep it
 * waits to be stopped, then takes a moment to clean up and exits 42, a code only it gives.
 */
const STUB_SWECI = `#!/bin/sh
for a in "$@"; do printf '%s\\0' "$a"; done > "$STUB_ARGV"
if [ "\${STUB_MODE:-}" = sleep ]; then
  trap 'kill "$sleeper" 2>/dev/null; sleep 0.2; echo stopped > "$STUB_ARGV.stopped"; exit 42' TERM
  sleep 30 & sleeper=$!
  : > "$STUB_ARGV.started"
  wait "$sleeper"
fi
exit "\${STUB_EXIT:-0}"
`;

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-k8s-'));
  binDir = path.join(tmp, 'bin');
  await fs.mkdir(binDir);
  await fs.writeFile(path.join(binDir, 'sweci'), STUB_SWECI, { mode: 0o755 });
});

after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

interface ContainerRun {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  argvFile: string;
  syncOut: string;
}

/** The container's process as the kubelet would start it, for task index 3. */
async function prepareRun(manifest: Record<string, unknown>, label: string, extraEnv: Record<string, string> = {}): Promise<ContainerRun> {
  const c = containerOf(manifest);
  const index = { JOB_COMPLETION_INDEX: '3' };
  const [file, ...rest] = [...c.command, ...c.args].map((word) => expandLikeKubernetes(word, index));
  const argvFile = path.join(tmp, `${label}.argv`);
  const syncOut = path.join(tmp, `${label}.sync`);
  await fs.rm(syncOut, { force: true });
  const env = { ...process.env, ...index, PATH: `${binDir}:${process.env.PATH ?? ''}`, STUB_ARGV: argvFile, SYNC_OUT: syncOut, ...extraEnv };
  return { file, args: rest, env, argvFile, syncOut };
}

async function recordedArgv(run: ContainerRun): Promise<string[]> {
  const raw = await fs.readFile(run.argvFile, 'utf8');
  return raw.split('\0').slice(0, -1);
}

async function syncLines(run: ContainerRun): Promise<string[]> {
  const text = await fs.readFile(run.syncOut, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

function runNow(run: ContainerRun): number | null {
  return spawnSync(run.file, run.args, { env: run.env, stdio: 'ignore' }).status;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`timed out waiting for ${what}`);
}

function expectedSweciArgv(o: K8sJobOptions): string[] {
  return ['run', '--dataset', o.datasetPath, '--experiment', o.experimentPath, '--task-index', '3', '--workers', '1', '--runtime', 'local', ...o.runArgs];
}

// ---- the schema ----

describe('the manifest passes the Kubernetes Job schema', () => {
  const variants: [string, K8sJobOptions][] = [
    ['volume, no secret, cpus > 0', options()],
    ['volume, secret, cpus 0', options({ secretName: 'sweci-keys', cpus: 0 })],
    [
      'volume, dataset on its own claim, every option',
      options({
        namespace: 'bench',
        imagePullPolicy: 'IfNotPresent',
        serviceAccountName: 'sweci-runner',
        backoffLimitPerIndex: 0,
        cpus: 1.5,
        results: { kind: 'volume', claimName: 'sweci-results', datasetClaimName: 'swe-ci-dataset' },
      }),
    ],
    ['sync, secret, cpus 0', syncOptions()],
    ['sync, no secret, cpus > 0, no memory limit', syncOptions({ secretName: undefined, cpus: 4, memoryMb: 0 })],
    ['sync, dataset on a claim', syncOptions({ results: { kind: 'sync', command: SYNC_COMMAND, datasetClaimName: 'swe-ci-dataset' } })],
  ];
  for (const [label, o] of variants) {
    test(label, () => validateJob(k8sJobManifest(o)));
  }

  test('the schema does reject broken Jobs, so passing it means something', () => {
    const broken: [string, (m: JobShape) => void][] = [
      ['a container without a name', (m) => delete (m.spec.template.spec.containers[0] as Partial<Container>).name],
      ['completions as a string', (m) => ((m.spec as Record<string, unknown>).completions = '3')],
      ['an unknown completion mode', (m) => (m.spec.completionMode = 'Sequential')],
      ['an unknown restart policy', (m) => (m.spec.template.spec.restartPolicy = 'Sometimes')],
      ['a memory limit that is an object', (m) => ((m.spec.template.spec.containers[0].resources!.limits as Record<string, unknown>).memory = {})],
      ['a read-only flag that is a string', (m) => ((m.spec.template.spec.containers[0].volumeMounts[1] as Record<string, unknown>).readOnly = 'yes')],
      ['hostUsers as a string', (m) => ((m.spec.template.spec as unknown as Record<string, unknown>).hostUsers = 'no')],
      ['a seccomp profile without its type', (m) => (m.spec.template.spec.containers[0].securityContext = { seccompProfile: {} })],
    ];
    for (const [what, breakIt] of broken) {
      const manifest = k8sJobManifest(options());
      breakIt(shape(manifest));
      assert.throws(() => validateJob(manifest), `${what} should be rejected`);
    }
  });
});

// ---- the content ----

describe('the Job runs one task per completion index', () => {
  test('an Indexed Job: one completion per task, parallelism capped, pods never restarted in place', () => {
    const m = shape(k8sJobManifest(options({ taskCount: 3, parallelism: 8 })));
    assert.equal(m.apiVersion, 'batch/v1');
    assert.equal(m.kind, 'Job');
    assert.equal(m.spec.completionMode, 'Indexed');
    assert.equal(m.spec.completions, 3);
    assert.equal(m.spec.parallelism, 3);
    assert.equal(m.spec.template.spec.restartPolicy, 'Never');
    assert.equal(m.spec.template.spec.automountServiceAccountToken, false);
    assert.equal(shape(k8sJobManifest(options({ taskCount: 50, parallelism: 8 }))).spec.parallelism, 8);
  });

  test('each task may be retried, and the Job-wide limit allows every task its retries', () => {
    const m = shape(k8sJobManifest(options({ taskCount: 10 })));
    assert.equal(m.spec.backoffLimitPerIndex, 2, 'two retries by default');
    assert.equal(m.spec.backoffLimit, 10 * (2 + 1));
    const none = shape(k8sJobManifest(options({ taskCount: 10, backoffLimitPerIndex: 0 })));
    assert.equal(none.spec.backoffLimitPerIndex, 0);
    assert.equal(none.spec.backoffLimit, 10);
  });

  test("each pod asks for what sweci's sandbox needs: its own user namespace, seccomp and AppArmor unconfined, /proc unmasked", () => {
    for (const m of [k8sJobManifest(options()), k8sJobManifest(syncOptions())]) {
      assert.equal(podOf(m).hostUsers, false);
      assert.deepEqual(containerOf(m).securityContext, {
        seccompProfile: { type: 'Unconfined' },
        appArmorProfile: { type: 'Unconfined' },
        procMount: 'Unmasked',
      });
    }
    const readme = k8sReadme(options(), 'job.json');
    assert.match(readme, /hostUsers: false/);
    assert.match(readme, /Kubernetes 1\.30 or later with user namespaces enabled on the nodes/);
    assert.match(readme, /--allow-unconfined/);
  });

  test("the Job and its pods carry the app label and the Job's own label", () => {
    const m = shape(k8sJobManifest(options({ namespace: 'bench' })));
    const labels = { 'app.kubernetes.io/name': 'sweci', 'app.kubernetes.io/instance': 'sweci-demo' };
    assert.equal(m.metadata.name, 'sweci-demo');
    assert.equal(m.metadata.namespace, 'bench');
    assert.deepEqual(m.metadata.labels, labels);
    assert.deepEqual(m.spec.template.metadata.labels, labels);
    assert.equal(shape(k8sJobManifest(options())).metadata.namespace, undefined);
  });

  test("the container runs sweci on task $(JOB_COMPLETION_INDEX) with the local runtime and the user's flags", () => {
    const o = options();
    const c = containerOf(k8sJobManifest(o));
    assert.equal(c.name, 'sweci');
    assert.deepEqual(c.command, ['sweci']);
    assert.deepEqual(c.args, [
      'run',
      '--dataset',
      '/data/dataset',
      '--experiment',
      '/data/experiment',
      '--task-index',
      '$(JOB_COMPLETION_INDEX)',
      '--workers',
      '1',
      '--runtime',
      'local',
      '--agent',
      'claude-code',
      '--max-iterations',
      '5',
    ]);
    // The index comes from the pod's annotation, on any Kubernetes that has Indexed Jobs.
    assert.deepEqual(c.env, [
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
      },
    ]);
  });

  test('run as the kubelet would, sweci gets the index and every awkward word intact', async () => {
    const o = options({ datasetPath: AWKWARD_DATASET, runArgs: ['--note', AWKWARD, '--label=$(JOB_COMPLETION_INDEX)'] });
    const manifest = k8sJobManifest(o);
    validateJob(manifest);
    const run = await prepareRun(manifest, 'volume');
    assert.equal(runNow(run), 0);
    // The user's literal "$(JOB_COMPLETION_INDEX)" stays literal; only the Job's own one expands.
    assert.deepEqual(await recordedArgv(run), expectedSweciArgv(o));
  });

  test('memory and cpu limits follow the Docker settings: MiB, and cpu only when cpus > 0', () => {
    assert.deepEqual(containerOf(k8sJobManifest(options({ memoryMb: 8192, cpus: 2 }))).resources, {
      limits: { memory: '8192Mi', cpu: '2' },
      requests: { memory: '8192Mi', cpu: '2' },
    });
    assert.deepEqual(containerOf(k8sJobManifest(options({ memoryMb: 4096, cpus: 0 }))).resources, {
      limits: { memory: '4096Mi' },
      requests: { memory: '4096Mi' },
    });
    assert.deepEqual(containerOf(k8sJobManifest(options({ cpus: 1.5 }))).resources?.limits.cpu, '1500m');
    assert.equal(containerOf(k8sJobManifest(options({ memoryMb: 0, cpus: 0 }))).resources, undefined);
  });
});

describe('storage', () => {
  test('volume variant, one claim: the experiment writable, the dataset read-only, /tmp scratch', () => {
    const m = k8sJobManifest(options());
    assert.deepEqual(volumeNamed(m, 'experiment').persistentVolumeClaim, { claimName: 'sweci-results' });
    assert.deepEqual(mountAt(m, '/data/experiment'), { name: 'experiment', mountPath: '/data/experiment', subPath: 'experiments/demo' });
    assert.deepEqual(mountAt(m, '/data/dataset'), { name: 'experiment', mountPath: '/data/dataset', subPath: 'dataset', readOnly: true });
    assert.deepEqual(volumeNamed(m, 'tmp'), { name: 'tmp', emptyDir: {} });
    assert.deepEqual(mountAt(m, '/tmp'), { name: 'tmp', mountPath: '/tmp' });
  });

  test('volume variant, dataset on its own claim: that claim read-only too', () => {
    const m = k8sJobManifest(options({ results: { kind: 'volume', claimName: 'sweci-results', datasetClaimName: 'swe-ci-dataset' } }));
    assert.deepEqual(volumeNamed(m, 'dataset').persistentVolumeClaim, { claimName: 'swe-ci-dataset', readOnly: true });
    assert.deepEqual(mountAt(m, '/data/dataset'), { name: 'dataset', mountPath: '/data/dataset', readOnly: true });
    assert.deepEqual(mountAt(m, '/data/experiment'), { name: 'experiment', mountPath: '/data/experiment' });
  });

  test('sync variant: the experiment in an emptyDir, the dataset from the image unless a claim is given', () => {
    const m = k8sJobManifest(syncOptions());
    assert.deepEqual(volumeNamed(m, 'experiment'), { name: 'experiment', emptyDir: {} });
    assert.equal(
      containerOf(m).volumeMounts.some((v) => v.mountPath === '/data/dataset'),
      false,
    );
    const withClaim = k8sJobManifest(
      syncOptions({ results: { kind: 'sync', command: SYNC_COMMAND, datasetClaimName: 'swe-ci-dataset', datasetSubPath: 'v1' } }),
    );
    assert.deepEqual(mountAt(withClaim, '/data/dataset'), { name: 'dataset', mountPath: '/data/dataset', subPath: 'v1', readOnly: true });
  });
});

describe('API keys', () => {
  test('the keys come from the Secret by reference, and no key value is in the manifest', () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    const fakeKey = 'sk-ant-api03-THIS-IS-NOT-A-REAL-KEY-0123456789';
    process.env.ANTHROPIC_API_KEY = fakeKey;
    try {
      for (const o of [options({ secretName: 'sweci-keys' }), syncOptions()]) {
        const m = k8sJobManifest(o);
        assert.deepEqual(containerOf(m).envFrom, [{ secretRef: { name: 'sweci-keys' } }]);
        const json = JSON.stringify(m);
        assert.ok(!json.includes(fakeKey));
        assert.doesNotMatch(json, /API_KEY|sk-ant-/);
      }
      assert.equal(containerOf(k8sJobManifest(options())).envFrom, undefined);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  test('a key written inline in the run flags or the sync command is refused', () => {
    assert.throws(() => k8sJobManifest(options({ runArgs: ['--env', 'ANTHROPIC_API_KEY=abc123'] })), userError(/ANTHROPIC_API_KEY=….*Secret/));
    assert.throws(() => k8sJobManifest(options({ runArgs: ['--key', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz'] })), userError(/Secret/));
    assert.throws(
      () => k8sJobManifest(syncOptions({ results: { kind: 'sync', command: 'AWS_SECRET_ACCESS_KEY=xyz aws s3 sync /data/experiment s3://b' } })),
      userError(/sync command.*AWS_SECRET_ACCESS_KEY=…/),
    );
  });
});

// ---- the sync variant under the real /bin/sh ----

describe('the sync variant under /bin/sh', () => {
  const awkward = (): K8sJobOptions =>
    syncOptions({ datasetPath: AWKWARD_DATASET, experimentPath: `/data/it's "exp"`, runArgs: ['--note', AWKWARD, '', '--label=$(JOB_COMPLETION_INDEX)'] });

  test('a shell script that passes every awkward word to sweci intact', async () => {
    const o = awkward();
    const manifest = k8sJobManifest(o);
    validateJob(manifest);
    assert.deepEqual(containerOf(manifest).command, ['/bin/sh', '-c']);
    const run = await prepareRun(manifest, 'sync-ok');
    assert.equal(run.file, '/bin/sh');
    assert.equal(runNow(run), 0);
    assert.deepEqual(await recordedArgv(run), expectedSweciArgv(o));
    // The user's sync command ran as written: its $(…) is the shell's, not Kubernetes'.
    assert.deepEqual(await syncLines(run), ['synced']);
  });

  test("sweci failing: the sync still runs, and the pod fails with sweci's code", async () => {
    const run = await prepareRun(k8sJobManifest(awkward()), 'sync-fail', { STUB_EXIT: '3' });
    assert.equal(runNow(run), 3);
    assert.deepEqual(await syncLines(run), ['synced']);
  });

  test('the sync failing after sweci succeeded fails the pod, so the task is retried', async () => {
    const run = await prepareRun(k8sJobManifest(awkward()), 'sync-lost', { SYNC_EXIT: '5' });
    assert.equal(runNow(run), 5);
    const both = await prepareRun(k8sJobManifest(awkward()), 'sync-both', { STUB_EXIT: '3', SYNC_EXIT: '5' });
    assert.equal(runNow(both), 3, "sweci's failure comes first");
  });

  test('a stop (SIGTERM) reaches sweci, and the partial results are still synced', async () => {
    const run = await prepareRun(k8sJobManifest(awkward()), 'sync-stop', { STUB_MODE: 'sleep' });
    const shell = spawn(run.file, run.args, { env: run.env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => shell.on('exit', (code) => resolve(code)));
    await until(
      () =>
        fs.access(`${run.argvFile}.started`).then(
          () => true,
          () => false,
        ),
      'the stub to start',
    );
    shell.kill('SIGTERM');
    // sweci's own code after its clean-up, not the 143 of the shell's interrupted `wait`.
    assert.equal(await exited, 42);
    assert.equal((await fs.readFile(`${run.argvFile}.stopped`, 'utf8')).trim(), 'stopped');
    assert.deepEqual(await syncLines(run), ['synced']);
  });

  test("the README's commands quote a word so that the shell reads back the word given", () => {
    // The manifest's path as the README's `kubectl apply` line quotes it.
    const shellQuote = (word: string): string => /Start it: `kubectl apply -f ([\s\S]*?)`\n/.exec(k8sReadme(options(), word))![1];
    const words = ['plain', '', ' ', "'", "''", '"', 'a b', AWKWARD, AWKWARD_DATASET, 'line\nbreak', 'tab\there', '-n', '~', '#not-a-comment', 'é ü 中'];
    const script = `for a in ${words.map(shellQuote).join(' ')}; do printf '%s\\0' "$a"; done`;
    const out = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(out.stdout.split('\0').slice(0, -1), words);
    assert.equal(shellQuote('/data/experiment'), '/data/experiment', 'plain paths stay readable');
  });
});

// ---- names and bad input ----

function userError(message: RegExp): (err: unknown) => boolean {
  return (err: unknown) => {
    assert.ok(err instanceof UserError, `expected a UserError, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  };
}

describe('names', () => {
  const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

  test('k8sJobName derives a valid Job name from an experiment folder name', () => {
    assert.equal(k8sJobName('Claude_Run 1'), 'sweci-claude-run-1');
    assert.equal(k8sJobName('/home/me/experiments/gpt-5.2/'), 'sweci-gpt-5-2');
    assert.equal(k8sJobName('sweci-nightly'), 'sweci-nightly');
    assert.equal(k8sJobName('---'), 'sweci');
    assert.equal(k8sJobName(''), 'sweci');
    const long = (tail: string): string => `${'a-very-long-experiment-name-'.repeat(4)}${tail}`;
    const [a, b] = [k8sJobName(long('one')), k8sJobName(long('two'))];
    assert.notEqual(a, b, 'names cut short stay apart');
    for (const name of [a, b, k8sJobName('ÜBER experiment №7'), k8sJobName('x'.repeat(300))]) {
      assert.match(name, DNS_LABEL);
      assert.ok(name.length <= 63, name);
      validateJob(k8sJobManifest(options({ name })));
    }
  });

  test('an invalid Job name is refused with what to do', () => {
    for (const name of ['Sweci-Demo', 'sweci_demo', '-sweci', 'sweci-', '', 'a'.repeat(64), 'sweci.demo']) {
      assert.throws(() => k8sJobManifest(options({ name })), userError(/Job name .*lowercase.*63.*k8sJobName/), name);
    }
    assert.throws(() => k8sJobManifest(options({ namespace: 'Bench' })), userError(/namespace/));
    assert.throws(() => k8sJobManifest(options({ secretName: 'Keys!' })), userError(/secret name/));
  });
});

describe('bad input is a UserError that says what to do', () => {
  const cases: [string, Partial<K8sJobOptions>, RegExp][] = [
    ['no tasks', { taskCount: 0 }, /task count .*from 1.*--tasks/],
    ['a fractional task count', { taskCount: 2.5 }, /task count/],
    ['more tasks than an Indexed Job takes', { taskCount: 100_001 }, /task count .*split the run/],
    ['no parallelism', { parallelism: 0 }, /parallelism .*from 1/],
    ['negative retries', { backoffLimitPerIndex: -1 }, /retries per task/],
    ['negative memory', { memoryMb: -1 }, /memory/],
    ['an empty image', { image: ' ' }, /image .*sweci installed/],
    ['a relative dataset path', { datasetPath: 'data/dataset' }, /dataset path .*absolute/],
    ['a relative experiment path', { experimentPath: './experiment' }, /experiment path .*absolute/],
    ['the experiment inside the dataset', { experimentPath: '/data/dataset/exp' }, /must not contain each other/],
    ['the experiment in /tmp', { experimentPath: '/tmp/exp' }, /\/tmp/],
    ['the root as the dataset', { datasetPath: '/' }, /\/tmp/],
    ['a flag the Job sets', { runArgs: ['--workers', '4'] }, /leave out --workers/],
    ['a flag the Job sets, with =', { runArgs: ['--runtime=docker'] }, /leave out --runtime/],
    ["dataset and experiment at one claim's root", { results: { kind: 'volume', claimName: 'c' } }, /datasetSubPath.*experimentSubPath.*datasetClaimName/],
    [
      "the experiment folder inside the dataset's",
      { results: { kind: 'volume', claimName: 'c', datasetSubPath: 'data', experimentSubPath: 'data/exp' } },
      /share a folder/,
    ],
    ['a sub-path climbing out', { results: { kind: 'volume', claimName: 'c', datasetSubPath: '../d', experimentSubPath: 'e' } }, /relative .*without "\.\."/],
    ['an empty sync command', { results: { kind: 'sync', command: '  ' } }, /sync command is empty/],
    ['an invalid claim name', { results: { kind: 'volume', claimName: 'My Claim', datasetClaimName: 'd' } }, /claim name/],
  ];
  for (const [what, overrides, message] of cases) {
    test(what, () => assert.throws(() => k8sJobManifest(options(overrides)), userError(message)));
  }
});

// ---- the README snippet ----

describe('k8sReadme', () => {
  test('volume variant: secret, claim, apply, watch, summarize, rerun', () => {
    const text = k8sReadme(options({ namespace: 'bench', secretName: 'sweci-keys' }), 'jobs/sweci demo.json');
    for (const piece of [
      'kubectl -n bench create secret generic sweci-keys --from-literal=ANTHROPIC_API_KEY=',
      '`sweci-results` must exist with access mode ReadWriteMany',
      'folder `dataset` of the claim `sweci-results`',
      "kubectl apply -f 'jobs/sweci demo.json'",
      'kubectl -n bench get job/sweci-demo -w',
      'kubectl -n bench logs',
      'sweci summarize',
      'kubectl -n bench delete job/sweci-demo',
      'resumes each task',
    ]) {
      assert.ok(text.includes(piece), `missing: ${piece}\n${text}`);
    }
  });

  test('sync variant: shows the sync command and says to sync down before summarizing', () => {
    const text = k8sReadme(syncOptions(), 'job.json');
    assert.ok(text.includes(SYNC_COMMAND));
    assert.match(text, /sync the results down.*sweci summarize/);
    assert.match(text, /starts over/);
    assert.doesNotMatch(text, / -n /, 'no namespace flag without a namespace');
  });

  test('it checks the options as the manifest does', () => {
    assert.throws(() => k8sReadme(options({ taskCount: 0 }), 'job.json'), UserError);
  });
});
