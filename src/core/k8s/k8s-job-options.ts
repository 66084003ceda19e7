// What a Kubernetes Job for a benchmark is made from, and the checks on it: every message names
// the option and says what to do. The manifest (k8s-manifest.ts) and its README (k8s-readme.ts)
// are written only from checked options.
import * as path from 'node:path';
import { UserError } from '../util/errors';
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

/** A rerun of `sweci run` resumes the task, so a retry is cheap and safe. */
export const DEFAULT_RETRIES_PER_TASK = 2;

/** Kubernetes limits Indexed Jobs that use per-index backoff to this many completions. */
const MAX_INDEXED_COMPLETIONS = 100_000;
export const INT32_MAX = 2_147_483_647;
/** The flags the Job sets itself; the user's run flags must leave them out. */
const FLAGS_SET_BY_THE_JOB = ['--dataset', '--experiment', '--task-index', '--workers', '--runtime'];

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `opts` with its paths normalized; throws a UserError naming the option to fix. */
export function checkedOptions(opts: K8sJobOptions): K8sJobOptions {
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
