// Runs commands as local processes: no shell (arguments are never interpolated into a
// command line), the whole process tree is killed on timeout or cancellation.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Mount } from './mounts';
import type { Isolation, Runtime, CommandRequest, RunResult } from './runtime';
import { bubblewrapCommand, harnessIsRoot, probeBubblewrap, type Confinement, type StepHold, type StepTools } from './sandbox';
import { DEFAULT_SANDBOX_USER, DEFAULT_STEP_LIMITS, limitReason, type LimitKind, type SandboxUser, type StepLimits } from './step-limits';
import { openStepCgroup, type StepCgroup } from './step-cgroup';
import { chownTrees } from './hand-over';
import { findTrustedProgram } from '../util/trusted-program';
import { interpreterView, isPythonName, mergeViews, programView, type ToolView } from './host-tools';
import { cleanEnvironment } from './clean-env';
import { killProcessTree } from './kill-tree';
import { SpawnError, spawnErrorFor } from './spawn-error';
import { TailBuffer } from './tail-buffer';
import { GATEWAY_SOCKET_IN_STEP, withGatewayForwarder } from './gateway-forwarder';

export interface LocalRuntimeOptions {
  /** Characters of stdout and of stderr kept (the tail); default 4 MiB each. */
  maxOutputChars?: number;
  /**
   * After the direct child exits, how long to wait for its pipes to close. A leftover
   * grandchild holding them open would otherwise keep the run going forever; after this
   * grace its process group is killed. Default 2000 ms.
   */
  orphanGraceMs?: number;
  /**
   * The bubblewrap executable (see findBubblewrap): requests that say what to hide (`confine`)
   * run in a sandbox. Without it every process runs plain.
   */
  bwrap?: string;
  /** Host paths every sandboxed command may read besides its tools and mounts (sweci.sandboxReadablePaths). */
  readable?: readonly string[];
  /**
   * Host folders every sandboxed command may write besides its mounts (sweci.sandboxWritablePaths).
   * As root they are given to the sandbox user before each confined step (and stay its).
   */
  writable?: readonly string[];
  /** What each confined command may use (sweci.limits.*); default DEFAULT_STEP_LIMITS. */
  limits?: StepLimits;
  /** Who confined commands run as when this process is root (sweci.sandboxUser); default nobody. */
  sandboxUser?: SandboxUser;
}

/** Run by root before bubblewrap: puts its own process into the step's control groups, then becomes bwrap. */
const JOIN_GROUP = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 126; shift; n=$((n - 1)); done; exec "$@"';

const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;
const DEFAULT_ORPHAN_GRACE_MS = 2000;

export class LocalRuntime implements Runtime {
  readonly kind = 'local' as const;
  readonly description: string;
  readonly isolation: Extract<Isolation, 'sandbox' | 'none'>;
  private readonly bwrap?: string;
  private readonly tools?: StepTools;
  private readonly limits: StepLimits;
  private readonly sandboxUser: SandboxUser;
  readonly readable: readonly string[];
  readonly writable: readonly string[];
  /** The tools every sandboxed command may run (python3, node, git on PATH), found once. */
  private baseView?: Promise<ToolView>;
  private readonly interpreters = new Map<string, Promise<ToolView>>();
  private readonly maxOutputChars: number;
  private readonly orphanGraceMs: number;
  /** Process groups still running, killed by dispose (window closed, CLI exiting). */
  private readonly running = new Set<number>();

  constructor(options: LocalRuntimeOptions = {}) {
    this.maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
    this.orphanGraceMs = options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS;
    this.bwrap = options.bwrap;
    this.limits = options.limits ?? DEFAULT_STEP_LIMITS;
    this.sandboxUser = options.sandboxUser ?? DEFAULT_SANDBOX_USER;
    if (this.bwrap) {
      const prlimit = findTrustedProgram('prlimit');
      const setpriv = findTrustedProgram('setpriv');
      if (!prlimit || !setpriv) throw new Error('The sandbox needs prlimit and setpriv (util-linux) from the system folders; install util-linux.');
      this.tools = { prlimit, setpriv };
    }
    this.readable = options.readable ?? [];
    this.writable = options.writable ?? [];
    this.isolation = this.bwrap ? 'sandbox' : 'none';
    this.description = this.bwrap ? 'local · sandboxed' : 'local';
  }

  /** A local process sees every path where it is. */
  pathIn(_mounts: readonly Mount[], hostPath: string): string {
    return hostPath;
  }

  dispose(): Promise<void> {
    for (const pid of this.running) killProcessTree(pid);
    this.running.clear();
    return Promise.resolve();
  }

  /**
   * The sandbox's argv. The command is run by its absolute path (an interpreter by its real
   * executable, not a shim), the tools it needs are shown read-only and put first on its PATH
   * (`env` is changed in place), with the user's readable paths and the absolute paths it is handed
   * (arguments and PYTHONPATH entries).
   */
  private async sandboxCommand(
    bwrap: string,
    req: CommandRequest,
    confine: Confinement,
    env: Record<string, string | undefined>,
    hold: StepHold & { tools: StepTools },
  ) {
    const searchPath = env.PATH ?? '';
    this.baseView ??= (async () =>
      mergeViews([await this.interpreter('python3', env), await programView('node', req.cwd, searchPath), await programView('git', req.cwd, searchPath)]))();
    const own = isPythonName(req.command) ? await this.interpreter(req.command, env) : await programView(req.command, req.cwd, searchPath);
    const view = mergeViews([own, await this.baseView]);
    env.PATH = [...view.pathDirs, searchPath].filter(Boolean).join(path.delimiter);
    // Absolute folders the run was handed, as arguments or on its PYTHONPATH (the user's
    // sweci.pytest.env), are shown read-only: a confined run would not find them otherwise.
    const onPythonPath = (env.PYTHONPATH ?? '').split(path.delimiter);
    const handed = [...req.args, ...onPythonPath].filter((a) => path.isAbsolute(a) && fs.existsSync(a));
    const readable = [...view.readable, ...this.readable, ...handed, ...(confine.readable ?? [])];
    const writable = [...this.writable, ...(confine.writable ?? [])];
    const command = await this.throughGateway(confine, env, own.program ?? req.command, req.args);
    return bubblewrapCommand(bwrap, { ...req, ...command }, { ...confine, readable, writable }, hold);
  }

  /** With the gateway, the command runs inside the forwarder, by the python3 every sandbox shows. */
  private async throughGateway(
    confine: Confinement,
    env: Record<string, string | undefined>,
    command: string,
    args: readonly string[],
  ): Promise<{ command: string; args: readonly string[] }> {
    if (confine.network?.kind !== 'gateway') return { command, args };
    const python = (await this.interpreter('python3', env)).program;
    if (!python) throw new SpawnError('Cannot reach the model gateway from the sandbox: python3 (its forwarder) was not found on PATH.', 'python3', 'ENOENT');
    return withGatewayForwarder(python, GATEWAY_SOCKET_IN_STEP, confine.network.port, command, args);
  }

  private interpreter(python: string, env: Record<string, string | undefined>): Promise<ToolView> {
    const key = `${python}\0${env.PATH ?? ''}`;
    let view = this.interpreters.get(key);
    if (!view) {
      view = interpreterView(python, env);
      this.interpreters.set(key, view);
    }
    return view;
  }

  async run(req: CommandRequest): Promise<RunResult> {
    // spawn reports a missing cwd as ENOENT of the command, which would blame the wrong thing.
    if (!fs.existsSync(req.cwd)) {
      throw new SpawnError(`Cannot run "${req.command}": working directory ${req.cwd} does not exist.`, req.command, 'ENOENT');
    }
    if (req.signal?.aborted) {
      return { exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, cancelled: true, durationMs: 0 };
    }
    const env: Record<string, string | undefined> = { ...(req.cleanEnv ? cleanEnvironment(process.env) : process.env), ...req.env };
    if (!this.bwrap || !this.tools || !req.confine) return this.spawnAndWait(req.command, [...req.args], req, env);
    return this.runConfined(this.bwrap, this.tools, req, req.confine, env);
  }

  /**
   * A sandboxed run: in a control group of its own where one can be made (memory and processes),
   * as the sandbox user when we are root (its writable folders handed to it for the step), and
   * with the limit it ran into, if any, named in the result.
   */
  private async runConfined(
    bwrap: string,
    tools: StepTools,
    req: CommandRequest,
    confine: Confinement,
    env: Record<string, string | undefined>,
  ): Promise<RunResult> {
    // As root: the sandbox user by setpriv, or (where namespaces need a user namespace) mapped in one.
    const probe = harnessIsRoot() ? await probeBubblewrap() : undefined;
    const mapped = probe !== undefined && 'bwrap' in probe && probe.rootMode === 'mapped';
    const user = harnessIsRoot() && !mapped ? this.sandboxUser : undefined;
    // The step's own folders go back to us after it; the user's listed folders stay the sandbox user's.
    const stepFolders = [...(req.mounts ?? []).filter((m) => !m.readOnly).map((m) => m.source), ...(confine.writable ?? [])];
    const group: StepCgroup | undefined = openStepCgroup(this.limits);
    try {
      if (user) await chownTrees([...stepFolders, ...this.writable], user.uid, user.gid);
      const hold = {
        tools,
        limits: this.limits,
        addressSpaceLimit: confine.addressSpaceLimit === true,
        ...(user ? { user } : {}),
        ...(mapped ? { mapped: this.sandboxUser } : {}),
        ...(group ? { heldByGroup: group.enforces, groupView: group.view } : {}),
      };
      const sandboxed = await this.sandboxCommand(bwrap, req, confine, env, hold);
      const result = group
        ? await this.spawnAndWait(
            '/bin/sh',
            ['-c', JOIN_GROUP, 'sh', String(group.procsFiles.length), ...group.procsFiles, sandboxed.command, ...sandboxed.args],
            req,
            env,
          )
        : await this.spawnAndWait(sandboxed.command, sandboxed.args, req, env);
      const reached: LimitKind | undefined = group?.reached() ?? (result.signal === 'SIGXFSZ' ? 'file-size' : undefined);
      return reached ? { ...result, limitReached: limitReason(reached, this.limits) } : result;
    } finally {
      await group?.dispose();
      if (user) await chownTrees(stepFolders, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    }
  }

  private spawnAndWait(command: string, args: string[], req: CommandRequest, env: Record<string, string | undefined>): Promise<RunResult> {
    return new Promise<RunResult>((resolve, reject) => {
      const started = Date.now();
      const stdout = new TailBuffer(this.maxOutputChars);
      const stderr = new TailBuffer(this.maxOutputChars);
      let timedOut = false;
      let cancelled = false;
      let exitCode: number | null = null;
      let exitSignal: string | null = null;
      let settled = false;
      let timeoutTimer: NodeJS.Timeout | undefined;
      let graceTimer: NodeJS.Timeout | undefined;

      const child = spawn(command, args, {
        cwd: req.cwd,
        env,
        stdio: [req.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        // A detached child leads its own process group on POSIX, so the group can be killed.
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });

      const pid = child.pid;
      if (pid !== undefined) this.running.add(pid);
      const killTree = (): void => {
        if (child.pid !== undefined) killProcessTree(child.pid);
      };
      const onAbort = (): void => {
        cancelled = true;
        killTree();
      };
      const cleanup = (): void => {
        if (pid !== undefined) this.running.delete(pid);
        if (timeoutTimer) clearTimeout(timeoutTimer);
        if (graceTimer) clearTimeout(graceTimer);
        req.signal?.removeEventListener('abort', onAbort);
      };
      const finish = (): void => {
        if (settled) return;
        settled = true;
        cleanup();
        resolve({
          exitCode,
          signal: exitSignal,
          stdout: stdout.text(),
          stderr: stderr.text(),
          timedOut,
          cancelled,
          durationMs: Date.now() - started,
        });
      };

      const forward = (stream: 'stdout' | 'stderr', buffer: TailBuffer) => (chunk: string) => {
        buffer.append(chunk);
        if (req.onOutput) {
          try {
            req.onOutput(chunk, stream);
          } catch {
            // A faulty listener must not break the run or lose its output.
          }
        }
      };
      child.stdout?.setEncoding('utf8');
      child.stderr?.setEncoding('utf8');
      child.stdout?.on('data', forward('stdout', stdout));
      child.stderr?.on('data', forward('stderr', stderr));

      child.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return;
        if (child.pid === undefined) {
          // The process never started.
          settled = true;
          cleanup();
          reject(spawnErrorFor(command, err));
        }
      });
      child.on('exit', (code, signal) => {
        exitCode = code;
        exitSignal = signal;
        graceTimer = setTimeout(() => {
          killTree();
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, this.orphanGraceMs);
      });
      child.on('close', finish);

      if (req.stdin !== undefined && child.stdin) {
        child.stdin.on('error', () => {
          // EPIPE: the process exited without reading all of its input; its exit code tells.
        });
        child.stdin.end(req.stdin);
      }
      if (req.timeoutMs !== undefined && req.timeoutMs > 0) {
        timeoutTimer = setTimeout(() => {
          timedOut = true;
          killTree();
        }, req.timeoutMs);
      }
      req.signal?.addEventListener('abort', onAbort, { once: true });
      // An abort while a confined run was being set up (run() checked before its awaits) fired
      // before this listener: without this the command ran until its timeout.
      if (req.signal?.aborted) onAbort();
    });
  }
}
