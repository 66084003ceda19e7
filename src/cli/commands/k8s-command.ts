// sweci k8s: the benchmark as a Kubernetes Indexed Job, one task per completion index. The
// task list is read here from the dataset (the same selection each pod makes), so the Job's
// completions match it; the pods run `sweci run --task-index $(JOB_COMPLETION_INDEX)`.
import { promises as fs } from 'node:fs';
import { plural } from '../../core/util/plural';
import * as path from 'node:path';
import { checkNoSecrets, type K8sJobOptions } from '../../core/k8s/k8s-job-options';
import { k8sJobName } from '../../core/k8s/k8s-job-name';
import { k8sJobManifest } from '../../core/k8s/k8s-manifest';
import { k8sReadme } from '../../core/k8s/k8s-readme';
import { apiKeysFrom } from '../../core/agents/api-key-names';
import { selectTasks } from '../../core/batch/select-tasks';
import { readRuntimeSettings } from '../../core/runtime/runtime-settings';
import { listSplits, readDatasetTasks } from '../../core/task/dataset';
import { UserError } from '../../core/util/errors';
import { commaList, readCount } from '../../core/util/setting-reader';
import { cliSettings } from '../cli-settings';

export interface K8sValues extends Record<string, unknown> {
  dataset?: string;
  split?: string;
  tasks?: string;
  tasksFile?: string;
  experiment?: string;
  image?: string;
  workers?: string;
  name?: string;
  namespace?: string;
  datasetPath?: string;
  experimentPath?: string;
  claim?: string;
  datasetClaim?: string;
  syncCommand?: string;
  secret?: string;
  out?: string;
}

export async function k8sCommand(runArgs: string[], values: K8sValues): Promise<number> {
  if (!values.dataset)
    throw new UserError('k8s needs --dataset <dir>: the dataset on this machine, to count its tasks (the pods read their copy at --dataset-path).');
  if (!values.experiment) throw new UserError('k8s needs --experiment <name>: it names the Job and the results folder.');
  if (!values.image) throw new UserError("k8s needs --image <image>: an image with sweci on its PATH, Node 20 and the tasks' Python.");
  if (!values.claim && !values.syncCommand) {
    throw new UserError(
      'k8s needs somewhere for results: --claim <pvc> (a ReadWriteMany volume shared by the pods) or --sync-command "<cmd>" (run in each pod after sweci, e.g. an object-store upload).',
    );
  }
  if (values.tasksFile) throw new UserError('k8s takes --tasks id,id rather than --tasks-file: the pods have no copy of the file. Write the ids with --tasks.');
  // --memory-mb is the pod's own limit (the harness and every step in it), not a step's.
  const { memoryMb: podMemory, ...runValues } = values;
  const settings = cliSettings(runValues);
  const { docker } = readRuntimeSettings(settings.read, settings.label);
  const memoryMb = readCount(
    () => podMemory,
    () => '--memory-mb',
    'memoryMb',
    8192,
    'MiB',
  );
  const datasetDir = path.resolve(values.dataset);
  const split = values.split ?? (await listSplits(datasetDir))[0];
  const specs = await selectTasks(
    await readDatasetTasks(datasetDir, split),
    {
      ids: values.tasks ? commaList(values.tasks) : undefined,
    },
    `${datasetDir} (split ${split})`,
  );
  const experimentName = path.basename(path.resolve(values.experiment));
  const workers = Number(values.workers ?? '1');
  if (!Number.isInteger(workers) || workers < 1) throw new UserError(`--workers must be a whole number of 1 or more, not "${values.workers}".`);
  // Each pod selects the same list: the selection flags go along with the user's run flags.
  const selection = ['--split', split, ...(values.tasks ? ['--tasks', values.tasks] : [])];
  const options: K8sJobOptions = {
    name: values.name ?? k8sJobName(experimentName),
    ...(values.namespace ? { namespace: values.namespace } : {}),
    image: values.image,
    taskCount: specs.length,
    parallelism: workers,
    datasetPath: values.datasetPath ?? '/data/dataset',
    experimentPath: values.experimentPath ?? `/results/${experimentName}`,
    runArgs: [...selection, ...runArgs],
    memoryMb,
    cpus: docker.cpus,
    // One claim holds both: the dataset in dataset/, each experiment in experiments/<name>/.
    results: values.claim
      ? {
          kind: 'volume',
          claimName: values.claim,
          ...(values.datasetClaim
            ? { datasetClaimName: values.datasetClaim }
            : { datasetSubPath: 'dataset', experimentSubPath: `experiments/${experimentName}` }),
        }
      : { kind: 'sync', command: values.syncCommand!, ...(values.datasetClaim ? { datasetClaimName: values.datasetClaim } : {}) },
    ...(values.secret ? { secretName: values.secret } : {}),
  };
  // The pods get their keys from the Secret; this machine's keys (the known variables and those
  // the run flags name with --api-key-env) must not be in the files, as a model name say.
  checkNoSecrets(options, Object.values(apiKeysFrom(process.env, apiKeyEnvNames(runArgs))));
  const manifest = k8sJobManifest(options);
  const outDir = path.resolve(values.out ?? '.');
  await fs.mkdir(outDir, { recursive: true });
  const manifestFile = path.join(outDir, `${options.name}.job.json`);
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  const readme = path.join(outDir, `${options.name}.README.md`);
  await fs.writeFile(readme, k8sReadme(options, path.basename(manifestFile)));
  console.log(`wrote ${manifestFile} (${plural(specs.length, 'task')}, ${Math.min(workers, specs.length)} at a time)`);
  console.log(`wrote ${readme}: how to run it (kubectl apply -f ${path.basename(manifestFile)})`);
  return 0;
}

/** The variables the run flags name with --api-key-env (as `--api-key-env NAME` or `--api-key-env=NAME`). */
function apiKeyEnvNames(runArgs: readonly string[]): string[] {
  return runArgs.flatMap((arg, i) => {
    if (arg.startsWith('--api-key-env=')) return [arg.slice('--api-key-env='.length)];
    return arg === '--api-key-env' && i + 1 < runArgs.length ? [runArgs[i + 1]] : [];
  });
}
