// Runs commands as local processes: no shell (arguments are never interpolated into a
// command line), the whole process tree is killed on timeout or cancellation.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { Mount } from './mounts';
import type { Isolation, Runtime, RunRequest, RunResult } from './runtime';
import { bubblewrapCommand } from './sandbox';
import { cleanEnvironment } from './clean-env';
import { killProcessTree } from './kill-tree';
import { SpawnError, spawnErrorFor } from './spawn-error';
import { TailBuffer } from './tail-buffer';

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
}

const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;
const DEFAULT_ORPHAN_GRACE_MS = 2000;

export class LocalRuntime implements Runtime {
  readonly kind = 'local' as const;
  readonly description: string;
  readonly isolation: Extract<Isolation, 'sandbox' | 'none'>;
  private readonly bwrap?: string;
  private readonly maxOutputChars: number;
  private readonly orphanGraceMs: number;
  /** Process groups still running, killed by dispose (window closed, CLI exiting). */
  private readonly running = new Set<number>();

  constructor(options: LocalRuntimeOptions = {}) {
    this.maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
    this.orphanGraceMs = options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS;
    this.bwrap = options.bwrap;
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

  async run(req: RunRequest): Promise<RunResult> {
    // spawn reports a missing cwd as ENOENT of the command, which would blame the wrong thing.
    if (!fs.existsSync(req.cwd)) {
      throw new SpawnError(`Cannot run "${req.command}": working directory ${req.cwd} does not exist.`, req.command, 'ENOENT');
    }
    if (req.signal?.aborted) {
      return { exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, cancelled: true, durationMs: 0 };
    }
    const sandboxed = this.bwrap && req.confine ? await bubblewrapCommand(this.bwrap, req, req.confine) : undefined;
    const command = sandboxed?.command ?? req.command;
    const args = sandboxed?.args ?? [...req.args];
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
        env: { ...(req.cleanEnv ? cleanEnvironment(process.env) : process.env), ...req.env },
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
    });
  }
}
