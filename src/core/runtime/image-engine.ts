// The engine whose task images `sweci images` and `sweci run --evict-images` look at: Docker's
// engine, or the Podman store the settings name, reached through its API service as a run
// reaches it. The task images and the budget (docker/task-images.ts, docker/image-budget.ts)
// are the same code on both: only opening the engine differs.
import { UserError } from '../util/errors';
import { connectDocker, engineAnswers, pingEngine, type DockerConnection } from './docker/docker-connection';
import { checkPodmanHost } from './podman/podman-preflight';
import { acquirePodman } from './podman/podman-service';
import { podmanStoreName } from './podman/podman-store';
import type { ContainerEngineKind } from './runtime';
import type { RuntimeSettings } from './runtime-settings';

export interface ImageEngine {
  kind: ContainerEngineKind;
  conn: DockerConnection;
  /** Where the images are, for messages: "the Docker engine at /var/run/docker.sock", "Podman's store /x". */
  where: string;
  /** Lets the engine go (Podman: its service stops when nothing else of this process holds it). */
  release(): Promise<void>;
}

/** The engine `runtime` names; `auto`: the one a run would load into (Docker's when it answers, else Podman). */
export function imageEngineKind(runtime: RuntimeSettings['runtime']): ContainerEngineKind | 'auto' {
  if (runtime === 'podman' || runtime === 'auto') return runtime;
  if (runtime === 'local') {
    throw new UserError(
      'The local runtime has no image store: task images are loaded into Docker or Podman. Name one with --runtime docker (the default) or --runtime podman (with --podman-root and --podman-runroot for a store of your own).',
    );
  }
  return 'docker';
}

/** `auto` as a run chooses (task-environment.ts): Docker's engine when it answers, else Podman when it can run here. */
async function openAutoEngine(settings: RuntimeSettings, signal?: AbortSignal): Promise<ImageEngine> {
  const conn = connectDocker({ socketPath: settings.docker.socketPath });
  if (await engineAnswers(conn)) return openImageEngine(settings, 'docker', signal);
  try {
    return await openImageEngine(settings, 'podman', signal);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    throw new UserError(
      `No Docker engine answered at ${conn.address}, and Podman cannot run here: ${err.message} Start Docker's engine (or name its socket with --socket), or install Podman.`,
    );
  }
}

export async function openImageEngine(settings: RuntimeSettings, kind: ContainerEngineKind | 'auto', signal?: AbortSignal): Promise<ImageEngine> {
  if (kind === 'auto') return openAutoEngine(settings, signal);
  if (kind === 'docker') {
    const conn = connectDocker({ socketPath: settings.docker.socketPath });
    await pingEngine(conn);
    return { kind, conn, where: `the Docker engine at ${conn.address}`, release: () => Promise.resolve() };
  }
  // No container of a step runs here: the limits a rootless user on cgroup v1 cannot hold do not matter.
  const host = checkPodmanHost({ limits: { ...settings.limits, memoryMb: 0, processes: 0 }, cpus: 0 });
  const service = await acquirePodman(settings.podman, host, signal);
  return { kind, conn: service.connection, where: podmanStoreName(settings.podman), release: () => service.release() };
}
