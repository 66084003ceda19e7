// Where commands run. The local runtime spawns processes on this machine; the Docker and Podman
// runtimes run each command in a fresh container from the task's image. Callers say which host paths a
// command needs (mounts) and use `pathIn` for the paths they hand it, so one call site serves both.
import type { Mount } from './mounts';
import type { Confinement } from './sandbox';

export type { Mount } from './mounts';
export type { Confinement } from './sandbox';

export type RuntimeKind = 'local' | ContainerEngineKind;

/** The container engines a task may run in (one more module each: docker/, podman/). */
export type ContainerEngineKind = 'docker' | 'podman';

/**
 * How a command is kept from what it must not see: a container, a local sandbox (bubblewrap),
 * or nothing (a plain local process sees and may change everything its user can).
 */
export type Isolation = 'container' | 'sandbox' | 'none';

export interface CommandRequest {
  command: string;
  args: readonly string[];
  /** The working directory as the command sees it (see `Runtime.pathIn`). */
  cwd: string;
  /**
   * Added to the environment. Locally that is the inherited one; in a container it is the
   * image's own (nothing from this machine leaks in).
   */
  env?: Readonly<Record<string, string>>;
  /**
   * Start from a clean environment instead of this process's: only what an interpreter needs to
   * start (PATH, HOME, locale, temp folder, an active virtual environment; see clean-env.ts),
   * then `env`. Containers always start from the image's own.
   */
  cleanEnv?: boolean;
  /** Kill the whole process tree after this many milliseconds. */
  timeoutMs?: number;
  /** Aborting kills the whole process tree. */
  signal?: AbortSignal;
  /** Live output, in arrival order. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Text written to the process's stdin, then stdin is closed. */
  stdin?: string;
  /**
   * The host folders (or files) the command needs and where it sees them. A container sees
   * only these; a local process sees every path where it is, so targets are ignored there.
   */
  mounts?: readonly Mount[];
  /** Containers only: whether the command may reach the network (default: no). */
  network?: boolean;
  /**
   * A sandboxed local run: paths the command must not see (the task's records, the oracle, the
   * dataset) and broad folders it may write besides its mounts. A container sees only its
   * mounts anyway; a plain local process ignores this (its isolation is 'none').
   */
  confine?: Confinement;
}

export interface RunResult {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /**
   * A confined run (sandbox or container) ran into one of its limits (sweci.limits.*), as the
   * kernel counted it: the sentence records and views show, e.g. "memory limit 8 GiB reached
   * (sweci.limits.memoryMb)".
   */
  limitReached?: string;
}

export interface Runtime {
  readonly kind: RuntimeKind;
  /** One line for views, logs and records: "local", "docker · <image>" or "podman · <image>". */
  readonly description: string;
  readonly isolation: Isolation;
  /** Where `hostPath` appears to a command run with `mounts` (locally: the path itself). */
  pathIn(mounts: readonly Mount[], hostPath: string): string;
  run(req: CommandRequest): Promise<RunResult>;
  /** Stops whatever still runs and frees what the runtime holds (containers). Safe to call twice. */
  dispose(): Promise<void>;
}
