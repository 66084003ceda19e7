// Opens where a task's commands run, from the user's settings and what the task has: its
// image.tar.gz, or the environment recorded when it was checked out. The one place that
// decides local, Docker or Podman; the extension and the CLI both call it (no runtime is made by
// hand at a call site). A container engine is a connection that speaks Docker's API (Podman's
// is a service of ours, podman/); everything after the connection is the same code.
import { throwIfAborted, UserError } from '../util/errors';
import type { EnvironmentRecord } from '../workspace/environment-record';
import { connectDocker, engineAnswers, pingEngine, type DockerConnection } from './docker/docker-connection';
import { removeStaleContainers } from './docker/container-owner';
import { DockerRuntime } from './docker/docker-runtime';
import { ensureImage, type EnsuredImage, type EnsureImageOptions } from './docker/ensure-image';
import { budgetNote, enforceImageBudget, GB } from './docker/image-budget';
import { recordImageUse } from './docker/image-use';
import { holdImage } from './docker/task-images';
import { statusOf } from './docker/docker-errors';
import * as path from 'node:path';
import { LocalRuntime } from './local-runtime';
import type { Runtime } from './runtime';
import type { RuntimeSettings } from './runtime-settings';
import { findBubblewrap } from './sandbox';
import type { ContainerEngineKind } from './runtime';
import { checkPodmanHost, type PodmanHost } from './podman/podman-preflight';
import { acquirePodman } from './podman/podman-service';

type PodmanService = Awaited<ReturnType<typeof acquirePodman>>;

export interface TaskEnvironment {
  /** Where pytest runs. */
  tests: Runtime;
  /** The interpreter pytest runs with, as `tests` sees it. */
  python: string;
  /** Where agents that run on this machine run. */
  host: LocalRuntime;
  /** Where agents with runIn "container" run; undefined when the task runs locally. */
  agents?: Runtime;
  /** What to write to `.sweci/environment.json` and to say in views. */
  record: EnvironmentRecord;
  /** Why `auto` chose what it chose, when that is worth telling (e.g. "the Docker engine did not answer"). */
  note?: string;
  /** Stops and removes whatever the runtimes still hold. Safe to call twice. */
  dispose(): Promise<void>;
}

export interface TaskImageSource {
  /** The task's data/<task_id>/image.tar.gz, when it has one. */
  imageArchive?: string;
  /** What was recorded at checkout, when the task was checked out before. */
  recorded?: EnvironmentRecord;
}

export interface OpenEnvironmentOptions {
  /** The host interpreter (`sweci.python`) for local runs. */
  hostPython: string;
  signal?: AbortSignal;
  onProgress?: (message: string, fraction?: number) => void;
}

/** One line for the Task view, the status bar and logs: "docker · image" or "local". */
export function describeEnvironment(record: EnvironmentRecord): string {
  if (record.runtime === 'docker' || record.runtime === 'podman') return `${record.runtime} · ${record.image ?? '?'}`;
  return record.isolation === 'none' ? 'local · not isolated' : record.isolation === 'sandbox' ? 'local · sandboxed' : 'local';
}

function local(hostPython: string, host: LocalRuntime, note?: string): TaskEnvironment {
  return {
    tests: host,
    python: hostPython,
    host,
    record: { schema: 1, runtime: 'local', python: hostPython, isolation: host.isolation, recordedAt: new Date().toISOString() },
    ...(note ? { note } : {}),
    dispose: () => host.dispose(),
  };
}

/** The local runtime as sweci.sandbox asks: sandboxed with bubblewrap when it can (or must) be. */
export async function openHostRuntime(
  settings: Pick<RuntimeSettings, 'sandbox' | 'sandboxReadablePaths' | 'sandboxWritablePaths'> & Partial<Pick<RuntimeSettings, 'sandboxUser' | 'limits'>>,
): Promise<LocalRuntime> {
  const choice = settings.sandbox;
  if (choice === 'off') return new LocalRuntime();
  const bwrap = await findBubblewrap();
  if (!bwrap && choice === 'bubblewrap') {
    throw new UserError(
      'sweci.sandbox is "bubblewrap", but bubblewrap cannot run here (not installed, or user namespaces are off). Install it (Debian/Ubuntu: apt-get install bubblewrap), or set sweci.sandbox to "auto" or "off" (runs are then not isolated).',
    );
  }
  return new LocalRuntime({
    bwrap,
    readable: settings.sandboxReadablePaths,
    writable: settings.sandboxWritablePaths,
    ...(settings.sandboxUser ? { sandboxUser: settings.sandboxUser } : {}),
    ...(settings.limits ? { limits: settings.limits } : {}),
  });
}

export async function openTaskEnvironment(settings: RuntimeSettings, task: TaskImageSource, opts: OpenEnvironmentOptions): Promise<TaskEnvironment> {
  const host = await openHostRuntime(settings);
  const named = settings.docker.image;
  // A task checked out with an engine keeps its image there even when the dataset folder moved.
  const recordedIn = (engine: ContainerEngineKind) => (task.recorded?.runtime === engine ? task.recorded.image : undefined);
  const hasImageFor = (engine: ContainerEngineKind) => Boolean(named || task.imageArchive || recordedIn(engine));
  if (settings.runtime === 'local') return local(opts.hostPython, host);
  if (settings.runtime === 'podman') return openPodman(settings, host, task, { named, recordedImage: recordedIn('podman') }, opts);
  const conn = connectDocker({ socketPath: settings.docker.socketPath });
  if (settings.runtime === 'auto') return openAuto(conn, settings, host, task, { named, recordedIn, hasImageFor }, opts);
  if (!hasImageFor('docker')) {
    throw new UserError(
      'sweci.runtime is "docker", but this task has no image.tar.gz and sweci.docker.image names none. Name an image the engine has, or set sweci.runtime to "local" or "auto".',
    );
  }
  await pingEngine(conn);
  throwIfAborted(opts.signal);
  return openDocker(conn, settings, host, imageSource(task, 'docker', named, recordedIn('docker')), opts);
}

/**
 * `auto` with a task that has an image: Docker's engine when it answers, else Podman when it can
 * run here (a compute node or laptop with no Docker daemon), else this machine with a note of why.
 * Once an engine is chosen, its errors are the run's: only "not there" falls through.
 */
async function openAuto(
  conn: DockerConnection,
  settings: RuntimeSettings,
  host: LocalRuntime,
  task: TaskImageSource,
  image: { named: string; recordedIn: (engine: ContainerEngineKind) => string | undefined; hasImageFor: (engine: ContainerEngineKind) => boolean },
  opts: OpenEnvironmentOptions,
): Promise<TaskEnvironment> {
  if (!image.hasImageFor('docker') && !image.hasImageFor('podman')) return local(opts.hostPython, host);
  const dockerAnswers = image.hasImageFor('docker') && (await engineAnswers(conn));
  throwIfAborted(opts.signal);
  if (dockerAnswers) return openDocker(conn, settings, host, imageSource(task, 'docker', image.named, image.recordedIn('docker')), opts);
  const noDocker = image.hasImageFor('docker') ? `no Docker engine answered at ${conn.address}` : 'its image is in Podman, not Docker';
  let podman: { host: PodmanHost; service: PodmanService };
  try {
    podman = await startPodman(settings, opts.signal);
  } catch (err) {
    if (!(err instanceof UserError)) {
      await host.dispose();
      throw err;
    }
    // The reason, not its remedies: the note is a line in the Task view.
    const why = /^(.*?[.:])(\s|$)/.exec(err.message)?.[1].replace(/[.:]$/, '') ?? err.message;
    return local(opts.hostPython, host, `The task has a container image, but ${noDocker} and Podman cannot run here (${why}): running on this machine.`);
  }
  const env = await openInPodman(podman.service, settings, host, imageSource(task, 'podman', image.named, image.recordedIn('podman')), opts);
  return { ...env, note: `The task has a container image and ${noDocker}: running in Podman (${podman.host.rootless ? 'rootless' : 'rootful, as root'}).` };
}

/** The task's image as the engine should get it: named, the archive (known from its record), or the recorded one. */
function imageSource(
  task: TaskImageSource,
  engine: ContainerEngineKind,
  named: string,
  recordedImage: string | undefined,
): Pick<EnsureImageOptions, 'archive' | 'known' | 'image'> {
  const recorded = task.recorded;
  const known =
    !named && task.imageArchive && recorded?.runtime === engine && recorded.archive && recorded.image && recorded.imageId
      ? { archive: recorded.archive, reference: recorded.image, id: recorded.imageId }
      : undefined;
  return { archive: task.imageArchive, known, image: named || (task.imageArchive ? undefined : recordedImage) };
}

/** Podman checked here (podman-preflight.ts) and its API service started or shared (podman-service.ts). */
async function startPodman(settings: RuntimeSettings, signal: AbortSignal | undefined): Promise<{ host: PodmanHost; service: PodmanService }> {
  const host = checkPodmanHost({ limits: settings.limits, cpus: settings.docker.cpus });
  return { host, service: await acquirePodman(settings.podman, host, signal) };
}

/**
 * Podman, rootless as a user or rootful as root: the same containers as Docker's, through its
 * API service. Asked for by name, or `auto`'s choice where no Docker engine answers.
 */
async function openPodman(
  settings: RuntimeSettings,
  host: LocalRuntime,
  task: TaskImageSource,
  image: { named: string; recordedImage: string | undefined },
  opts: OpenEnvironmentOptions,
): Promise<TaskEnvironment> {
  if (!image.named && !task.imageArchive && !image.recordedImage) {
    await host.dispose();
    throw new UserError(
      'sweci.runtime is "podman", but this task has no image.tar.gz and sweci.docker.image names none. Name an image Podman has, or set sweci.runtime to "local".',
    );
  }
  let service: PodmanService;
  try {
    service = (await startPodman(settings, opts.signal)).service;
  } catch (err) {
    await host.dispose();
    throw err;
  }
  return openInPodman(service, settings, host, imageSource(task, 'podman', image.named, image.recordedImage), opts);
}

/** The task's runtimes over a started Podman service, which they let go when disposed. */
async function openInPodman(
  service: PodmanService,
  settings: RuntimeSettings,
  host: LocalRuntime,
  source: Pick<EnsureImageOptions, 'archive' | 'known' | 'image'>,
  opts: OpenEnvironmentOptions,
): Promise<TaskEnvironment> {
  try {
    const env = await openDocker(service.connection, settings, host, source, opts);
    return {
      ...env,
      dispose: async () => {
        await env.dispose();
        await service.release();
      },
    };
  } catch (err) {
    await service.release();
    throw err;
  }
}

async function openDocker(
  conn: DockerConnection,
  settings: RuntimeSettings,
  host: LocalRuntime,
  source: Pick<EnsureImageOptions, 'archive' | 'known' | 'image'>,
  opts: OpenEnvironmentOptions,
): Promise<TaskEnvironment> {
  // Containers a crashed window or CLI left behind go first.
  await removeStaleContainers(conn.docker).catch(() => 0);
  const budgetBytes = settings.docker.imageBudgetGb * GB;
  const ensure = () => ensureImage(conn, { ...source, budgetBytes, signal: opts.signal, onProgress: opts.onProgress });
  let image = await ensure();
  let release = await holdOwned(conn, image).catch(async (err: unknown) => {
    // Another run's budget removed it between the load and the hold: load it again, once.
    if (statusOf(err) !== 404) throw err;
    image = await ensure();
    return holdOwned(conn, image);
  });
  // The task's name for `sweci images`: data/<task_id>/image.tar.gz.
  const task = source.archive ? path.basename(path.dirname(source.archive)) : undefined;
  const freeImage = async (): Promise<void> => {
    const held = release;
    release = nothingHeld;
    await held();
    if (image.owned) await recordImageUse(image.id, task);
  };
  try {
    if (image.owned) {
      await recordImageUse(image.id, task);
      if (budgetBytes > 0) {
        const made = await enforceImageBudget(conn, budgetBytes, { keep: [image.id] });
        if (made.removed.length > 0) opts.onProgress?.(budgetNote(made.removed));
      }
    }
    return await dockerRuntimes(conn, settings, host, image, opts.signal, freeImage);
  } catch (err) {
    await freeImage();
    throw err;
  }
}

/** The runtimes of a task open in Docker, once its image is there (and held: `freeImage` lets it go). */
async function dockerRuntimes(
  conn: DockerConnection,
  settings: RuntimeSettings,
  host: LocalRuntime,
  image: EnsuredImage,
  signal: AbortSignal | undefined,
  freeImage: () => Promise<void>,
): Promise<TaskEnvironment> {
  // Held as sandboxed steps are: the same limits, and the same user when we are root (never root).
  const hold = { limits: settings.limits, cpus: settings.docker.cpus, sandboxUser: settings.sandboxUser };
  // The code under test gets the network only when the user says so; agents need it for their model.
  const tests = new DockerRuntime({
    connection: conn,
    image: image.reference,
    ...hold,
    purpose: 'pytest',
    network: settings.docker.network,
    userNetwork: settings.docker.network,
  });
  const agentImage = settings.docker.agentImage ? (await ensureImage(conn, { image: settings.docker.agentImage, signal })).reference : image.reference;
  const agentNetwork = settings.docker.agentNetwork === 'bridge' ? 'default' : settings.docker.agentNetwork;
  const agents = new DockerRuntime({ connection: conn, image: agentImage, ...hold, purpose: 'agent', network: true, networkMode: agentNetwork });
  return {
    tests,
    python: settings.docker.python,
    host,
    agents,
    record: {
      schema: 1,
      runtime: conn.engine?.kind ?? 'docker',
      image: image.reference,
      imageId: image.id,
      ...(image.archive ? { archive: image.archive } : {}),
      python: settings.docker.python,
      recordedAt: new Date().toISOString(),
    },
    dispose: async () => {
      await Promise.all([tests.dispose(), agents.dispose(), host.dispose()]);
      await freeImage();
    },
  };
}

/** Holds an image SWE-CI loaded while the task is open (task-images.ts); others need no hold. */
async function holdOwned(conn: DockerConnection, image: EnsuredImage): Promise<() => Promise<void>> {
  return image.owned ? holdImage(conn, image.id) : nothingHeld;
}

const nothingHeld = (): Promise<void> => Promise.resolve();
