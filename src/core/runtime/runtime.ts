// Where commands run. The local runtime spawns processes; a Docker runtime execs in a container.

export interface RunRequest {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Added to (not replacing) the inherited environment. */
  env?: Readonly<Record<string, string>>;
  /** Kill the whole process tree after this many milliseconds. */
  timeoutMs?: number;
  /** Aborting kills the whole process tree. */
  signal?: AbortSignal;
  /** Live output, in arrival order. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Text written to the process's stdin, then stdin is closed. */
  stdin?: string;
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
}

export interface Runtime {
  readonly kind: 'local' | 'docker';
  run(req: RunRequest): Promise<RunResult>;
}
