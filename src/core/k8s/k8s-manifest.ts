// A Kubernetes Indexed Job that runs a benchmark one task per pod: completion index N runs
// `sweci run --task-index N` with the local runtime (the pod is the task's environment).
// The manifest is a plain object written as JSON, which kubectl reads as well as YAML.
import { DEFAULT_RETRIES_PER_TASK, INT32_MAX, checkedOptions, type K8sJobOptions } from './k8s-job-options';
import { INDEX_VARIABLE, podCommand } from './k8s-pod-command';

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

const CONTAINER_NAME = 'sweci';
/** The sync variant's grace period: room to copy out partial results after a stop. */
const SYNC_GRACE_SECONDS = 300;

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
        ...podCommand(o),
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
