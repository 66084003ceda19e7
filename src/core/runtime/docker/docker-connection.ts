// One way to reach the engine for the extension and the CLI: an explicit socket path, else
// DOCKER_HOST, else the platform's default socket (dockerode's own rules).
import type { Readable } from 'node:stream';
import Docker from 'dockerode';
import { DockerUnavailableError, ENGINE_HINT, isConnectionError, unavailable } from './docker-errors';
import { errorMessage } from '../../util/errors';
import type { ContainerEngineKind } from '../runtime';

export interface DockerConnectionSettings {
  /** A unix socket (or Windows named pipe); empty: DOCKER_HOST, else the default socket. */
  socketPath?: string;
}

export interface DockerConnection {
  docker: Docker;
  /** Where the engine is, for messages: a socket path or a DOCKER_HOST URL. */
  address: string;
  /** What answers there when it is not Docker's own engine: Podman's Docker-compatible service (podman/). */
  engine?: EngineTraits;
}

/**
 * How an engine that speaks Docker's API differs from Docker's: the same calls, a few settings
 * and words of its own. One object per engine module, so the container code stays one.
 */
export interface EngineTraits {
  kind: ContainerEngineKind;
  /** Its name in messages: "Podman". */
  name: string;
  /** The user namespace containers get (HostConfig.UsernsMode), e.g. rootless Podman's keep-id. */
  usernsMode?: string;
  /**
   * Containers are created one at a time (createContainerOn): rootless Podman 4.3's service reads
   * the subordinate ids for keep-id through libsubid, whose state is shared, and of two creates at
   * once one can fail with "keep-id requires additional UIDs or GIDs".
   */
  oneCreateAtATime?: boolean;
  /**
   * Rlimits every container gets besides the hold's own: what an engine would otherwise raise past
   * what this machine allows (Podman, as root where root may not raise them, refuses every start).
   */
  ulimits?: { Name: string; Soft: number; Hard: number }[];
  /** How an image archive goes into this engine, when not through the API's load as into Docker's (api-load.ts). */
  loader?: ArchiveLoader;
  /**
   * The store's folder on this machine when SWE-CI named it (Podman's --root): room for a load is
   * checked there without asking the engine, whose info costs Podman about a second.
   */
  storageRoot?: string;
  /** Peak bytes a load takes on the store's disk, in unpacked sizes of the archive (Docker: 2). */
  loadPeakFactor: number;
  /**
   * A lock file loads into this engine's store wait for: where several processes each run their
   * own engine on one store (Podman's service per process; Slurm elements on one node), an image
   * is loaded by one of them and found by the others. None: the engine serializes loads itself.
   */
  loadLock?: string;
  /** The fix for a failure the engine reports, when it is one this machine's set-up causes. */
  fixFor(message: string): string | undefined;
  /** What to do when it does not answer (Docker's ENGINE_HINT otherwise). */
  hint: string;
}

/**
 * Puts an image archive into an engine: the one step of a load that differs between engines
 * (ensure-image.ts reads the archive, hashes it, learns its image and labels it, for every engine).
 */
export interface ArchiveLoader {
  /** Whether it takes the tar decompressed (Podman 4.3 reads no gzipped `docker save`); else the file's gzip as it is. */
  plainTar: boolean;
  /**
   * Loads `body` (the bytes of the archive `file`, as `plainTar` says) and resolves once the engine
   * holds its image. When `body` is destroyed with an error or `signal` aborts, the load stops, and
   * the promise settles once nothing of it runs any more.
   */
  load(body: Readable, file: string, signal?: AbortSignal): Promise<void>;
}

/** The engine's name for messages: "Docker" unless it is another engine. */
export const engineName = (conn: Pick<DockerConnection, 'engine'>): string => conn.engine?.name ?? 'Docker';

const DEFAULT_SOCKET = process.platform === 'win32' ? '//./pipe/docker_engine' : '/var/run/docker.sock';

export function connectDocker(settings: DockerConnectionSettings = {}): DockerConnection {
  const socketPath = settings.socketPath?.trim();
  if (socketPath) return { docker: new Docker({ socketPath }), address: socketPath };
  const host = process.env.DOCKER_HOST?.trim();
  if (host) return { docker: new Docker(), address: `DOCKER_HOST=${host}` };
  return { docker: new Docker({ socketPath: DEFAULT_SOCKET }), address: DEFAULT_SOCKET };
}

/** How long an engine may take to answer a ping before it counts as not answering. */
export const PING_TIMEOUT_MS = 5000;

/** Resolves when the engine answers; throws a DockerUnavailableError that says what to do. */
export async function pingEngine(conn: DockerConnection, timeoutMs = PING_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DockerUnavailableError(`The Docker engine at ${conn.address} did not answer within ${timeoutMs / 1000} s. ${ENGINE_HINT}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([conn.docker.ping(), timeout]);
  } catch (err) {
    if (err instanceof DockerUnavailableError) throw err;
    if (isConnectionError(err) || (err as NodeJS.ErrnoException).code === 'EACCES') throw unavailable(conn.address, 'checking that it runs', err);
    throw new DockerUnavailableError(`The Docker engine at ${conn.address} answered the ping with an error. ${ENGINE_HINT}`, {
      cause: err,
      detail: errorMessage(err),
    });
  } finally {
    clearTimeout(timer);
  }
}

/** True when the engine answers (for `auto`: Docker when there is one, else local). */
export async function engineAnswers(conn: DockerConnection, timeoutMs = 2000): Promise<boolean> {
  try {
    await pingEngine(conn, timeoutMs);
    return true;
  } catch {
    return false;
  }
}

const lastCreate = new WeakMap<Docker, Promise<unknown>>();

/** Creates a container on `conn`, after the creates before it where the engine needs that (EngineTraits.oneCreateAtATime). */
export function createContainerOn(conn: DockerConnection, spec: Docker.ContainerCreateOptions): Promise<Docker.Container> {
  if (!conn.engine?.oneCreateAtATime) return conn.docker.createContainer(spec);
  const created = (lastCreate.get(conn.docker) ?? Promise.resolve()).then(() => conn.docker.createContainer(spec));
  lastCreate.set(
    conn.docker,
    created.catch(() => undefined),
  );
  return created;
}
