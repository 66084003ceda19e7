// What goes wrong between us and a Docker engine, in words a user can act on.
import { UserError, errorMessage } from '../../util/errors';

/** The engine cannot be reached, or stopped answering. Nothing the code under test did. */
export class DockerUnavailableError extends UserError {
  constructor(message: string, options?: { detail?: string; cause?: unknown }) {
    super(message, options);
    this.name = 'DockerUnavailableError';
  }
}

export function isDockerUnavailable(err: unknown): err is DockerUnavailableError {
  return err instanceof Error && err.name === 'DockerUnavailableError';
}

/** What to do when the engine does not answer. */
export const ENGINE_HINT = 'Start Docker, point DOCKER_HOST or the sweci.docker.socketPath setting at an engine that answers, or set sweci.runtime to "local".';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_SOCKET_CLOSED']);

/** True for failures of the connection itself (no engine, engine gone), not answers from it. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code && CONNECTION_CODES.has(code)) return true;
  return /socket hang up|connect ECONNREFUSED|other side closed|premature close/i.test(err.message);
}

/** The HTTP status an engine answered with, when it answered. */
export function statusOf(err: unknown): number | undefined {
  const s = (err as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof s === 'number' ? s : undefined;
}

/** The engine's own message (dockerode puts the JSON body in `json`). */
export function engineMessage(err: unknown): string {
  const json = (err as { json?: { message?: unknown } } | undefined)?.json;
  if (json && typeof json.message === 'string') return json.message;
  const reason = (err as { reason?: unknown } | undefined)?.reason;
  const text = errorMessage(err);
  return typeof reason === 'string' && !text.includes(reason) ? `${reason}: ${text}` : text;
}

/** Wraps a failure to talk to the engine at `address` while doing `what`. */
export function unavailable(address: string, what: string, err: unknown): DockerUnavailableError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES') {
    return new DockerUnavailableError(
      `Permission denied on the Docker engine at ${address} while ${what}. Add your user to the "docker" group (then log in again), or use an engine you may reach. ${ENGINE_HINT}`,
      { cause: err, detail: engineMessage(err) },
    );
  }
  return new DockerUnavailableError(`The Docker engine at ${address} did not answer while ${what}. ${ENGINE_HINT}`, {
    cause: err,
    detail: engineMessage(err),
  });
}
