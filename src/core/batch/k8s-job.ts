// A Kubernetes Indexed Job that runs a benchmark one task per pod: completion index N runs
// `sweci run --task-index N` with the local runtime (the pod is the task's environment).
// The manifest is a plain object written as JSON, which kubectl reads as well as YAML.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { shellQuote } from '../util/shell-quote';
import { flagHoldingSecret } from '../util/secret-mask';

/**
 * Where results go.
 * - `volume`: a ReadWriteMany claim mounted at the experiment path (at `experimentSubPath` of it,
 *   default its root). The dataset is mounted read-only from `datasetClaimName` (default: the same
 *   claim) at `datasetSubPath` (default: that claim's root). On one claim the two folders must
 *   not contain each other, so both sub-paths are needed then.
 * - `sync`: the experiment lives in the pod (an emptyDir), and `command` (shell code, e.g. an
 *   `aws s3 sync`) copies it out after sweci, whatever sweci's exit code. The dataset is in the
 *   image at the dataset path, or on `datasetClaimName` when given.
 * The sub-paths and the sync variant's dataset claim go beyond the first sketch of this
 * interface: without them one claim could not hold both the dataset and the results.
 */
export type K8sJobResults =
  | { kind: 'volume'; claimName: string; experimentSubPath?: string; datasetClaimName?: string; datasetSubPath?: string }
  | { kind: 'sync'; command: string; datasetClaimName?: string; datasetSubPath?: string };

export interface K8sJobOptions {
  /** The Job's name: a DNS-1123 label (see `k8sJobName`). */
  name: string;
  namespace?: string;
  /** An image with `sweci` on its PATH and the tasks' toolchain. */
  image: string;
  /** Tasks selected (after --tasks/--tasks-file): one completion index each. */
  taskCount: number;
  /** Pods at a time; capped at taskCount. */
  parallelism: number;
  /** The dataset's folder inside the pod. */
  datasetPath: string;
  /** The experiment's folder inside the pod. */
  experimentPath: string;
  /** The user's other `sweci run` flags, passed through as they are. */
  runArgs: string[];
  /** Memory per pod in MiB; 0: no limit (as the Docker runtime's setting). */
  memoryMb: number;
  /** CPUs per pod; 0: no limit. */
  cpus: number;
  results: K8sJobResults;
  /** A Secret whose keys (ANTHROPIC_API_KEY, …) become the pod's environment. */
  secretName?: string;
  /** Retries of one task before it counts as failed; default DEFAULT_RETRIES_PER_TASK. */
  backoffLimitPerIndex?: number;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  serviceAccountName?: string;
}

/**
 * What sweci's sandbox (bubblewrap: user, PID and mount namespaces, its own /proc) needs from the
 * container: the runtime's default seccomp and AppArmor profiles refuse the namespaces, and a
 * masked /proc cannot be mounted again inside. Without them `sweci run` refuses to start rather
 * than let an agent run beside the oracle unconfined.
 */
export const SANDBOX_SECURITY_CONTEXT = {
  seccompProfile: { type: 'Unconfined' },
  appArmorProfile: { type: 'Unconfined' },
  procMount: 'Unmasked',
} as const;

/** A rerun of `sweci run` resumes the task, so a retry is cheap and safe. */
const DEFAULT_RETRIES_PER_TASK = 2;

/** Kubernetes limits Indexed Jobs that use per-index backoff to this many completions. */
const MAX_INDEXED_COMPLETIONS = 100_000;
const INT32_MAX = 2_147_483_647;
const CONTAINER_NAME = 'sweci';
const INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';
/** The flags the Job sets itself; the user's run flags must leave them out. */
const FLAGS_SET_BY_THE_JOB = ['--dataset', '--experiment', '--task-index', '--workers', '--runtime'];
/** The sync variant's grace period: room to copy out partial results after a stop. */
const SYNC_GRACE_SECONDS = 300;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Derived names stay this short: Kubernetes appends `-<index>` to form each pod's hostname. */
const DERIVED_NAME_MAX = 52;

/** A valid Job name for an experiment folder: `sweci-<slug>`, with a short hash if cut. */
export function k8sJobName(experimentName: string): string {
  const base = experimentName.split(/[\\/]/).filter(Boolean).pop() ?? '';
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^sweci(-|$)/, '');
  const name = slug ? `sweci-${slug}` : 'sweci';
  if (name.length <= DERIVED_NAME_MAX) return name;
  // Cut names of different experiments could collide; the hash of the full name keeps them apart.
  const hash = createHash('sha256').update(experimentName).digest('hex').slice(0, 6);
  return `${name.slice(0, DERIVED_NAME_MAX - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}

/** The `batch/v1` Job. Throws a UserError naming the option to fix. */
export function k8sJobManifest(opts: K8sJobOptions): Record<string, unknown> {
  const o = checkedOptions(opts);
  const labels = { 'app.kubernetes.io/name': 'sweci', 'app.kubernetes.io/instance': o.name };
  const retries = o.backoffLimitPerIndex ?? DEFAULT_RETRIES_PER_TASK;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: o.name, ...(o.namespace ? { namespace: o.namespace } : {}), labels },
    spec: {
      completionMode: 'Indexed',
      completions: o.taskCount,
      parallelism: Math.min(o.parallelism, o.taskCount),
      backoffLimitPerIndex: retries,
      // Where per-index backoff is honoured this never binds first; on a cluster without it,
      // the Job-wide limit gives the same budget: every task may fail retries + 1 times.
      backoffLimit: Math.min(o.taskCount * (retries + 1), INT32_MAX),
      template: { metadata: { labels }, spec: podSpec(o) },
    },
  };
}

function podSpec(o: K8sJobOptions): Record<string, unknown> {
  const { volumes, volumeMounts } = storage(o);
  return {
    restartPolicy: 'Never',
    // The agents run arbitrary code; they have no business with the cluster's API.
    automountServiceAccountToken: false,
    // Its own user namespace: root in the pod is not root on the node, and may make the nested
    // namespaces sweci's sandbox needs (and /proc unmasked, below, needs it).
    hostUsers: false,
    ...(o.serviceAccountName ? { serviceAccountName: o.serviceAccountName } : {}),
    ...(o.results.kind === 'sync' ? { terminationGracePeriodSeconds: SYNC_GRACE_SECONDS } : {}),
    containers: [
      {
        name: CONTAINER_NAME,
        image: o.image,
        ...(o.imagePullPolicy ? { imagePullPolicy: o.imagePullPolicy } : {}),
        ...command(o),
        // Set from the pod's annotation so it is there on every Kubernetes with Indexed Jobs.
        env: [
          {
            name: INDEX_VARIABLE,
            valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
          },
        ],
        ...(o.secretName ? { envFrom: [{ secretRef: { name: o.secretName } }] } : {}),
        ...resources(o),
        securityContext: SANDBOX_SECURITY_CONTEXT,
        volumeMounts,
      },
    ],
    volumes,
  };
}

/** `run` and its flags; `literal` prepares each given word, `index` is the task index's word as is. */
function sweciRunArgs(o: K8sJobOptions, index: string, literal: (word: string) => string): string[] {
  const head = ['run', '--dataset', o.datasetPath, '--experiment', o.experimentPath, '--task-index'];
  const tail = ['--workers', '1', '--runtime', 'local', ...o.runArgs];
  return [...head.map(literal), index, ...tail.map(literal)];
}

function command(o: K8sJobOptions): { command: string[]; args: string[] } {
  if (o.results.kind === 'volume') {
    // Kubernetes substitutes $(JOB_COMPLETION_INDEX) in args; every other `$` stays literal.
    return { command: ['sweci'], args: sweciRunArgs(o, `$(${INDEX_VARIABLE})`, literalForKubernetes) };
  }
  return { command: ['/bin/sh', '-c'], args: [literalForKubernetes(syncScript(o, o.results.command))] };
}

/**
 * sweci, then the sync command whatever sweci's exit code. A stop (SIGTERM to the shell, which
 * is the container's first process) is passed on to sweci, and the partial results are still
 * synced. The exit code is sweci's, or the sync's when sweci succeeded: results that never left
 * the pod should fail the pod, so that the task is retried.
 */
function syncScript(o: K8sJobOptions, syncCommand: string): string {
  const run = ['sweci', ...sweciRunArgs(o, `"$${INDEX_VARIABLE}"`, shellQuote)].join(' ');
  return [
    // The trap is set before sweci starts: a stop that comes before its pid is known is kept, and
    // passed on as soon as it is (under load sweci could start, and the stop come, before a trap set after it).
    'sweci_pid=',
    'stop_pending=0',
    `trap 'if [ -n "$sweci_pid" ]; then kill -TERM "$sweci_pid" 2>/dev/null; else stop_pending=1; fi' TERM INT`,
    `${run} &`,
    'sweci_pid=$!',
    'if [ "$stop_pending" = 1 ]; then kill -TERM "$sweci_pid" 2>/dev/null; fi',
    'wait "$sweci_pid"',
    'sweci_status=$?',
    // A trapped signal ends `wait` early; wait again for sweci's own exit code.
    'while kill -0 "$sweci_pid" 2>/dev/null; do wait "$sweci_pid"; sweci_status=$?; done',
    // The trap stays: a second stop during the sync does not cut it short (the grace period does).
    '(',
    syncCommand,
    ')',
    'sync_status=$?',
    'if [ "$sweci_status" -ne 0 ]; then exit "$sweci_status"; fi',
    'exit "$sync_status"',
  ].join('\n');
}

/** Kubernetes reads `$(NAME)` in command and args as a variable and `$$` as `$`: keep both literal. */
function literalForKubernetes(s: string): string {
  return s.replace(/\$(?=[$(])/g, '$$$$');
}

function resources(o: K8sJobOptions): { resources?: Record<string, unknown> } {
  const amounts: Record<string, string> = {};
  if (o.memoryMb > 0) amounts.memory = `${Math.ceil(o.memoryMb)}Mi`;
  if (o.cpus > 0) amounts.cpu = Number.isInteger(o.cpus) ? String(o.cpus) : `${Math.ceil(o.cpus * 1000)}m`;
  if (Object.keys(amounts).length === 0) return {};
  // Requests equal to limits: the scheduler reserves what a task may use.
  return { resources: { limits: { ...amounts }, requests: { ...amounts } } };
}

interface Storage {
  volumes: Record<string, unknown>[];
  volumeMounts: Record<string, unknown>[];
}

function storage(o: K8sJobOptions): Storage {
  const r = o.results;
  const volumes: Record<string, unknown>[] = [{ name: 'tmp', emptyDir: {} }];
  const volumeMounts: Record<string, unknown>[] = [{ name: 'tmp', mountPath: '/tmp' }];
  const mount = (name: string, mountPath: string, subPath: string | undefined, readOnly: boolean): void => {
    volumeMounts.push({ name, mountPath, ...(subPath ? { subPath } : {}), ...(readOnly ? { readOnly: true } : {}) });
  };
  if (r.kind === 'volume') {
    volumes.push({ name: 'experiment', persistentVolumeClaim: { claimName: r.claimName } });
    mount('experiment', o.experimentPath, r.experimentSubPath, false);
  } else {
    volumes.push({ name: 'experiment', emptyDir: {} });
    mount('experiment', o.experimentPath, undefined, false);
  }
  const datasetClaim = r.datasetClaimName ?? (r.kind === 'volume' ? r.claimName : undefined);
  if (datasetClaim === undefined) return { volumes, volumeMounts };
  if (r.kind === 'volume' && datasetClaim === r.claimName) {
    mount('experiment', o.datasetPath, r.datasetSubPath, true);
  } else {
    volumes.push({ name: 'dataset', persistentVolumeClaim: { claimName: datasetClaim, readOnly: true } });
    mount('dataset', o.datasetPath, r.datasetSubPath, true);
  }
  return { volumes, volumeMounts };
}

// ---- validation: every message names the option and says what to do ----

function checkedOptions(opts: K8sJobOptions): K8sJobOptions {
  checkDnsLabel(opts.name, 'The Job name', 'use k8sJobName(<experiment folder name>) or pick one like "sweci-run-1"');
  if (opts.namespace !== undefined) checkDnsLabel(opts.namespace, 'The namespace', 'give an existing namespace');
  if (!opts.image.trim() || /\s/.test(opts.image)) {
    throw new UserError(`The image "${opts.image}" is not an image reference: give one with sweci installed, e.g. "registry.example.com/sweci:1.0".`);
  }
  checkCount(opts.taskCount, 'The task count', 1, MAX_INDEXED_COMPLETIONS, 'check the --tasks/--tasks-file selection, or split the run into several Jobs');
  checkCount(opts.parallelism, 'The parallelism', 1, INT32_MAX, 'give how many pods may run at once');
  if (opts.backoffLimitPerIndex !== undefined) checkCount(opts.backoffLimitPerIndex, 'The retries per task', 0, INT32_MAX, 'give 0 or more');
  checkAmount(opts.memoryMb, 'The memory (MiB)');
  checkAmount(opts.cpus, 'The CPUs');
  if (opts.imagePullPolicy !== undefined && !['Always', 'IfNotPresent', 'Never'].includes(opts.imagePullPolicy)) {
    throw new UserError(`The image pull policy "${opts.imagePullPolicy}" is not one of Always, IfNotPresent, Never.`);
  }
  for (const [value, what] of [
    [opts.secretName, 'The secret name'],
    [opts.serviceAccountName, 'The service account name'],
  ] as const) {
    if (value !== undefined) checkDnsSubdomain(value, what);
  }
  const datasetPath = checkedPodPath(opts.datasetPath, 'The dataset path');
  const experimentPath = checkedPodPath(opts.experimentPath, 'The experiment path');
  checkPathsApart(datasetPath, experimentPath);
  checkRunArgs(opts.runArgs);
  checkNoSecrets(opts);
  return { ...opts, datasetPath, experimentPath, results: checkedResults(opts.results) };
}

function checkDnsLabel(value: string, what: string, todo: string): void {
  if (value.length <= 63 && DNS_LABEL.test(value)) return;
  throw new UserError(
    `${what} "${value}" is not valid in Kubernetes: it needs lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters; ${todo}.`,
  );
}

function checkDnsSubdomain(value: string, what: string): void {
  if (value.length <= 253 && DNS_SUBDOMAIN.test(value)) return;
  throw new UserError(`${what} "${value}" is not a Kubernetes object name: use lowercase letters, digits, '-' and '.', as in "sweci-keys".`);
}

function checkCount(n: number, what: string, min: number, max: number, todo: string): void {
  if (Number.isInteger(n) && n >= min && n <= max) return;
  throw new UserError(`${what} must be a whole number from ${min} to ${max}, not ${n}: ${todo}.`);
}

function checkAmount(n: number, what: string): void {
  if (Number.isFinite(n) && n >= 0) return;
  throw new UserError(`${what} must be 0 (no limit) or more, not ${n}.`);
}

function checkedPodPath(p: string, what: string): string {
  if (!path.posix.isAbsolute(p) || p.includes('\0')) {
    throw new UserError(`${what} "${p}" must be an absolute path inside the pod, such as /data/experiment.`);
  }
  const normal = path.posix.normalize(p).replace(/(.)\/+$/, '$1');
  if (contains(normal, '/tmp') || contains('/tmp', normal)) {
    throw new UserError(`${what} "${p}" clashes with /tmp, which the pod keeps as its scratch space: choose a folder outside /tmp, such as /data.`);
  }
  return normal;
}

function checkPathsApart(datasetPath: string, experimentPath: string): void {
  if (!contains(datasetPath, experimentPath) && !contains(experimentPath, datasetPath)) return;
  throw new UserError(
    `The dataset path "${datasetPath}" and the experiment path "${experimentPath}" must not contain each other: mount them at separate folders, such as /data/dataset and /data/experiment.`,
  );
}

/** Whether folder `outer` is `inner` or holds it. */
function contains(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

function checkRunArgs(runArgs: readonly string[]): void {
  for (const arg of runArgs) {
    const flag = FLAGS_SET_BY_THE_JOB.find((f) => arg === f || arg.startsWith(`${f}=`));
    if (flag) throw new UserError(`The run flags must leave out ${flag}: the Job sets it for every pod.`);
  }
}

/**
 * The manifest and its README hold no secret: no run flag and no sync command may hold one of
 * `keys` (the API keys of the machine writing them) or a secret written inline.
 */
export function checkNoSecrets(opts: Pick<K8sJobOptions, 'runArgs' | 'results'>, keys: readonly string[] = []): void {
  checkNoSecret(opts.runArgs, keys, 'The run flag');
  if (opts.results.kind === 'sync') checkNoSecret([opts.results.command], keys, 'The sync command');
}

/** API keys belong in the Secret: no word may hold a key's value or a secret written inline (secret-mask.ts). */
function checkNoSecret(words: readonly string[], keys: readonly string[], what: string): void {
  const holding = flagHoldingSecret(words, keys);
  if (!holding) return;
  throw new UserError(
    `${what}${words.length > 1 ? ` ${holding.flag}` : ''} holds a secret${holding.variable ? ` (${holding.variable}=…)` : ''}: put the key in the Kubernetes Secret instead (the pod gets the Secret's keys as environment variables) and name its variable with --api-key-env.`,
  );
}

function checkedResults(r: K8sJobResults): K8sJobResults {
  if (r.datasetClaimName !== undefined) checkDnsSubdomain(r.datasetClaimName, 'The dataset claim name');
  const datasetSubPath = checkedSubPath(r.datasetSubPath, 'The dataset sub-path');
  if (r.kind === 'sync') {
    if (!r.command.trim())
      throw new UserError('The sync command is empty: give the shell command that copies the experiment folder out, e.g. an "aws s3 sync".');
    return { ...r, datasetSubPath };
  }
  checkDnsSubdomain(r.claimName, 'The claim name');
  const experimentSubPath = checkedSubPath(r.experimentSubPath, 'The experiment sub-path');
  const oneClaim = (r.datasetClaimName ?? r.claimName) === r.claimName;
  if (oneClaim && subPathsOverlap(experimentSubPath, datasetSubPath)) {
    throw new UserError(
      `The dataset and the experiment would share a folder on the claim "${r.claimName}": keep the dataset in its own folder there and give its datasetSubPath (e.g. "dataset") and an experimentSubPath (e.g. "experiments/run-1"), or give a separate datasetClaimName.`,
    );
  }
  return { ...r, experimentSubPath, datasetSubPath };
}

/** Whether two folders of one claim (undefined: its root) contain one another. */
function subPathsOverlap(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || contains(a, b) || contains(b, a);
}

/** A folder on a claim, relative; '' and undefined mean the claim's root. */
function checkedSubPath(sub: string | undefined, what: string): string | undefined {
  if (sub === undefined) return undefined;
  const normal = path.posix.normalize(sub).replace(/^(\.\/)+|\/+$/g, '');
  if (path.posix.isAbsolute(sub) || normal.split('/').includes('..') || sub.includes('\0')) {
    throw new UserError(`${what} "${sub}" must be a folder relative to the claim's root, such as "dataset", without "..".`);
  }
  return normal === '.' || normal === '' ? undefined : normal;
}

// ---- how to run it ----

/** Markdown: how to run the Job written to `manifestFile`, and how to collect the results. */
export function k8sReadme(opts: K8sJobOptions, manifestFile: string): string {
  const o = checkedOptions(opts);
  const ns = o.namespace ? ` -n ${o.namespace}` : '';
  const secret = o.secretName ?? 'sweci-keys';
  const retries = o.backoffLimitPerIndex ?? DEFAULT_RETRIES_PER_TASK;
  const parallel = Math.min(o.parallelism, o.taskCount);
  const lines = [
    `# Running \`${o.name}\` on Kubernetes`,
    '',
    `\`${manifestFile}\` describes an Indexed Job: ${o.taskCount} task(s), at most ${parallel} at a time, one pod per task.`,
    `Pod N runs \`sweci run --task-index N\` in the image \`${o.image}\`, which must have \`sweci\` and the tasks' tools.`,
    `A pod that fails is retried up to ${retries} time(s); ${retryNote(o)}`,
    '',
    "**Confinement.** In each pod, the agents and pytest run in sweci's sandbox (bubblewrap), so that an agent",
    'reads neither the oracle nor the records beside it. The pod asks for what the sandbox needs: its own user',
    'namespace (`hostUsers: false`: Kubernetes 1.30 or later with user namespaces enabled on the nodes, and a',
    'container runtime that supports them), and, for its container, seccomp and AppArmor `Unconfined` and',
    '`procMount: Unmasked` (Pod Security `baseline` and `restricted` refuse those: the namespace needs `privileged`). A pod that cannot confine its agents stops at once with one line naming the cause',
    '(`sweci run` refuses to run unconfined; `--allow-unconfined` in the run flags runs anyway, and every such',
    'run is marked "not isolated" in `sweci summarize`). Before a long run, check one task: apply the manifest',
    'with `completions: 1`, or run the image by hand with the same options and `sweci agents check`.',
    '',
    '1. Put the API keys in a Secret; they never go in the manifest:',
    '',
    '   ```sh',
    `   kubectl${ns} create secret generic ${secret} --from-literal=ANTHROPIC_API_KEY=...`,
    '   ```',
    '',
    '   Add one `--from-literal` per key your agents need.' +
      (o.secretName ? '' : ` This manifest reads no Secret: generate it again with the Secret's name (\`${secret}\` above).`),
    '',
    ...storageSteps(o),
    `3. Start it: \`kubectl apply -f ${shellQuote(manifestFile)}\``,
    '',
    `4. Watch it: \`kubectl${ns} get job/${o.name} -w\`. List its pods with`,
    `   \`kubectl${ns} get pods -l app.kubernetes.io/instance=${o.name}\` and read one with \`kubectl${ns} logs <pod>\`.`,
    '',
    ...collectSteps(o),
    `To rerun the tasks that did not finish (after a failure, or a stop): \`kubectl${ns} delete job/${o.name}\`,`,
    `then apply the manifest again. Every pod runs again: ${retryNote(o)}`,
  ];
  return `${lines.join('\n')}\n`;
}

function retryNote(o: K8sJobOptions): string {
  return o.results.kind === 'volume'
    ? 'sweci resumes each task where it stopped, and finished tasks stay as they are.'
    : 'a new pod starts with an empty experiment folder, so a task starts over unless your image brings its folder back first.';
}

function storageSteps(o: K8sJobOptions): string[] {
  const r = o.results;
  const datasetClaim = r.datasetClaimName ?? (r.kind === 'volume' ? r.claimName : undefined);
  const datasetAt = datasetClaim
    ? `folder \`${r.datasetSubPath ?? '/'}\` of the claim \`${datasetClaim}\` (mounted read-only at \`${o.datasetPath}\`)`
    : `the image at \`${o.datasetPath}\``;
  if (r.kind === 'volume') {
    return [
      `2. The claim \`${r.claimName}\` must exist with access mode ReadWriteMany: every pod writes its task into`,
      `   its folder \`${r.experimentSubPath ?? '/'}\` (mounted at \`${o.experimentPath}\`). The dataset must be in the ${datasetAt}.`,
      '',
    ];
  }
  return [
    `2. Results stay in the pod at \`${o.experimentPath}\`; after each task, whether it passed or failed,`,
    '   the pod copies them out with:',
    '',
    '   ```sh',
    ...r.command.split('\n').map((l) => `   ${l}`),
    '   ```',
    '',
    `   The dataset must be in ${datasetAt}.`,
    '',
  ];
}

function collectSteps(o: K8sJobOptions): string[] {
  const where =
    o.results.kind === 'volume' ? `mount or copy the claim's experiment folder to this machine` : `sync the results down from where the pods copied them`;
  return [`5. When the Job is done: ${where}, then score the runs: \`sweci summarize <experiment folder>\`.`, ''];
}
