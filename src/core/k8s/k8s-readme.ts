// The README written beside a Job's manifest: how to run it on a cluster and collect the results.
import { plural } from '../util/plural';
import { shellQuote } from '../util/shell-quote';
import { DEFAULT_RETRIES_PER_TASK, checkedOptions, type K8sJobOptions } from './k8s-job-options';

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
    `\`${manifestFile}\` describes an Indexed Job: ${plural(o.taskCount, 'task')}, at most ${parallel} at a time, one pod per task.`,
    `Pod N runs \`sweci run --task-index N\` in the image \`${o.image}\`, which must have \`sweci\` and the tasks' tools.`,
    `A pod that fails is retried up to ${plural(retries, 'time')}; ${retryNote(o)}`,
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
